"""Passkeys (WebAuthn) through the ``webauthn`` package, offered only where the page has a secure context.

A browser offers WebAuthn only on https or on ``localhost``; a phone on ``http://192.168.x.x`` has none, so there
the sign-in link and the recovery code stay the ways to another device.  A relying-party id must be a name (not
an address), so passkeys are offered on ``https://NAME`` and ``http://localhost`` only.

Routes::

    POST /api/account/passkeys/options   {"purpose": "register"|"signin"} -> WebAuthn options (JSON)
    POST /api/account/passkeys/register  {"credential"}: add a passkey to your account (signed in)
    POST /api/account/passkeys/signin    {"credential"}: sign this device in with a passkey

Each challenge is kept in the database for 5 minutes and deleted by the request that uses it (one ``DELETE`` with
the expiry in its condition), so it is used once even with many processes.  Credentials are discoverable
(resident keys): signing in asks for no name or id.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Mapping

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...core.meaning import N_, Meaning
from ..edge import safejson
from ..edge.safejson import JSONResponse
from ..edge.tokens import Player
from ..serving import Server, address_of, refusal
from ..state.typed_json import Received
from .routes import NOT_SIGNED_IN, _guarded, _me, _signed_in, _signed_in_response, _signin_allowed, _store
from .schema import accounts, challenges, passkeys
from .secure import relying_party

CHALLENGE_SECONDS = 300
NOT_SECURE = N_("passkeys need a secure page: https with a name, or localhost; use a sign-in link or your recovery "
                "code here")
BAD_PASSKEY = N_("this passkey was not accepted: it is not registered here, its challenge is older than 5 minutes "
                 "or was used, or the browser's answer is malformed")


def _bad() -> tuple[type[Exception], ...]:
    """What a bad passkey or a malformed answer raises (webauthn is imported by the first passkey request, not
    by the server's start)."""
    from webauthn.helpers.exceptions import WebAuthnException

    return (WebAuthnException, ValueError, KeyError, TypeError)


MALFORMED = N_("this passkey's answer is malformed: its clientDataJSON is refused ({why}); a browser sends a JSON "
              "object nested a few levels deep")


class _Malformed(Exception):
    """The browser's clientDataJSON is not JSON we parse (too deep, a NUL, a huge number): refused with 400 and
    :data:`MALFORMED`, before its challenge is looked up, so nothing changes."""


async def _new_challenge(engine: AsyncEngine, account_id: str | None) -> bytes:
    from webauthn.helpers import bytes_to_base64url

    challenge = secrets.token_bytes(32)
    now = int(time.time())
    async with engine.begin() as conn:
        await conn.execute(delete(challenges).where(challenges.c.expires < now))
        await conn.execute(challenges.insert().values(challenge=bytes_to_base64url(challenge), account_id=account_id,
                                                      expires=now + CHALLENGE_SECONDS))
    return challenge


def _credential(body: Mapping[str, object]) -> Received:
    """The browser's credential as webauthn reads it (a wrong shape is refused as a bad passkey: one of
    ``_bad()``)."""
    credential = body["credential"]
    if not isinstance(credential, dict):
        raise TypeError("the credential must be a JSON object")
    return credential


def _client_data(credential: Received) -> str:
    """The credential's ``response.clientDataJSON`` (base64url), or the KeyError or TypeError of a wrong shape."""
    response = credential["response"]
    if not isinstance(response, dict):
        raise TypeError("the credential's response must be a JSON object")
    return str(response["clientDataJSON"])     # as webauthn's base64url reading formats any value


async def _take_challenge(engine: AsyncEngine, credential: Received, account_id: str | None) -> bytes | None:
    """The challenge the browser signed, if it was ours, unexpired and unused (it is used up now).

    :raises _Malformed: when its clientDataJSON is not JSON we parse (:func:`.safejson.loads`: nesting
        bounded, so a document nested thousands deep is refused instead of raising ``RecursionError``).
    """
    from webauthn.helpers import base64url_to_bytes

    try:
        client = safejson.loads(base64url_to_bytes(_client_data(credential)))
    except safejson.BadJSON as e:
        raise _Malformed(Meaning(MALFORMED, {"why": str(e)})) from None
    challenge = str(client["challenge"])
    owner = challenges.c.account_id == account_id if account_id else challenges.c.account_id.is_(None)
    async with engine.begin() as conn:
        done = await conn.execute(delete(challenges).where(
            challenges.c.challenge == challenge, owner, challenges.c.expires >= int(time.time())))
    return base64url_to_bytes(challenge) if done.rowcount == 1 else None


@_guarded
async def api_options(request: Request, server: Server, lang: str, body: Received) -> Response:
    import webauthn
    from webauthn.helpers.structs import (
        AuthenticatorSelectionCriteria,
        ResidentKeyRequirement,
        UserVerificationRequirement,
    )

    rp = relying_party(request)
    if rp is None:
        return refusal(NOT_SECURE, 400, lang)
    if body.get("purpose") == "signin":
        challenge = await _new_challenge(server.db.engine, None)
        options = webauthn.generate_authentication_options(rp_id=rp[0], challenge=challenge,
                                                           user_verification=UserVerificationRequirement.PREFERRED)
        return JSONResponse({"options": json.loads(webauthn.options_to_json(options))})
    player = await _me(request, server)
    if player is None:
        return refusal(NOT_SIGNED_IN, 401, lang)
    await _store(server).ensure(player.id, player.name)
    challenge = await _new_challenge(server.db.engine, player.id)
    made = webauthn.generate_registration_options(
        rp_id=rp[0], rp_name="fiftysix", user_name=player.name, user_id=player.id.encode(), challenge=challenge,
        authenticator_selection=AuthenticatorSelectionCriteria(resident_key=ResidentKeyRequirement.REQUIRED,
                                                               user_verification=UserVerificationRequirement.PREFERRED))
    return JSONResponse({"options": json.loads(webauthn.options_to_json(made))})


@_signed_in
async def api_register(request: Request, server: Server, lang: str, body: Received,
                       player: Player) -> Response:
    import webauthn
    from webauthn.helpers import bytes_to_base64url

    rp = relying_party(request)
    if rp is None:
        return refusal(NOT_SECURE, 400, lang)
    try:
        credential = _credential(body)
        challenge = await _take_challenge(server.db.engine, credential, player.id)
        if challenge is None:
            return refusal(BAD_PASSKEY, 403, lang)
        verified = webauthn.verify_registration_response(credential=credential, expected_challenge=challenge,
                                                         expected_rp_id=rp[0], expected_origin=rp[1])
    except _Malformed as e:
        return refusal(e.args[0], 400, lang)
    except _bad():
        return refusal(BAD_PASSKEY, 403, lang)
    async with server.db.engine.begin() as conn:
        await conn.execute(passkeys.insert().values(
            id=bytes_to_base64url(verified.credential_id), account_id=player.id,
            public_key=bytes_to_base64url(verified.credential_public_key), sign_count=verified.sign_count,
            created=int(time.time())))
    return JSONResponse({"registered": True})


async def _verify_signin(request: Request, server: Server, credential: Received) -> tuple[str, str] | None:
    """The (id, name) of the account whose passkey signed our challenge, or ``None``."""
    import webauthn
    from webauthn.helpers import base64url_to_bytes

    rp = relying_party(request)
    assert rp is not None
    challenge = await _take_challenge(server.db.engine, credential, None)
    if challenge is None:
        return None
    async with server.db.engine.connect() as conn:
        row = (await conn.execute(select(passkeys, accounts.c.name).join(
            accounts, accounts.c.id == passkeys.c.account_id).where(passkeys.c.id == str(credential["id"])))).first()
    if row is None:
        return None
    verified = webauthn.verify_authentication_response(
        credential=credential, expected_challenge=challenge, expected_rp_id=rp[0], expected_origin=rp[1],
        credential_public_key=base64url_to_bytes(row.public_key), credential_current_sign_count=row.sign_count)
    async with server.db.engine.begin() as conn:
        await conn.execute(update(passkeys).where(passkeys.c.id == row.id).values(sign_count=verified.new_sign_count))
    return row.account_id, row.name


@_guarded
async def api_signin(request: Request, server: Server, lang: str, body: Received) -> Response:
    if relying_party(request) is None:
        return refusal(NOT_SECURE, 400, lang)
    if not await _signin_allowed(request, server):
        return refusal(N_("too many sign-in attempts from your address; try again in a few minutes"), 429, lang)
    try:
        found = await _verify_signin(request, server, _credential(body))
    except _Malformed as e:
        await server.lookups.failed(address_of(request))
        return refusal(e.args[0], 400, lang)
    except _bad():
        found = None
    if found is None:
        await server.lookups.failed(address_of(request))
        return refusal(BAD_PASSKEY, 403, lang)
    return await _signed_in_response(request, server, *found, {})


def routes() -> list[BaseRoute]:
    return [Route("/api/account/passkeys/options", api_options, methods=["POST"]),
            Route("/api/account/passkeys/register", api_register, methods=["POST"]),
            Route("/api/account/passkeys/signin", api_signin, methods=["POST"])]

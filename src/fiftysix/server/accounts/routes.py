"""Accounts over HTTP, and the account and sign-in pages.

Routes::

    GET  /account                     the account page (name, devices, sign-in link + QR, recovery code, delete)
    GET  /signin                      a one-time link's page: ``/signin#SECRET`` (the secret stays in the fragment)
    GET  /api/account                 your account: made from this device's player on first use (same id)
    POST /api/account/name            {"name"}: your name here and at tables you join from now on
    POST /api/account/devices/name    {"device", "name"}: name one of your signed-in devices (yours to read only)
    POST /api/account/devices/revoke  {"device"}: sign one of your devices out (its tokens are refused)
    POST /api/account/signout         sign this device out
    POST /api/account/delete          {"confirm": true}: delete the account (records keep "a former player")
    POST /api/account/link            a one-time sign-in link and its QR code (10 minutes, one use)
    POST /api/account/link/use        {"secret"}: sign this device in with a link
    POST /api/account/recovery        a new recovery code (shown once; the one before is refused from now on)
    POST /api/account/recovery/use    {"code"}: sign this device in with a recovery code (used up)

Every route refuses a foreign ``Origin`` (reads too: an account is personal), is limited per address and for the
whole process, and a wrong secret counts as a failed lookup of the address (shared by all processes with Redis),
so secrets cannot be guessed.  Nothing takes an account id from the request: no account can be probed.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...core.meaning import N_, Meaning, words_of
from ..edge.limits import Buckets
from ..edge.names import DEVICE_NAME, check_name
from ..edge.safejson import JSONResponse
from ..edge.share import QRBusy, share_base
from ..edge.tokens import COOKIE, Player, clean_name
from ..pages.html import page_route
from ..pages.route_guard import RouteGuard
from ..serving import Server, address_of, json_body, refusal, set_cookie
from ..state.typed_json import Received
from .secure import count, relying_party
from .store import Accounts

PER_ADDRESS = (2.0, 60)     # account requests a second per address on average, and at once (a page load is 1-2)
WHOLE = (100.0, 200)        # ... and for the whole process
GUARD = RouteGuard("account", PER_ADDRESS, WHOLE,
                   Meaning(N_("too many account requests from your address; try again in a minute")))


def _signin_buckets(request: Request) -> Buckets:
    """Sign-in attempts per address (links, codes, passkeys), apart from the other account requests."""
    state = request.app.state
    if not hasattr(state, "account_signins"):
        state.account_signins = Buckets(*SIGNINS)
    found: Buckets = state.account_signins
    return found
SIGNINS = (1 / 60, 10)      # sign-in attempts (links, recovery codes) per address: 1 a minute, 10 at once

NOT_SIGNED_IN = N_("you are not signed in on this device: choose a name on the start page, or use a sign-in link "
                   "or your recovery code")
BAD_LINK = N_("this sign-in link is not valid: it was used already, it is older than 10 minutes, or it was "
              "copied wrong; make a new one on a signed-in device")
NO_DEVICE = N_("no device of yours signed in with that id: reload the list of devices")
BAD_CODE = N_("this recovery code is not valid: it was used already, replaced by a newer one, or typed wrong")


def _store(server: Server) -> Accounts:
    return Accounts(server.db.engine)


async def _me(request: Request, server: Server) -> Player | None:
    """The signed-in player of this request; a device signed out through another process is refused here too."""
    player = server.signer().read(request.cookies.get(COOKIE))
    if player is None or not player.session:
        return player
    return player if await _store(server).session_live(player.id, player.session) else None


def device_label(user_agent: str) -> str:
    """A short name of the browser for the device list ("Chrome on Android"); never shown to anyone else."""
    browser = next((b for key, b in (("Edg/", "Edge"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"),
                                     ("Safari/", "Safari")) if key in user_agent), "")
    systems = (("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Windows", "Windows"),
               ("Mac OS", "Mac"), ("Linux", "Linux"))
    system = next((s for key, s in systems if key in user_agent), "")
    return " · ".join(p for p in (browser, system) if p) or user_agent[:40] or "?"


async def _signed_in_response(request: Request, server: Server, player_id: str, name: str,
                              data: Received) -> Response:
    """Open a new device session of ``player_id`` and answer ``data`` with its token (also as the cookie)."""
    session = await _store(server).open_session(player_id, name, device_label(request.headers.get("user-agent", "")))
    player, token = server.signer().issue(name, player_id, session)
    response = JSONResponse({**data, "id": player.id, "name": player.name, "token": token})
    set_cookie(response, token, server.signer().max_age)
    return response


Endpoint = Callable[[Request], Awaitable[Response]]
Guarded = Callable[[Request, Server, str, Received], Awaitable[Response]]
"""An account endpoint's handler: the request, the server, the language, the JSON body."""
SignedIn = Callable[[Request, Server, str, Received, Player], Awaitable[Response]]
"""... for a signed-in player, given too."""


def _guarded(handler: Guarded) -> Endpoint:
    """An account endpoint: origin and limits checked, the JSON body (for POST) read, the language found."""
    async def endpoint(request: Request) -> Response:
        admitted = GUARD.admit(request)
        if isinstance(admitted, Response):
            return admitted
        server, lang = admitted
        body = await json_body(request) if request.method == "POST" else {}
        if isinstance(body, Response):
            return body
        return await handler(request, server, lang, body)
    return endpoint


def _signed_in(handler: SignedIn) -> Endpoint:
    """An endpoint for a signed-in player only (401 naming what to do otherwise)."""
    async def endpoint(request: Request, server: Server, lang: str, body: Received) -> Response:
        player = await _me(request, server)
        if player is None:
            return refusal(NOT_SIGNED_IN, 401, lang)
        return await handler(request, server, lang, body, player)
    return _guarded(endpoint)


@_signed_in
async def api_account(request: Request, server: Server, _lang: str, _body: Received,
                      player: Player) -> Response:
    store = _store(server)
    if not player.session:      # a player from before accounts: this device becomes its first session
        return await _signed_in_response(request, server, player.id, player.name, {"upgraded": True})
    await store.ensure(player.id, player.name)
    account = await store.account(player.id)
    assert account is not None
    devices = [{"id": d.id, "name": d.name, "label": d.label, "created": d.created, "seen": d.seen,
                "current": d.id == player.session} for d in account["devices"]]
    shown = {key: value for key, value in account.items() if key != "devices"}
    return JSONResponse({**shown, "devices": devices, "passkeys": await count(server.db.engine, player.id),
                         "passkeys_here": relying_party(request) is not None})


@_signed_in
async def api_name(_request: Request, server: Server, lang: str, body: Received, player: Player) -> Response:
    try:
        name = clean_name(body.get("name"))
    except ValueError as e:
        return refusal(words_of(e), lang=lang)
    await _store(server).rename(player.id, name)
    renamed, token = server.signer().issue(name, player.id, player.session)
    response = JSONResponse({"id": renamed.id, "name": renamed.name, "token": token})
    set_cookie(response, token, server.signer().max_age)
    return response


async def _sign_device_out(server: Server, player: Player, session: str) -> bool:
    """Revoke ``session`` in the database, then in every process (its tokens refused, its websockets closed)."""
    if not await _store(server).revoke(player.id, session):
        return False
    await server.device_out(player.id, session)
    return True


@_signed_in
async def api_device_name(_request: Request, server: Server, lang: str, body: Received, player: Player) -> Response:
    """Name one of the player's signed-in devices: another's, a signed-out one or an unknown id is refused alike
    (404), so no device of another account can be probed."""
    try:
        name = check_name(body.get("name"), "device name", DEVICE_NAME)
    except ValueError as e:
        return refusal(words_of(e), lang=lang)
    device = body.get("device")
    if not isinstance(device, str) or len(device) > 32 or not await _store(server).name_device(player.id, device, name):
        return refusal(NO_DEVICE, 404, lang)
    return JSONResponse({"device": device, "name": name})


@_signed_in
async def api_revoke(_request: Request, server: Server, lang: str, body: Received, player: Player) -> Response:
    device = body.get("device")
    if not isinstance(device, str) or len(device) > 32 or not await _sign_device_out(server, player, device):
        return refusal(NO_DEVICE, 404, lang)
    return JSONResponse({"revoked": device})


@_signed_in
async def api_signout(_request: Request, server: Server, _lang: str, _body: Received,
                      player: Player) -> Response:
    if player.session:
        await _sign_device_out(server, player, player.session)
    response = JSONResponse({"signed_out": True})
    response.delete_cookie(COOKIE, httponly=True, samesite="lax")
    return response


@_signed_in
async def api_delete(_request: Request, server: Server, lang: str, body: Received, player: Player) -> Response:
    if body.get("confirm") is not True:
        return refusal(N_("to delete your account, send \"confirm\": true (this cannot be undone)"), 400, lang)
    await _store(server).delete(player.id)
    await server.signed_out(player.id, await server.db.sign_out(player.id))  # every token, in every process
    await server.forget(player.id)      # its live tables read again from their scrubbed logs, in every process
    response = JSONResponse({"deleted": True})
    response.delete_cookie(COOKIE, httponly=True, samesite="lax")
    return response


@_signed_in
async def api_link(request: Request, server: Server, lang: str, _body: Received, player: Player) -> Response:
    await _store(server).ensure(player.id, player.name)
    base = share_base(server.settings.public_url, server.settings.listen_host, str(request.base_url),
                      request.url.port)
    try:
        secret, expires = await _store(server).make_link(player.id)
        url = f"{base}/signin#{secret}"
        qr = await server.qr.make(url, address_of(request))
    except QRBusy as busy:
        return refusal(busy.words, busy.status, lang)
    return JSONResponse({"url": url, "qr": qr, "expires": expires, "seconds": expires - int(time.time())})


async def _signin_allowed(request: Request, server: Server) -> bool:
    address = address_of(request)
    return not await server.lookups.refused(address) and _signin_buckets(request).allow(address)


async def _sign_in_once(request: Request, server: Server, lang: str, secret: object, longest: int,
                        use: Callable[[str], Awaitable[tuple[str, str] | None]], bad: str) -> Response:
    """Sign in with a one-time secret (a sign-in link's or a recovery code), ``use`` consuming it: a secret that is
    no text of 1 to ``longest`` characters, or unknown, counts as a failed look-up of the address."""
    if not await _signin_allowed(request, server):
        return refusal(Meaning(N_("too many sign-in attempts from your address; try again in a few minutes")), 429,
                       lang)
    found = await use(secret) if isinstance(secret, str) and 0 < len(secret) <= longest else None
    if found is None:
        await server.lookups.failed(address_of(request))
        return refusal(bad, 403, lang)
    return await _signed_in_response(request, server, *found, {})


@_guarded
async def api_link_use(request: Request, server: Server, lang: str, body: Received) -> Response:
    return await _sign_in_once(request, server, lang, body.get("secret"), 128, _store(server).use_link, BAD_LINK)


@_signed_in
async def api_recovery(_request: Request, server: Server, _lang: str, _body: Received,
                       player: Player) -> Response:
    await _store(server).ensure(player.id, player.name)
    return JSONResponse({"code": await _store(server).new_recovery(player.id)})


@_guarded
async def api_recovery_use(request: Request, server: Server, lang: str, body: Received) -> Response:
    return await _sign_in_once(request, server, lang, body.get("code"), 64, _store(server).use_recovery, BAD_CODE)


async def revoked_since(server: Server) -> set[str]:
    """The devices signed out within a token's lifetime (their tokens could still be presented)."""
    return await _store(server).revoked(int(time.time()) - server.signer().max_age)


def routes() -> list[BaseRoute]:
    return [Route("/account", page_route("account")),
            Route("/signin", page_route("account")),
            Route("/api/account", api_account),
            Route("/api/account/name", api_name, methods=["POST"]),
            Route("/api/account/devices/name", api_device_name, methods=["POST"]),
            Route("/api/account/devices/revoke", api_revoke, methods=["POST"]),
            Route("/api/account/signout", api_signout, methods=["POST"]),
            Route("/api/account/delete", api_delete, methods=["POST"]),
            Route("/api/account/link", api_link, methods=["POST"]),
            Route("/api/account/link/use", api_link_use, methods=["POST"]),
            Route("/api/account/recovery", api_recovery, methods=["POST"]),
            Route("/api/account/recovery/use", api_recovery_use, methods=["POST"])]

"""The ASGI app: the pages, a small JSON API and one websocket per table.

Routes::

    GET  /                      start page (create a table, join by code)
    GET  /t/{code}              table page
    GET  /api/catalogue         games, presets, options and bots for the create form
    POST /api/player            {"name"} -> a signed player token (also set as a cookie)
    POST /api/player/signout-all  refuse every token of this player from now on ("sign out everywhere")
    POST /api/tables            the create form -> {"code", "url"}
    GET  /api/tables/{code}     the table's public facts (with its recent finished deals)
    GET  /api/tables/{code}/deals?before=N&limit=20   finished deals numbered below N, newest first
    GET  /api/tables/{code}/deals/{n}.json   the record of a finished deal (a download)
    POST /api/share             {"path"} -> {"url", "qr", "local_only"}: the link friends can reach (share.py)
    GET  /api/tables/{code}/deals/{n}/review  its review: hands, tricks, double-dummy marks (202 while computed)
    POST /api/review            {"record", "deal"} -> the review of a record file (202 while computed)
    GET  /review                the review page (a table's deals, or a record file dropped on it)
    WS   /ws/{code}             play or watch (messages: see ``handle_message``)
    GET  /history, /api/players/{id}/history   a person's matches, stats and ratings (matches/routes.py)
    GET  /account, /signin, /api/account...   accounts, devices, sign-in links, recovery codes (accounts/routes.py)
    GET  /club, /api/clubs..., /api/lobby   clubs and finding a public game (clubs/routes.py)
    POST /api/play                  one tap to a game: a seat near your rating, or a table with computers (play/)
    /api/nights/...                      club nights: duplicate events (nights/routes.py)
    GET /daily, /api/daily/...           today's deals: the same boards for everyone (daily/routes.py)
    POST /api/tables/{code}/peek[/answer]   a watcher asks to see a seated person's hand (peek.py)

A private table's reads need membership (the cookie), its secret (``?k=``; in ``hello`` on the websocket)
or the host's yes (:mod:`.edge.access`); unknown codes and wrong secrets are limited per client address.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeVar

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from ..core.meaning import N_, Meaning, words_of
from ..i18n import tr, translate
from .accounts.passkeys import routes as passkey_routes
from .accounts.routes import routes as account_routes
from .accounts.store import Accounts
from .clubs.guard import install as install_clubs
from .clubs.routes import routes as club_routes
from .daily.guard import install as install_daily
from .daily.routes import routes as daily_routes
from .edge import looplag
from .edge.lang import language_of
from .edge.limits import QuotaError
from .edge.names import TABLE_NAME
from .edge.safejson import JSONResponse
from .edge.security import Edge, origin_of
from .edge.share import QRBusy, check_path, loopback_only, share_base
from .edge.tokens import COOKIE, clean_name
from .matches.routes import routes as match_routes
from .matches.subscribe import subscribe as subscribe_matches
from .nights.guard import install as install_nights
from .nights.routes import routes as night_routes
from .pages import html, pwa
from .pages.deals_api import api_deals, api_match_record, api_record, api_review, api_review_file, api_table
from .pages.html import STATIC
from .pages.peek import install as install_peeks
from .pages.peek import routes as peek_routes
from .pages.socket import table_socket
from .play.routes import routes as play_routes
from .services import RETRY_AFTER, WORDS, service_message, service_of
from .serving import Server, Settings, address_of, refusal, serving, set_cookie, table_link, with_body
from .state.table import TableError
from .state.typed_json import Received
from .table.hub import catalogue, localize_catalogue
from .table.messages import Presence

log = logging.getLogger("fiftysix.server")
T = TypeVar("T")

WARM_UP = ("fiftysix.bots",)
"""What the server imports in a thread of its own once it answers (:func:`warm_up`): the computer players and
numpy, which no module imports at the start (a quick start, issue 59), so the first table or catalogue does not
wait for them.  Alembic (:meth:`.storage.db.Database.migrate`), webauthn (the passkey routes) and the solver
(the review workers) are imported where they are needed and not warmed."""
WARM_AFTER = 0.5
"""Seconds after the start before :data:`WARM_UP` is imported: the first page goes first."""


def warm_up(modules: tuple[str, ...] = WARM_UP) -> None:
    """Import ``modules`` (in a thread: a request that needs one meanwhile waits for this import to end)."""
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception:       # the request that needs it will say why
            log.exception("warming up %s failed", name)


async def table_page(request: Request) -> Response:
    server = serving(request)
    found = await server.find(request.path_params["code"], address_of(request))
    if isinstance(found, tuple):
        status, text = found
        if status == 404:     # a real page, with a link home
            return html.answer(request, "notfound", 404)
        return Response(text[0].upper() + text[1:] + ".", status_code=status, media_type="text/plain")
    return html.answer(request, "table")


def checked(request: Request, check: Callable[[object], T], value: object) -> T | Response:
    """``check(value)``, or the refusal that says why it is not (``check`` raises :class:`ValueError`), in the
    request's language."""
    try:
        return check(value)
    except ValueError as e:
        return refusal(words_of(e), lang=language_of(request))


def with_field(field: str, check: Callable[[object], T]) \
        -> Callable[[Callable[[Request, T], Awaitable[Response]]], Callable[[Request], Awaitable[Response]]]:
    """An endpoint that takes one field of the JSON body, through ``check`` (see :func:`checked`)."""
    def wrap(handler: Callable[[Request, T], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        @with_body
        async def endpoint(request: Request, body: Received) -> Response:
            value = checked(request, check, body.get(field))
            return value if isinstance(value, Response) else await handler(request, value)
        return endpoint
    return wrap


@with_field("path", check_path)
async def api_share(request: Request, path: str) -> Response:
    server = serving(request)
    server_addr = request.scope.get("server")
    port = server_addr[1] if server_addr else request.url.port
    base = share_base(server.settings.public_url, server.settings.listen_host, str(request.base_url), port)
    url = base + path
    try:
        qr = await server.qr.make(url, address_of(request))
    except QRBusy as e:     # the link still: the page shows it without its image
        return JSONResponse({"url": url, "qr": None, "local_only": loopback_only(base),
                             "error": translate(e.words, language_of(request))}, status_code=e.status,
                            headers={"Retry-After": str(e.retry_after)})
    return JSONResponse({"url": url, "qr": qr, "local_only": loopback_only(base)})


async def api_catalogue(request: Request) -> Response:
    return JSONResponse(localize_catalogue(catalogue(), language_of(request)))


@with_field("name", clean_name)
async def api_player(request: Request, name: str) -> Response:
    server = serving(request)
    old = server.signer().read(request.cookies.get(COOKIE))
    player, token = server.signer().issue(name, *((old.id, old.session) if old is not None else ()))
    if old is not None and old.session:     # an account's device: the account takes the new name too
        await Accounts(server.db.engine).rename(old.id, name)
    response = JSONResponse({"id": player.id, "name": player.name, "token": token})
    set_cookie(response, token, server.signer().max_age)
    return response


async def api_whoami(request: Request) -> Response:
    """This device's player and the name it goes by (``null`` for both on a device with no player): every page
    reads it, so a name told on one page is known on all of them."""
    player = serving(request).signer().read(request.cookies.get(COOKIE))
    return JSONResponse({"id": player.id if player else None, "name": player.name if player else None},
                        headers={"Cache-Control": "no-store"})


@with_body
async def api_signout_all(request: Request, body: Received) -> Response:
    server = serving(request)
    player = server.signer().read(body.get("token") or request.cookies.get(COOKIE))
    if player is None:
        return refusal("no valid player token (cookie or \"token\"): nothing to sign out", 401)
    await server.signed_out(player.id, await server.db.sign_out(player.id))
    response = JSONResponse({"signed_out": player.id})
    response.delete_cookie(COOKIE, httponly=True, samesite="lax")
    return response


@with_body
async def api_create(request: Request, body: Received) -> Response:
    server = serving(request)
    player = server.signer().read(body.get("token") or request.cookies.get(COOKIE))
    name = checked(request, clean_name, body.get("player_name")) if body.get("player_name") else None
    if isinstance(name, Response):
        return name
    if player is None and name is None:
        return refusal(Meaning(N_("choose your name first")), lang=language_of(request))
    token = None
    if name is not None and (player is None or player.name != name):
        player, token = server.signer().issue(name, *((player.id, player.session) if player is not None else ()))
    assert player is not None
    if not body.get("name"):        # the default name in the host's language (it stays the table's name)
        body = {**body, "name": tr(language_of(request), "{name}'s table", name=player.name)[:TABLE_NAME]}
    try:
        table = await server.hub.create(player.id, player.name, {**body}, address_of(request))
    except TableError as e:
        return refusal(e.message, lang=language_of(request))
    except QuotaError as e:
        return refusal(e.message, 429, lang=language_of(request))
    key = table.state.secret
    # the secret rides in the fragment: browsers send it neither to the server nor in a Referer
    response = JSONResponse({"code": table.code, "key": key,
                             "url": table_link(table.code, key)})
    if token is not None:
        set_cookie(response, token, server.signer().max_age)
    return response


def create_app(settings: Settings | None = None) -> Starlette:
    server = Server(settings or Settings())
    html.pages()        # every page put together now: a broken page's file fails the start, not a visit

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        sampler = looplag.from_env()        # FIFTYSIX_LOOP_LAG_MS: what holds the loop, logged with its stack
        if sampler is not None:
            sampler.start()
        await server.startup()
        warming = threading.Thread(target=warm_up, name="fiftysix warm-up")
        later = asyncio.get_running_loop().call_later(WARM_AFTER, warming.start)
        try:
            yield
        finally:
            later.cancel()
            await server.shutdown()
            if sampler is not None:
                sampler.stop()

    routes = [
        Route("/", html.page_route("index")),
        Route("/t/{code}", table_page),
        Route("/api/catalogue", api_catalogue),
        Route("/api/player", api_player, methods=["POST"]),
        Route("/api/player", api_whoami, methods=["GET"]),
        Route("/api/player/signout-all", api_signout_all, methods=["POST"]),
        Route("/api/tables", api_create, methods=["POST"]),
        Route("/api/share", api_share, methods=["POST"]),
        Route("/api/tables/{code}", api_table),
        Route("/api/tables/{code}/deals", api_deals),
        Route("/api/tables/{code}/deals/{number:int}.json", api_record),
        Route("/api/tables/{code}/deals/{number:int}/review", api_review),
        Route("/api/review", api_review_file, methods=["POST"]),
        Route("/review", html.page_route("review")),
        Route("/api/tables/{code}/matches/{number:int}.json", api_match_record),
        WebSocketRoute("/ws/{code}", table_socket),
        *html.routes(),     # the pages put together, before the files
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        *pwa.routes(),
        *match_routes(),    # history, stats and ratings (server/matches)
        *account_routes(),  # accounts, devices, sign-in links, recovery codes (server/accounts)
        *passkey_routes(),  # passkeys where the page has a secure context (server/accounts/passkeys.py)
        *night_routes(),    # club nights: duplicate events (server/nights)
        *daily_routes(),    # today's deals: the same boards for everyone, played with computers (server/daily)
        *club_routes(),     # clubs and the list of public tables (server/clubs)
        *play_routes(),     # one tap to a game (server/play)
        *peek_routes(),     # a watcher asks to see a seated person's hand (peek.py)
    ]
    subscribe_matches(server.hub)   # every finished deal and match into history, rated (matches/subscribe.py)
    server.revoked_devices = Accounts(server.db.engine).revoked     # signed-out devices' tokens stay refused
    install_clubs(server)   # club tables seat only members
    install_nights(server)  # a player of a running event watches only their own table
    install_daily(server)   # a daily table deals the day's boards; nobody sees a board before playing it
    install_peeks(server)   # a watcher who saw a hand sits only after the match
    middleware = [Middleware(Edge, allowed_origins=server.settings.allowed_origins,
                             max_body=server.settings.max_body, secure_cookies=server.settings.cookies_secure,
                             tokens=lambda: server.tokens),
                  Middleware(GZipMiddleware, minimum_size=500)]     # slow mobile data: text compresses 3-5x
    if server.settings.allowed_origins:     # their pages call the JSON API: answer the browser's CORS questions
        middleware.insert(0, Middleware(CORSMiddleware, allow_origins=[origin_of(o) for o in
                                                                       server.settings.allowed_origins],
                                        allow_credentials=True, allow_methods=["GET", "POST"],
                                        allow_headers=["content-type"]))
    handlers = dict.fromkeys(_service_errors(server), _service_down(server))
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware,
                    exception_handlers=handlers)  # type: ignore[arg-type]
    app.state.server = server
    return app


def _service_errors(server: Server) -> tuple[type[Exception], ...]:
    """The exception classes a service that went away raises (:func:`.services.service_of` decides); Redis's
    only with Redis (its client takes a third of a second to import)."""
    from sqlalchemy.exc import SQLAlchemyError

    errors: list[type[Exception]] = [SQLAlchemyError, OSError]
    if server.settings.redis_url:
        with contextlib.suppress(ImportError):
            from redis.exceptions import RedisError

            errors.append(RedisError)
    return tuple(errors)


def _service_down(server: Server) -> Callable[[Request | WebSocket, Exception], Awaitable[Response | None]]:
    """A request that needed a service that is down: 503 with Retry-After and words for people (a websocket:
    the service message, then a close that asks the client to try again later), never a 500."""
    async def handler(conn: Request | WebSocket, error: Exception) -> Response | None:
        service = service_of(error)
        if service is None:
            raise error
        server.db.services.report(service, False)
        lang = language_of(conn)
        if isinstance(conn, WebSocket):
            with contextlib.suppress(Exception):
                await conn.send_json(service_message(service, False))
                await conn.close(code=1013, reason=f"{service} unavailable; try again")
            return None
        return JSONResponse({"error": translate(WORDS[service], lang), "service": service},
                            status_code=503, headers={"Retry-After": str(RETRY_AFTER)})
    return handler


__all__ = ["Presence", "Settings", "create_app"]

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

A private table's reads need membership (the cookie), its secret (``?k=``; in ``hello`` on the websocket)
or the host's yes (:mod:`.access`); unknown codes and wrong secrets are limited per client address.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core.meaning import N_, Meaning, words_of
from ..i18n import localize, tr, translate
from . import pwa
from .access import PRIVATE, WRONG_KEY, Lookups, admission
from .db import Database
from .hub import Hub, catalogue
from .lang import language_of, localize_catalogue, localize_message
from .limits import Buckets, Limits, QuotaError, socket_cap
from .messages import Presence, table_info
from .names import TABLE_NAME
from .protocol import flood_refusal, handle_message, read_message
from .review import PENDING, ReviewBusy, ReviewError, Reviews, record_key
from .safejson import BadJSON, JSONResponse, encode
from .safejson import loads as json_loads
from .security import MAX_BODY, Edge, origin_of
from .services import RETRY_AFTER, WORDS, service_message, service_of
from .share import QRBusy, QRCodes, check_path, loopback_only, share_base
from .state import TableError, deal_summary
from .table import Connection, LiveTable, Timing
from .tokens import COOKIE, MAX_AGE, Tokens, clean_name

STATIC = Path(__file__).with_name("static")
log = logging.getLogger("fiftysix.server")


@dataclass
class Settings:
    db_url: str = "sqlite+aiosqlite:///fiftysix.db"
    timing: Timing = field(default_factory=Timing)
    secret: str | None = None          # default: made once and kept in the database
    secure_cookie: bool = False        # always Secure cookies (else only over https)
    allowed_origins: tuple[str, ...] = ()   # other sites whose pages may use this server (see security.py)
    max_body: int = MAX_BODY
    token_max_age: int = MAX_AGE       # seconds a player token is good for after it was issued
    limits: Limits = field(default_factory=Limits)
    public_url: str | None = None      # the address friends use (fiftysix serve --public-url)
    listen_host: str | None = None     # the address listened on (for the share link when it is all interfaces)
    review_workers: int = 1            # processes computing deal reviews (server/review.py) ...
    review_queue: int = 8              # ... and reviews waiting or running at once (more: 503, ask again)
    review_wait: float = 5.0           # seconds a review request waits before answering 202 (ask again)
    review_from_trick: int = 1         # the first trick a review marks (the first ones cost the solver the most)
    redis_url: str | None = None       # one of many processes (server/cluster; PostgreSQL only)


class Server:
    """What the routes share: the database, the tables and the token signer."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.db = Database(settings.db_url)
        self.hub = Hub(self.db, settings.timing, settings.limits)
        self.lookups = Lookups(settings.limits)
        self.handle: Callable[[LiveTable, Connection, dict[str, Any]], Awaitable[None]] = handle_message
        self.tell: Callable[[str, int], None] = lambda _player, _generation: None    # other processes
        if settings.redis_url:      # many processes: tables, limits and messages go through Redis
            from .cluster.relay import cluster_parts

            hub, self.lookups, self.handle = cluster_parts(self.db, settings.timing, settings.limits,
                                                           settings.redis_url)
            self.hub, self.tell = hub, hub.tell_signout
            hub.on_signout = lambda player, generation: hub.later(self.signed_out(player, generation, here=False))
        self.tokens: Tokens | None = None
        self.sockets: dict[str, set[WebSocket]] = {}     # player id -> open websockets (for sign-out)
        self.reviews = Reviews(settings.review_workers, settings.review_queue, from_trick=settings.review_from_trick)
        lim = settings.limits
        self.qr = QRCodes(lim)
        self.review_asks = Buckets(lim.reviews_per_minute / 60, lim.review_burst)   # new reviews per address
        self.open_sockets = 0           # websockets of this process (at most socket_cap)
        self.socket_cap = lim.sockets or 1 << 30    # set at startup, from the file descriptors uvicorn was given

    async def find(self, code: str, address: str) -> LiveTable | tuple[int, str]:
        """A table by code, or the status and message to answer: 404, or 429 once the address failed too many
        lookups (then the database is not asked)."""
        if await self.lookups.refused(address):
            return 429, self.lookups.refusal()
        table = await self.hub.get(code)
        if table is None:
            await self.lookups.failed(address)
            return 404, f"no table {code[:16]!r} here"
        return table

    async def signed_out(self, player_id: str, generation: int, here: bool = True) -> None:
        """Refuse ``player_id``'s older tokens and close their websockets (``here``: this process was asked;
        with many processes the others are told)."""
        assert self.tokens is not None
        self.tokens.signed_out(player_id, generation)
        if here:
            self.tell(player_id, generation)
        for ws in list(self.sockets.get(player_id, ())):
            with contextlib.suppress(Exception):
                await ws.close(code=4401, reason="signed out everywhere")

    async def admit(self, request: Request, table: LiveTable) -> Response | None:
        """``None`` when the request may see this table; else the answer (403, counted when the key is wrong)."""
        assert self.tokens is not None
        player = self.tokens.read(request.cookies.get(COOKIE))
        verdict = admission(table.state, player.id if player is not None else None, request.query_params.get("k"))
        if verdict == "in":
            return None
        if verdict == "wrong":
            await self.lookups.failed(_address(request))
        return JSONResponse({"error": WRONG_KEY if verdict == "wrong" else PRIVATE, "code": table.code,
                             "private": True}, status_code=403)

    async def readable(self, request: Request) -> LiveTable | Response:
        """The table of the path's ``code`` if this request may read it; else the answer to send (:meth:`find`,
        then :meth:`admit`)."""
        table = await self.find(request.path_params["code"], _address(request))
        if isinstance(table, tuple):
            return _error(table[1], table[0])
        refused = await self.admit(request, table)
        return table if refused is None else refused

    async def startup(self) -> None:
        self.socket_cap = socket_cap(self.settings.limits)
        await self.db.migrate()
        self.tokens = Tokens(self.settings.secret or await self.db.secret(), await self.db.generations(),
                             self.settings.token_max_age)
        resumed = await self.hub.resume_all()
        log.info("fiftysix server ready: %d tables resumed from %s", resumed, self.settings.db_url)

    async def shutdown(self) -> None:
        self.reviews.close()
        await self.hub.stop()
        await self.db.close()


def create_app(settings: Settings | None = None) -> Starlette:
    server = Server(settings or Settings())

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await server.startup()
        try:
            yield
        finally:
            await server.shutdown()

    def tokens() -> Tokens:
        assert server.tokens is not None
        return server.tokens

    async def index(_request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def table_page(request: Request) -> Response:
        found = await server.find(request.path_params["code"], _address(request))
        if isinstance(found, tuple):
            status, text = found
            if status == 404:     # a real page, with a link home
                return FileResponse(STATIC / "notfound.html", status_code=404)
            return Response(text[0].upper() + text[1:] + ".", status_code=status, media_type="text/plain")
        return FileResponse(STATIC / "table.html")

    @_with_body
    async def api_share(request: Request, body: dict[str, Any]) -> Response:
        try:
            path = check_path(body.get("path"))
        except ValueError as e:
            return _error(str(e))
        server_addr = request.scope.get("server")
        port = server_addr[1] if server_addr else request.url.port
        base = share_base(server.settings.public_url, server.settings.listen_host, str(request.base_url), port)
        url = base + path
        try:
            qr = await server.qr.make(url, _address(request))
        except QRBusy as e:
            return JSONResponse({"error": translate(e.words, language_of(request))}, status_code=e.status,
                                headers={"Retry-After": str(e.retry_after)})
        return JSONResponse({"url": url, "qr": qr, "local_only": loopback_only(base)})

    async def api_catalogue(request: Request) -> Response:
        return JSONResponse(localize_catalogue(catalogue(), language_of(request)))

    @_with_body
    async def api_player(request: Request, body: dict[str, Any]) -> Response:
        try:
            name = clean_name(body.get("name"))
        except ValueError as e:
            return _error(words_of(e), lang=language_of(request))
        old = tokens().read(request.cookies.get(COOKIE))
        player, token = tokens().issue(name, old.id if old is not None else None)
        response = JSONResponse({"id": player.id, "name": player.name, "token": token})
        _set_cookie(response, token, tokens().max_age)
        return response

    @_with_body
    async def api_signout_all(request: Request, body: dict[str, Any]) -> Response:
        player = tokens().read(body.get("token") or request.cookies.get(COOKIE))
        if player is None:
            return _error("no valid player token (cookie or \"token\"): nothing to sign out", 401)
        await server.signed_out(player.id, await server.db.sign_out(player.id))
        response = JSONResponse({"signed_out": player.id})
        response.delete_cookie(COOKIE, httponly=True, samesite="lax")
        return response

    @_with_body
    async def api_create(request: Request, body: dict[str, Any]) -> Response:
        player = tokens().read(body.get("token") or request.cookies.get(COOKIE))
        try:
            name = clean_name(body.get("player_name")) if body.get("player_name") else None
        except ValueError as e:
            return _error(words_of(e), lang=language_of(request))
        if player is None and name is None:
            return _error(Meaning(N_("choose your name first")), lang=language_of(request))
        token = None
        if name is not None and (player is None or player.name != name):
            player, token = tokens().issue(name, player.id if player is not None else None)
        assert player is not None
        if not body.get("name"):        # the default name in the host's language (it stays the table's name)
            body = {**body, "name": tr(language_of(request), "{name}'s table", name=player.name)[:TABLE_NAME]}
        try:
            table = await server.hub.create(player.id, player.name, body, _address(request))
        except TableError as e:
            return _error(e.message, lang=language_of(request))
        except QuotaError as e:
            return _error(e.message, 429, lang=language_of(request))
        key = table.state.secret
        # the secret rides in the fragment: browsers send it neither to the server nor in a Referer
        response = JSONResponse({"code": table.code, "key": key,
                                 "url": f"/t/{table.code}" + (f"#k={key}" if key else "")})
        if token is not None:
            _set_cookie(response, token, tokens().max_age)
        return response

    async def api_table(request: Request) -> Response:
        table = await server.readable(request)
        if isinstance(table, Response):
            return table
        async with table.lock:
            return JSONResponse({**table_info(table.state, table.presence), "deals": list(table.state.recent_deals)})

    async def api_deals(request: Request) -> Response:
        table = await server.readable(request)
        if isinstance(table, Response):
            return table
        try:
            before = int(request.query_params.get("before", table.state.deals_count + 1))
            limit = int(request.query_params.get("limit", 20))
        except ValueError:
            return _error("before and limit must be whole numbers")
        if not 1 <= limit <= 100:
            return _error("limit must be from 1 to 100")
        before = max(1, min(before, table.state.deals_count + 1))    # no key beyond what a row can have
        starts = list(table.state.match_starts)
        rows = await server.db.deal_summaries(table.code, before, limit)
        deals = []
        for number, result in rows:
            match_no = sum(1 for first in starts if first <= number)
            deals.append(deal_summary(number, match_no, number - starts[match_no - 1] + 1, result))
        return JSONResponse({"deals": deals, "more": bool(rows) and rows[-1][0] > 1})

    async def api_record(request: Request) -> Response:
        code = request.path_params["code"].upper()
        number = request.path_params["number"]
        table = await server.readable(request)
        if isinstance(table, Response):
            return table
        record = await server.db.deal_record(code, number)
        if record is None:
            return _error(f"table {code[:16]} has no finished deal {number}", 404)
        headers = {"Content-Disposition": f'attachment; filename="{code}-deal-{number}.json"'}
        return Response(await _download(record), media_type="application/json", headers=headers)

    async def api_match_record(request: Request) -> Response:
        code = request.path_params["code"].upper()
        number = request.path_params["number"]
        table = await server.readable(request)
        if isinstance(table, Response):
            return table
        record = None
        span = table.state.match_deals(number)
        if span is not None:
            records = await server.db.deal_records(table.code, *span)
            record = table.state.match_record(number, records)
        if record is None:
            return _error(f"table {code[:16]} has no match {number} with a finished deal", 404)
        headers = {"Content-Disposition": f'attachment; filename="{code}-match-{number}.json"'}
        return Response(await _download(record), media_type="application/json", headers=headers)

    async def review_page(_request: Request) -> Response:
        return FileResponse(STATIC / "review.html")

    async def api_review(request: Request) -> Response:
        code = request.path_params["code"].upper()
        number = request.path_params["number"]
        table = await server.readable(request)
        if isinstance(table, Response):
            return table
        if not 1 <= number <= table.state.deals_count:
            in_progress = number == table.state.deals_count + 1 and table.state.status == "playing"
            return _error(f"deal {number} of table {code[:16]} is in progress: its review opens when it ends"
                          if in_progress else f"table {code[:16]} has no finished deal {number}",
                          409 if in_progress else 404)
        record = await server.db.deal_record(table.code, number)
        if record is None:
            return _error(f"table {code[:16]} has no finished deal {number}", 404)
        return await _review(f"{table.code}:{number}", record, 0, {"code": table.code, "number": number},
                             request)

    @_with_body
    async def api_review_file(request: Request, body: dict[str, Any]) -> Response:
        record, index = body.get("record"), body.get("deal", 0)
        if not isinstance(record, dict) or not isinstance(index, int) or isinstance(index, bool):
            return _error('send {"record": a deal or match record, "deal": the match\'s deal number from 0}')
        return await _review(record_key(record, index), record, index, {}, request)

    async def _review(key: str, record: object, index: int, extra: dict[str, Any], request: Request) -> Response:
        reviews, lang, address = server.reviews, language_of(request), _address(request)
        if not reviews.known(key):      # a new review costs a worker's CPU: a bucket per address
            if server.review_asks.empty(address):
                lim = server.settings.limits
                wait = max(1, round(60 / lim.reviews_per_minute)) if lim.reviews_per_minute > 0 else 60
                words = Meaning(N_("too many new reviews from your address (at most {burst} at once and {rate} a "
                                   "minute); try again in {seconds} s"),
                                {"burst": lim.review_burst, "rate": f"{lim.reviews_per_minute:g}", "seconds": wait})
                return JSONResponse({"error": translate(words, lang)}, status_code=429,
                                    headers={"Retry-After": str(wait)})
            server.review_asks.take(address)
        try:
            found = reviews.get(key, record, index)
            if found is None:
                await reviews.wait(key, server.settings.review_wait)
                found = reviews.get(key, record, index)
        except ReviewBusy as e:
            return JSONResponse({"error": translate(words_of(e), lang)}, status_code=503, headers={"Retry-After": "5"})
        except ReviewError as e:
            return _error(words_of(e), 422, lang)
        if found is None:
            return JSONResponse({"pending": True, "message": translate(PENDING, lang)},
                                status_code=202, headers={"Retry-After": "2"})
        # a review is large (every trick's marks): translated and encoded off the event loop
        body = await asyncio.to_thread(lambda: encode(localize({**found, **extra}, lang)))
        return Response(body, media_type="application/json")

    async def ws_table(ws: WebSocket) -> None:
        await ws.accept()
        if server.open_sockets >= server.socket_cap:    # the process's file descriptors are not endless
            with contextlib.suppress(Exception):
                await ws.send_json({"type": "error", "message": translate(SERVER_FULL, language_of(ws))})
                await ws.close(code=1013, reason="server full; try again later")
            return
        server.open_sockets += 1
        try:
            await _table_socket(ws)
        finally:
            server.open_sockets -= 1

    async def _table_socket(ws: WebSocket) -> None:
        address = _address(ws)
        if await server.lookups.refused(address):
            await ws.send_json({"type": "error", "message": server.lookups.refusal()})
            await ws.close(code=4429)
            return
        found = await server.hub.get(ws.path_params["code"])
        if found is None:
            await server.lookups.failed(address)
            await ws.send_json({"type": "error", "message": "no such table"})
            await ws.close(code=4404)
            return
        table: LiveTable = found
        conn: Connection | None = None
        sender: asyncio.Task[None] | None = None
        timing = server.settings.timing

        def dropped() -> None:
            """A client too far behind: no more messages for it, and the socket is closed with the reason."""
            if conn is None:
                return
            table.disconnect(conn)
            if sender is not None:
                sender.cancel()
            _closing.add(task := asyncio.create_task(_close(ws, conn.dropped or "")))
            task.add_done_callback(_closing.discard)

        limit = Buckets(timing.message_rate, timing.message_burst, keep=1)     # this connection's messages
        try:
            # the first message should be hello; anything else is answered as if hello had no version.  At a
            # private table without its secret the connection waits (it may ask the host) until let in.
            while conn is None or conn not in table.conns:
                if conn is None:    # a socket that never says hello holds a descriptor for nothing
                    try:
                        text = await asyncio.wait_for(_receive(ws), timing.hello_timeout or None)
                    except TimeoutError:
                        await ws.close(code=4408, reason=f"no hello within {timing.hello_timeout:g} s")
                        return
                else:
                    text = await _receive(ws)
                if conn is not None and not limit.allow():
                    conn.send({"type": "error", "message": flood_refusal(timing.message_rate, timing.message_burst)})
                    continue
                msg, error = read_message(text)
                if conn is not None and msg is not None and msg["type"] == "ask":
                    await _ask(table, conn, msg)
                    continue
                hello = msg if msg is not None and msg.get("type") == "hello" else {}
                player = tokens().read(ws.cookies.get(COOKIE))     # read now: it may have been signed out
                if "token" in hello:
                    player = tokens().read(hello["token"])
                    if player is None:
                        await ws.send_json({"type": "error", "message": "your player token is not valid (forged, "
                                            "expired, signed out or from another server); you are watching"})
                if conn is None:
                    conn = Connection(player.id if player is not None else None, limit=timing.send_queue)
                    conn.lang = language_of(ws)
                    conn.on_drop = dropped
                    sender = asyncio.create_task(_send_loop(ws, conn, timing.send_timeout))
                conn.player = player.id if player is not None else None
                if player is not None:
                    server.sockets.setdefault(player.id, set()).add(ws)
                verdict = admission(table.state, conn.player, hello.get("key", ws.query_params.get("k")))
                if verdict != "in":
                    if verdict == "wrong":
                        await server.lookups.failed(address)
                        if await server.lookups.refused(address):
                            conn.send({"type": "error", "message": server.lookups.refusal()})
                            break
                    conn.send({"type": "private", "code": table.code, "can_ask": conn.player is not None,
                               "message": WRONG_KEY if verdict == "wrong" else PRIVATE})
                    continue
                table.forget_knock(conn)
                since = hello.get("version")
                since = since if isinstance(since, int) and not isinstance(since, bool) else None
                try:
                    while not await table.connect(conn, since):     # unloaded meanwhile: load it again
                        found = await server.hub.get(ws.path_params["code"])
                        if found is None:
                            raise WebSocketDisconnect(4404)
                        table = found
                except TableError as e:
                    conn.send({"type": "error", "message": e.message})
                    break
                for message in server.db.services.messages():     # a service down now: say so at once
                    conn.send(message)
                if error is not None:
                    conn.send({"type": "error", "message": error})
                elif msg is not None and msg.get("type") != "hello":
                    await server.handle(table, conn, msg)
            while conn is not None and conn in table.conns:
                text = await _receive(ws)
                if not limit.allow():
                    conn.send({"type": "error", "message": flood_refusal(timing.message_rate, timing.message_burst)})
                    continue
                msg, error = read_message(text)
                if msg is None:
                    conn.send({"type": "error", "message": error})
                    continue
                await server.handle(table, conn, msg)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            if conn is not None:
                if conn.player is not None:
                    open_sockets = server.sockets.get(conn.player, set())
                    open_sockets.discard(ws)
                    if not open_sockets:
                        server.sockets.pop(conn.player, None)
                table.forget_knock(conn)
                if conn in table.conns:
                    table.disconnect(conn)
                conn.send(None)
            if sender is not None:
                await asyncio.wait({sender}, timeout=1)
            with contextlib.suppress(Exception):
                await ws.close()

    routes = [
        Route("/", index),
        Route("/t/{code}", table_page),
        Route("/api/catalogue", api_catalogue),
        Route("/api/player", api_player, methods=["POST"]),
        Route("/api/player/signout-all", api_signout_all, methods=["POST"]),
        Route("/api/tables", api_create, methods=["POST"]),
        Route("/api/share", api_share, methods=["POST"]),
        Route("/api/tables/{code}", api_table),
        Route("/api/tables/{code}/deals", api_deals),
        Route("/api/tables/{code}/deals/{number:int}.json", api_record),
        Route("/api/tables/{code}/deals/{number:int}/review", api_review),
        Route("/api/review", api_review_file, methods=["POST"]),
        Route("/review", review_page),
        Route("/api/tables/{code}/matches/{number:int}.json", api_match_record),
        WebSocketRoute("/ws/{code}", ws_table),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        *pwa.routes(),
    ]
    middleware = [Middleware(Edge, allowed_origins=server.settings.allowed_origins,
                             max_body=server.settings.max_body, secure_cookies=server.settings.secure_cookie,
                             tokens=lambda: server.tokens),
                  Middleware(GZipMiddleware, minimum_size=500)]     # slow mobile data: text compresses 3-5x
    if server.settings.allowed_origins:     # their pages call the JSON API: answer the browser's CORS questions
        middleware.insert(0, Middleware(CORSMiddleware, allow_origins=[origin_of(o) for o in
                                                                       server.settings.allowed_origins],
                                        allow_credentials=True, allow_methods=["GET", "POST"],
                                        allow_headers=["content-type"]))
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware,
                    exception_handlers=dict.fromkeys(_service_errors(), _service_down(server)))  # type: ignore[arg-type]
    app.state.server = server
    return app


def _service_errors() -> tuple[type[Exception], ...]:
    """The exception classes a service that went away raises (:func:`.services.service_of` decides)."""
    from sqlalchemy.exc import SQLAlchemyError

    errors: list[type[Exception]] = [SQLAlchemyError, OSError]
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


async def _ask(table: LiveTable, conn: Connection, msg: dict[str, Any]) -> None:
    """Someone without the secret asks the host of a private table to let them in."""
    if conn.player is None:
        conn.send({"type": "error", "message": "choose a name first: the host sees it when you ask"})
        return
    try:
        table.knock(conn, clean_name(msg.get("name")))
    except ValueError as e:
        conn.send({"type": "error", "message": str(e)})
    except TableError as e:
        conn.send({"type": "error", "message": e.message})
    else:
        conn.send({"type": "asked", "message": "the host has been asked; wait here"})


def _address(scope: Request | WebSocket) -> str:
    """The client's address for the limits (behind a proxy, uvicorn's ``--forwarded-allow-ips`` makes it the
    real one); for IPv6 its /64 network, since one machine commonly has a whole /64 to pick from."""
    host = scope.client.host if scope.client is not None else "unknown"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if ip.version == 6 and ip.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip.ipv4_mapped or ip) if ip.version == 6 else str(ip)


_closing: set[asyncio.Task[None]] = set()

SERVER_FULL = N_("the server has as many connections as it can take; try again in a minute")


async def _close(ws: WebSocket, reason: str) -> None:
    """Close a socket with a reason (1008: policy); a client that does not read may never take it: the
    close waits at most 10 s (under uvicorn, ``listen.guarded_websocket`` has aborted such a connection)."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ws.close(code=1008, reason=reason[:120]), 10)


async def _send_loop(ws: WebSocket, conn: Connection, timeout: float = 0.0) -> None:
    """Send ``conn``'s messages as they come; one that the client does not take within ``timeout`` seconds
    (0: no limit) drops the connection (a client that does not read must not hold the server's buffers)."""
    while True:
        message = await conn.queue.get()
        if message is None:
            return
        try:
            text = encode(localize_message(message, conn.lang))
        except Exception:   # a bug, not the client's doing: say so and go on, or every later message is lost
            log.exception("a %r message could not be encoded; it was not sent", message.get("type"))
            continue
        try:
            await asyncio.wait_for(ws.send_text(text), timeout or None)
        except TimeoutError:
            log.info("dropped a connection that took no message for %g s", timeout)
            conn.drop(f"too slow: a message waited {timeout:g} s to be sent; reconnect for a fresh state")
            return
        except Exception:  # the socket is gone; the receive side notices and cleans up
            return


async def _download(record: object) -> str:
    """A record as a file to download (indented JSON), encoded in a thread: a match's records are large."""
    return await asyncio.to_thread(lambda: json.dumps(record, indent=1) + "\n")


async def _receive(ws: WebSocket) -> str | bytes:
    """The next frame's text (or bytes, for a binary frame, which ``read_message`` refuses).

    :raises WebSocketDisconnect: when the client has gone.
    """
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if text is not None else bytes(message.get("bytes") or b"")


def _with_body(handler: Callable[[Request, dict[str, Any]], Awaitable[Response]],
               ) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint that reads the request's JSON object and passes it on (or answers 400 naming the fault)."""
    async def endpoint(request: Request) -> Response:
        body = await _json_body(request)
        return body if isinstance(body, Response) else await handler(request, body)
    return endpoint


async def _json_body(request: Request) -> dict[str, Any] | Response:
    raw = await request.body()    # the Edge middleware has already refused a body over the limit
    try:
        body = json_loads(raw or b"{}")
    except BadJSON as e:
        return _error(f"the request body must be JSON: {e}")
    if not isinstance(body, dict):
        return _error("the request body must be a JSON object")
    return body


def _error(message: str, status: int = 400, lang: str = "en") -> Response:
    """A refusal; in the request's language ``lang`` when the message is a catalogue's (server/lang.py)."""
    return JSONResponse({"error": translate(message, lang)}, status_code=status)


def _set_cookie(response: Response, token: str, max_age: int) -> None:
    # Secure is added by the Edge middleware when the request came over https or it is configured so
    response.set_cookie(COOKIE, token, max_age=max_age, httponly=True, samesite="lax")


__all__ = ["Presence", "Settings", "create_app"]

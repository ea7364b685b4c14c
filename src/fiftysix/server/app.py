"""The ASGI app: the pages, a small JSON API and one websocket per table.

Routes::

    GET  /                      start page (create a table, join by code)
    GET  /t/{code}              table page
    GET  /api/catalogue         games, presets, options and bots for the create form
    POST /api/player            {"name"} -> a signed player token (also set as a cookie)
    POST /api/tables            the create form -> {"code", "url"}
    GET  /api/tables/{code}     the table's public facts (with its recent finished deals)
    GET  /api/tables/{code}/deals?before=N&limit=20   finished deals numbered below N, newest first
    GET  /api/tables/{code}/deals/{n}.json   the record of a finished deal (a download)
    WS   /ws/{code}             play or watch (messages: see ``handle_message``)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .db import Database
from .hub import Hub, catalogue
from .messages import Presence, table_info
from .protocol import RateLimit, handle_message, read_message
from .state import TableError, deal_summary
from .table import Connection, LiveTable, Timing
from .tokens import COOKIE, Tokens, clean_name

STATIC = Path(__file__).with_name("static")
log = logging.getLogger("fiftysix.server")


@dataclass
class Settings:
    db_url: str = "sqlite+aiosqlite:///fiftysix.db"
    timing: Timing = field(default_factory=Timing)
    secret: str | None = None          # default: made once and kept in the database
    secure_cookie: bool = False


class Server:
    """What the routes share: the database, the tables and the token signer."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.db = Database(settings.db_url)
        self.hub = Hub(self.db, settings.timing)
        self.tokens: Tokens | None = None

    async def startup(self) -> None:
        await self.db.migrate()
        self.tokens = Tokens(self.settings.secret or await self.db.secret())
        resumed = await self.hub.resume_all()
        log.info("fiftysix server ready: %d tables resumed from %s", resumed, self.settings.db_url)

    async def shutdown(self) -> None:
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
        if await server.hub.get(request.path_params["code"]) is None:
            return Response(f"No table {request.path_params['code'][:16]!r} here.", status_code=404,
                            media_type="text/plain")
        return FileResponse(STATIC / "table.html")

    async def api_catalogue(_request: Request) -> Response:
        return JSONResponse(catalogue())

    async def api_player(request: Request) -> Response:
        body = await _json_body(request)
        if isinstance(body, Response):
            return body
        try:
            name = clean_name(body.get("name"))
        except ValueError as e:
            return _error(str(e))
        old = tokens().read(request.cookies.get(COOKIE))
        player, token = tokens().issue(name, old.id if old is not None else None)
        response = JSONResponse({"id": player.id, "name": player.name, "token": token})
        _set_cookie(response, token, server.settings.secure_cookie)
        return response

    async def api_create(request: Request) -> Response:
        body = await _json_body(request)
        if isinstance(body, Response):
            return body
        player = tokens().read(body.get("token") or request.cookies.get(COOKIE))
        try:
            name = clean_name(body.get("player_name")) if body.get("player_name") else None
        except ValueError as e:
            return _error(str(e))
        if player is None and name is None:
            return _error("choose your name first")
        token = None
        if name is not None and (player is None or player.name != name):
            player, token = tokens().issue(name, player.id if player is not None else None)
        assert player is not None
        try:
            table = await server.hub.create(player.id, player.name, body)
        except TableError as e:
            return _error(e.message)
        response = JSONResponse({"code": table.code, "url": f"/t/{table.code}"})
        if token is not None:
            _set_cookie(response, token, server.settings.secure_cookie)
        return response

    async def api_table(request: Request) -> Response:
        table = await server.hub.get(request.path_params["code"])
        if table is None:
            return _error("no such table", 404)
        async with table.lock:
            return JSONResponse({**table_info(table.state, table.presence), "deals": list(table.state.recent_deals)})

    async def api_deals(request: Request) -> Response:
        table = await server.hub.get(request.path_params["code"])
        if table is None:
            return _error("no such table", 404)
        try:
            before = int(request.query_params.get("before", table.state.deals_count + 1))
            limit = int(request.query_params.get("limit", 20))
        except ValueError:
            return _error("before and limit must be whole numbers")
        if not 1 <= limit <= 100:
            return _error("limit must be from 1 to 100")
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
        record = await server.db.deal_record(code, number)
        if record is None:
            return _error(f"table {code[:16]} has no finished deal {number}", 404)
        headers = {"Content-Disposition": f'attachment; filename="{code}-deal-{number}.json"'}
        return Response(json.dumps(record, indent=1) + "\n", media_type="application/json", headers=headers)

    async def api_match_record(request: Request) -> Response:
        code = request.path_params["code"].upper()
        number = request.path_params["number"]
        table = await server.hub.get(code)
        record = None
        span = table.state.match_deals(number) if table is not None else None
        if table is not None and span is not None:
            records = await server.db.deal_records(table.code, *span)
            record = table.state.match_record(number, records)
        if record is None:
            return _error(f"table {code[:16]} has no match {number} with a finished deal", 404)
        headers = {"Content-Disposition": f'attachment; filename="{code}-match-{number}.json"'}
        return Response(json.dumps(record, indent=1) + "\n", media_type="application/json", headers=headers)

    async def ws_table(ws: WebSocket) -> None:
        await ws.accept()
        found = await server.hub.get(ws.path_params["code"])
        if found is None:
            await ws.send_json({"type": "error", "message": "no such table"})
            await ws.close(code=4404)
            return
        table: LiveTable = found
        cookie_player = tokens().read(ws.cookies.get(COOKIE))
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

        try:
            # the first message should be hello; anything else is answered as if hello had no version
            while conn is None:
                text = await ws.receive_text()
                msg, error = read_message(text)
                hello = msg if msg is not None and msg.get("type") == "hello" else {}
                player = cookie_player
                if "token" in hello:
                    player = tokens().read(hello["token"])
                    if player is None:
                        await ws.send_json({"type": "error", "message": "your player token is not valid (forged, "
                                            "or from another server); you are watching"})
                conn = Connection(player.id if player is not None else None, limit=timing.send_queue)
                conn.on_drop = dropped
                sender = asyncio.create_task(_send_loop(ws, conn))
                since = hello.get("version")
                since = since if isinstance(since, int) and not isinstance(since, bool) else None
                while not await table.connect(conn, since):     # unloaded meanwhile: load it again
                    found = await server.hub.get(ws.path_params["code"])
                    if found is None:
                        raise WebSocketDisconnect(4404)
                    table = found
                if error is not None:
                    conn.send({"type": "error", "message": error})
                elif msg is not None and msg.get("type") != "hello":
                    await handle_message(table, conn, msg)
            limit = RateLimit(timing.message_rate, timing.message_burst)
            while True:
                text = await ws.receive_text()
                if not limit.allow():
                    conn.send({"type": "error", "message": limit.refusal()})
                    continue
                msg, error = read_message(text)
                if msg is None:
                    conn.send({"type": "error", "message": error})
                    continue
                await handle_message(table, conn, msg)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            if conn is not None:
                table.disconnect(conn)
                conn.send(None)
            if sender is not None:
                await asyncio.wait({sender}, timeout=1)

    routes = [
        Route("/", index),
        Route("/t/{code}", table_page),
        Route("/api/catalogue", api_catalogue),
        Route("/api/player", api_player, methods=["POST"]),
        Route("/api/tables", api_create, methods=["POST"]),
        Route("/api/tables/{code}", api_table),
        Route("/api/tables/{code}/deals", api_deals),
        Route("/api/tables/{code}/deals/{number:int}.json", api_record),
        Route("/api/tables/{code}/matches/{number:int}.json", api_match_record),
        WebSocketRoute("/ws/{code}", ws_table),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.server = server
    return app


_closing: set[asyncio.Task[None]] = set()


async def _close(ws: WebSocket, reason: str) -> None:
    """Close a socket with a reason (1008: policy); a client that does not read may never take it, and
    the server then drops the connection after its close timeout."""
    with contextlib.suppress(Exception):
        await ws.close(code=1008, reason=reason[:120])


async def _send_loop(ws: WebSocket, conn: Connection) -> None:
    while True:
        message = await conn.queue.get()
        if message is None:
            return
        try:
            await ws.send_text(json.dumps(message, separators=(",", ":")))
        except Exception:  # the socket is gone; the receive side notices and cleans up
            return


async def _json_body(request: Request) -> dict[str, Any] | Response:
    raw = await request.body()
    if len(raw) > 16384:
        return _error("request too large")
    try:
        body = json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError):
        return _error("the request body must be JSON")
    if not isinstance(body, dict):
        return _error("the request body must be a JSON object")
    return body


def _error(message: str, status: int = 400) -> Response:
    return JSONResponse({"error": message}, status_code=status)


def _set_cookie(response: Response, token: str, secure: bool) -> None:
    response.set_cookie(COOKIE, token, max_age=400 * 24 * 3600, httponly=True, samesite="lax", secure=secure)


__all__ = ["Presence", "Settings", "create_app"]

"""The table's websocket (``/ws/{code}``): hello and admission (a private table's secret, asking the host), then
the client's messages to :mod:`.protocol` and the table's messages back through a bounded send queue."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core.meaning import N_
from ..i18n import translate
from .access import PRIVATE, WRONG_KEY, admission
from .lang import language_of, localize_message
from .limits import Buckets
from .protocol import flood_refusal, read_message
from .safejson import encode
from .serving import address_of, serving
from .state import TableError
from .table import Connection, LiveTable
from .tokens import COOKIE, clean_name

log = logging.getLogger("fiftysix.server")


async def table_socket(ws: WebSocket) -> None:
    server = serving(ws)
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
    server = serving(ws)
    address = address_of(ws)
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
            player = server.signer().read(ws.cookies.get(COOKIE))     # read now: it may have been signed out
            if "token" in hello:
                player = server.signer().read(hello["token"])
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


async def _receive(ws: WebSocket) -> str | bytes:
    """The next frame's text (or bytes, for a binary frame, which ``read_message`` refuses).

    :raises WebSocketDisconnect: when the client has gone.
    """
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if text is not None else bytes(message.get("bytes") or b"")

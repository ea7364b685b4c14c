"""The table's websocket (``/ws/{code}``): hello and admission (a private table's secret, asking the host), then
the client's messages to :mod:`fiftysix.server.table.protocol` and the table's messages back through a bounded
send queue."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.websockets import WebSocket, WebSocketDisconnect

from ...core.meaning import N_, Meaning
from ...i18n import translate
from ..edge.access import PRIVATE, WRONG_KEY, admission
from ..edge.lang import language_of, localize_message
from ..edge.limits import Buckets
from ..edge.listen import abort_of
from ..edge.safejson import encode
from ..edge.tokens import COOKIE, Player, clean_name
from ..serving import address_of, serving
from ..state.table import TableError
from ..table.client_messages import Ask, ClientMessage, Hello, decode
from ..table.live import Connection, LiveTable
from ..table.outgoing import Asked, Error, Private
from ..table.protocol import flood_refusal, read_message

log = logging.getLogger("fiftysix.server")


async def table_socket(ws: WebSocket) -> None:
    server = serving(ws)
    await ws.accept()
    if server.open_sockets >= server.socket_cap:    # the process's file descriptors are not endless
        with contextlib.suppress(Exception):
            await ws.send_json(Error(translate(SERVER_FULL, language_of(ws))).to_json())
            await ws.close(code=1013, reason="server full; try again later")
        return
    server.open_sockets += 1
    try:
        await _table_socket(ws)
    finally:
        server.open_sockets -= 1


async def _table_socket(ws: WebSocket) -> None:
    socket = _Socket(ws)
    table = await socket.find_table()
    if table is None:
        return
    try:
        # the first message should be hello; anything else is answered as if hello had no version.  At a
        # private table without its secret the connection waits (it may ask the host) until let in.
        while socket.conn is None or socket.conn not in socket.table.conns:
            step = await socket.before_play()
            if step == STOP:
                return
            if step == LEAVE:
                break
        await socket.play()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        await socket.close()


AGAIN, LEAVE, STOP = "again", "leave", "stop"      # what the loop before play does next


class _Socket:
    """One table websocket: its table, its :class:`~fiftysix.server.table.connection.Connection` once it has said
    hello, the task that sends to it, and its message bucket."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.server = serving(ws)
        self.address = address_of(ws)
        self.timing = self.server.settings.timing
        self.conn: Connection | None = None
        self.who: Player | None = None      # the player (and device) it is signed in as, by hello's token or cookie
        self.close_code = 1000
        self.sender: asyncio.Task[None] | None = None
        self.limit = Buckets(self.timing.message_rate, self.timing.message_burst, keep=1)   # its messages
        self.table: LiveTable
        # the hello timeout runs from the socket's opening until a real hello: another first message (answered
        # as if hello had come) does not stop it, or a keyless socket could stay open saying nothing more
        self.hello_by = asyncio.get_running_loop().time() + self.timing.hello_timeout
        self.greeted = False

    async def find_table(self) -> LiveTable | None:
        """The table of the path, or ``None`` (told why and closed: an address over its failed lookups, an
        unknown code)."""
        server, ws = self.server, self.ws
        if await server.lookups.refused(self.address):
            await ws.send_json(Error(server.lookups.refusal()).to_json())
            await ws.close(code=4429)
            return None
        found = await server.hub.get(ws.path_params["code"])
        if found is None:
            await server.lookups.failed(self.address)
            await ws.send_json(Error("no such table").to_json())
            await ws.close(code=4404)
            return None
        self.table = found
        return found

    def dropped(self) -> None:
        """A client too far behind: no more messages for it, and the socket is closed with the reason."""
        conn = self.conn
        if conn is None:
            return
        self.table.disconnect(conn)
        if self.sender is not None:
            self.sender.cancel()
        abort = abort_of(self.ws.scope)
        if abort is not None:       # it does not read: a close frame would wait behind what it left unread
            abort(conn.dropped or "dropped")
            return
        _closing.add(task := asyncio.create_task(_close(self.ws, conn.dropped or "")))
        task.add_done_callback(_closing.discard)

    async def over_rate(self) -> bool:
        """Whether this message is one too many (the client is told; the message is ignored).

        The next message is then read no sooner than one message's share of the rate later: a flood
        waits in the client's own buffers instead of costing the server a parse and an answer each (what
        a stranger sends is what everyone else's tables wait behind).
        """
        if self.limit.allow():
            return False
        assert self.conn is not None
        self.conn.send(Error(flood_refusal(self.timing.message_rate, self.timing.message_burst)))
        if self.timing.message_rate > 0:
            await asyncio.sleep(1 / self.timing.message_rate)
        return True

    async def next_text(self) -> str | bytes | None:
        """The next frame; before hello within the hello timeout (``None``: closed for saying no hello)."""
        if self.greeted or not self.timing.hello_timeout:
            text = await _receive(self.ws)
        else:
            left = max(0.0, self.hello_by - asyncio.get_running_loop().time())
            try:     # a socket that never says hello holds a descriptor for nothing
                text = await asyncio.wait_for(_receive(self.ws), left)
            except TimeoutError:
                await self.ws.close(code=4408, reason=f"no hello within {self.timing.hello_timeout:g} s")
                return None
        if not self.greeted and _is_hello(text):
            self.greeted = True
        return text

    async def before_play(self) -> str:
        """One message before the connection is at its table: hello (who, which secret, since which version),
        or asking a private table's host; :data:`AGAIN` to wait for more, :data:`LEAVE` or :data:`STOP`."""
        text = await self.next_text()
        if text is None or self.refused_out():
            return STOP
        if self.conn is not None and await self.over_rate():
            return AGAIN
        msg, read_error = read_message(text)
        error: str | Meaning | None = read_error
        typed: ClientMessage | None = None
        if msg is not None:
            try:
                typed = decode(msg)
            except TableError as e:      # a field of the wrong type: said once the connection can be told
                msg, error = None, e.message
                if self.conn is not None:
                    self.conn.send(Error(error))
                    return AGAIN
        if self.conn is not None and isinstance(typed, Ask):
            if await self.gated(self.conn):
                return LEAVE
            await _ask(self.table, self.conn, typed)
            return AGAIN
        hello = typed if isinstance(typed, Hello) else Hello()
        conn = await self.connection(hello)
        key = hello.key if hello.key is not None else self.ws.query_params.get("k")
        verdict = admission(self.table.state, conn.player, key)
        if verdict != "in":
            return await self.not_in(verdict)
        if await self.gated(conn):
            return LEAVE
        self.table.door.forget_knock(conn)
        if not await self.join_table(hello.version):
            return LEAVE
        for message in self.server.db.services.messages():     # a service down now: say so at once
            conn.send(message)
        if error is not None:
            conn.send(Error(error))
        elif msg is not None and msg.get("type") != "hello":
            await self.server.handle(self.table, conn, msg)
        return AGAIN

    async def gated(self, conn: Connection) -> bool:
        """Whether the server's watch gate (a club table's) refuses ``conn``: then it was told why."""
        why = await self.server.gate(self.table.code, conn.player)
        if why is not None:
            conn.send(Error(why))
        return why is not None

    async def connection(self, hello: Hello) -> Connection:
        """This socket's connection, made at the first message, for the player of the cookie or of hello's token
        (read at every hello: it may have been signed out)."""
        server = self.server
        player = server.signer().read(self.ws.cookies.get(COOKIE))
        if hello.token is not None:
            player = server.signer().read(hello.token)
            if player is None:
                await self.ws.send_json(Error("your player token is not valid (forged, expired, signed out or from "
                                              "another server); you are watching").to_json())
        if self.conn is None:
            self.conn = Connection(player.id if player is not None else None, limit=self.timing.send_queue)
            self.conn.lang = language_of(self.ws)
            self.conn.on_drop = self.dropped
            self.sender = asyncio.create_task(_send_loop(self.ws, self.conn, self.timing.send_timeout))
        self.conn.player = player.id if player is not None else None
        server.signed_in(self.ws, player, self.who)
        self.who = player
        return self.conn

    def refused_out(self) -> bool:
        """Whether this socket's device or player was signed out (or deleted) since it said who it is; then it is
        told so and is to be closed (4401) without what it sent changing anything.  Asked at every message, so a
        message read while a sign-out closes the socket is refused too."""
        if self.who is None or self.server.signer().still_in(self.who):
            return False
        if self.conn is not None:
            self.conn.send(Error(SIGNED_OUT))
        self.close_code = 4401
        return True

    async def not_in(self, verdict: str) -> str:
        """A private table without (or with a wrong) secret: say so; a wrong one counts for the address."""
        assert self.conn is not None
        lookups = self.server.lookups
        if verdict == "wrong":
            await lookups.failed(self.address)
            if await lookups.refused(self.address):
                self.conn.send(Error(lookups.refusal()))
                return LEAVE
        self.conn.send(Private(self.table.code, self.conn.player is not None,
                               WRONG_KEY if verdict == "wrong" else PRIVATE))
        return AGAIN

    async def join_table(self, since: int | None) -> bool:
        """Put the connection at its table (loaded again if it was unloaded meanwhile); False when refused."""
        assert self.conn is not None
        try:
            while not await self.table.connect(self.conn, since):
                found = await self.server.hub.get(self.ws.path_params["code"])
                if found is None:
                    raise WebSocketDisconnect(4404)
                self.table = found
        except TableError as e:
            self.conn.send(Error(e.message))
            return False
        return True

    async def play(self) -> None:
        """The connection's messages to the table until it leaves the table."""
        conn = self.conn
        while conn is not None and conn in self.table.conns:
            text = await self.next_text()
            if text is None or self.refused_out():
                return
            if await self.over_rate():
                continue
            msg, error = read_message(text)
            if msg is None:
                assert error is not None, "a message not read comes with why"
                conn.send(Error(error))
                continue
            await self.server.handle(self.table, conn, msg)

    async def close(self) -> None:
        conn, server = self.conn, self.server
        server.signed_in(self.ws, None, self.who)
        self.who = None
        if conn is not None:
            self.table.door.forget_knock(conn)
            if conn in self.table.conns:
                self.table.disconnect(conn)
            conn.send(None)
        if self.sender is not None:
            await asyncio.wait({self.sender}, timeout=1)
        with contextlib.suppress(Exception):
            await self.ws.close(code=self.close_code, reason="signed out" if self.close_code == 4401 else None)


async def _ask(table: LiveTable, conn: Connection, msg: Ask) -> None:
    """Someone without the secret asks the host of a private table to let them in."""
    if conn.player is None:
        conn.send(Error("choose a name first: the host sees it when you ask"))
        return
    try:
        table.door.knock(conn, clean_name(msg.name))
    except ValueError as e:
        conn.send(Error(str(e)))
    except TableError as e:
        conn.send(Error(e.message))
    else:
        conn.send(Asked("the host has been asked; wait here"))


_closing: set[asyncio.Task[None]] = set()

SIGNED_OUT = N_("this device has been signed out: nothing you send here counts any more; sign in again to play")
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
        message = await conn.take()
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


def _is_hello(text: str | bytes) -> bool:
    """Whether a frame is a hello message (read cheaply: the message itself is read and checked later)."""
    if not isinstance(text, str) or '"hello"' not in text:
        return False
    msg, _error = read_message(text)
    return msg is not None and msg.get("type") == "hello"


async def _receive(ws: WebSocket) -> str | bytes:
    """The next frame's text (or bytes, for a binary frame, which ``read_message`` refuses).

    :raises WebSocketDisconnect: when the client has gone.
    """
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if text is not None else bytes(message.get("bytes") or b"")

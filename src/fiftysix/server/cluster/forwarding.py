"""The cluster hub's messages between processes: a change sent to a replica goes to its writer's inbox and
the answers come back (:meth:`Forwarding.route`), the writer serves what others forwarded, and every message
heard on Redis is dispatched here (:meth:`Forwarding.heard`).  A part of :class:`.relay.ClusterHub`, handed
the hub.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from redis.exceptions import RedisError

from ...core.meaning import N_
from ..services import REDIS, WORDS, Services, service_message
from ..state.typed_json import Received
from ..table.live import Connection, LiveTable
from ..table.outgoing import Error, Outgoing
from ..table.protocol import handle_message
from .bus import ALL, Bus, inbox
from .failover import Failover
from .lease import Lease
from .messages import DoneMessage, Heard, ReplyMessage, RequestMessage, TellMessage
from .table import ClusterTable, Relayed

WRITES = frozenset({"join", "sit", "stand", "bot", "unbot", "swap", "start", "next", "rematch", "move", "offer",
                    "admit", "refuse", "react", "claim"})
"""Client messages the writer answers (changes of the table, answers to who asks to join, reactions with their
rate limit): a replica forwards them to the writer."""
ATTEMPT = 2.0       # seconds to wait for the writer to answer a forwarded message before asking again
FORWARD = 12.0      # seconds to keep trying (the lease runs out and a new writer takes over meanwhile)


class ForwardingHost(Protocol):
    """What the messages' part needs of its hub: the process's name, bus, lease, services and tables, the tables
    being loaded (their messages wait in ``early``), the leases' part, work in the background, and the server's
    calls for what other processes tell."""

    me: str
    bus: Bus
    lease: Lease
    services: Services
    tables: dict[str, ClusterTable]
    early: dict[str, list[Heard]]
    failover: Failover
    on_signout: Callable[[str, int], None] | None
    on_revoke: Callable[[str, str], None] | None
    on_forget: Callable[[str], None] | None

    def later(self, work: Awaitable[object]) -> None: ...


class Forwarding:
    """Changes forwarded from replicas to writers, and everything heard from the other processes; it owns the
    forwarded changes waiting for their writer's answer (``waiting``, by request id)."""

    def __init__(self, hub: ForwardingHost) -> None:
        self.hub = hub
        self.ids = itertools.count(1)
        self.waiting: dict[int, tuple[ClusterTable, Connection, asyncio.Future[bool]]] = {}

    async def route(self, table: LiveTable, conn: Connection, msg: Received) -> None:
        """:func:`~fiftysix.server.table.protocol.handle_message`, or to the writer for a change at a replica."""
        if not isinstance(table, ClusterTable) or table.writer or msg["type"] not in WRITES:
            await handle_message(table, conn, msg)
            return
        rid = next(self.ids)
        request: RequestMessage = {"op": "req", "code": table.code, "from": self.hub.me, "rid": rid,
                                   "player": conn.player, "msg": msg}
        deadline = time.monotonic() + FORWARD
        try:
            while time.monotonic() < deadline:
                if table.writer:    # took the table over meanwhile
                    await handle_message(table, conn, msg)
                    return
                done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
                self.waiting[rid] = (table, conn, done)
                if not self.hub.bus.up:     # no way to the writer: say so, do not spin
                    conn.send(self.hub.services.messages()[0] if self.hub.services.messages() else
                              service_message(REDIS, False))
                    break
                if table.replica.owner is not None and await self._forward(table.replica.owner, request) > 0:
                    with contextlib.suppress(TimeoutError):
                        if await asyncio.wait_for(done, ATTEMPT):
                            return
                else:
                    await asyncio.sleep(0.2)
                taken = (await self.hub.lease.take([table.code])).get(table.code)
                if taken is not None:
                    await self.hub.failover.promote(table.code, taken)
                else:
                    table.replica.follow(await self.hub.lease.owner(table.code))
            move_id = msg.get("id") if msg["type"] == "move" else None
            why = N_("the table's server did not answer; please try again") if self.hub.bus.up else WORDS[REDIS]
            conn.send(Error(why, id=move_id if isinstance(move_id, str) else None))
        finally:
            self.waiting.pop(rid, None)

    async def _forward(self, owner: str, request: RequestMessage) -> int:
        """Send a change to its writer's inbox; 0 when nobody got it (or Redis just went away)."""
        try:
            return await self.hub.bus.publish(inbox(owner), request)
        except RedisError:
            return 0

    def redis_back(self) -> None:
        """Redis answers again: every replica reads its table's log once (it missed what was published
        meanwhile) and tells its writer who is here; every writer tells its replicas to do the same."""
        for table in list(self.hub.tables.values()):
            if table.writer:
                table.channel.writer(self.hub.me)     # and who is here, and who asks to join
                table.broadcast_presence()
                table.tell_host()
            else:
                self.hub.later(table.replica.resync())
                self.hub.failover.send_here(table)

    async def _serve(self, data: RequestMessage) -> None:
        """A change forwarded by another process's replica."""
        origin, rid = data["from"], data["rid"]
        table = self.hub.tables.get(data["code"])
        if table is None or not table.writer:
            self.hub.bus.publish_soon(inbox(origin), {"op": "done", "rid": rid, "retry": True})
            return
        try:
            await handle_message(table, Relayed(self.hub.bus, origin, rid, data["player"]), data["msg"])
        finally:
            self.hub.bus.publish_soon(inbox(origin), {"op": "done", "rid": rid})

    def tell_signout(self, player: str, generation: int) -> None:
        """Tell every process that ``player`` signed out everywhere (their older tokens are refused)."""
        self.hub.bus.publish_soon(ALL, {"op": "signout", "from": self.hub.me, "player": player, "gen": generation})

    def tell_revoked(self, player: str, session: str) -> None:
        """Tell every process that device ``session`` of ``player`` was signed out (server/accounts)."""
        self.hub.bus.publish_soon(ALL, {"op": "revoke", "from": self.hub.me, "player": player, "session": session})

    def tell_forget(self, player: str) -> None:
        """Tell every process that ``player``'s account was deleted (their tables are read again from the logs)."""
        self.hub.bus.publish_soon(ALL, {"op": "forget", "from": self.hub.me, "player": player})

    def tell_elsewhere(self, code: str, player: str, message: Outgoing, seatless: bool) -> None:
        """To ``player``'s connections to ``code`` on every other process (an ask to see a hand, or the hand for a
        watcher): each process that has the table here delivers it to its own connections of that player."""
        self.hub.bus.publish_soon(ALL, {"op": "tell", "from": self.hub.me, "code": code, "player": player,
                                        "m": message.to_json(), "seatless": seatless})

    def _told(self, data: TellMessage) -> None:
        """Another process's :meth:`tell_elsewhere`: to this process's connections of that player, if any (with
        ``seatless``, only while they hold no seat in this process's copy of the table)."""
        table = self.hub.tables.get(data["code"])
        player = data["player"]
        if table is None or (data["seatless"] and table.state.seat_of(player) is not None):
            return
        for conn in list(table.conns):
            if conn.player == player:
                conn.send(dict(data["m"]))

    def heard(self, channel: str, data: Heard) -> None:
        """Every message from Redis (on the reader task: quick, no waiting)."""
        if channel.startswith("fs:t:"):
            code = channel[5:]
            if code in self.hub.early:
                self.hub.early[code].append(data)
            elif (table := self.hub.tables.get(code)) is not None:
                table.replica.receive(data)
        elif data["op"] == "req":
            self.hub.later(self._serve(data))
        elif data["op"] == "reply" or data["op"] == "done":
            self._answered(data)
        elif data["op"] == "here":
            table = self.hub.tables.get(data["code"])
            if table is not None and table.writer:
                table.set_remote(data["from"], set(data["players"]), dict(data["knocks"]))
        elif data["op"] not in ("signout", "revoke", "forget", "tell") or data["from"] == self.hub.me:
            return
        elif data["op"] == "tell":
            self._told(data)
        elif data["op"] == "signout" and self.hub.on_signout is not None:
            self.hub.on_signout(data["player"], data["gen"])
        elif data["op"] == "revoke" and self.hub.on_revoke is not None:
            self.hub.on_revoke(data["player"], data["session"])
        elif data["op"] == "forget" and self.hub.on_forget is not None:
            self.hub.on_forget(data["player"])

    def _answered(self, data: ReplyMessage | DoneMessage) -> None:
        """The writer's answer to a change this process forwarded: a message for its client, or done."""
        waiting = self.waiting.get(data["rid"])
        if waiting is None:
            return
        table, conn, done = waiting
        if data["op"] == "reply":
            table.replica.answer(conn, data["msg"])
        elif not done.done():
            done.set_result(not data.get("retry"))

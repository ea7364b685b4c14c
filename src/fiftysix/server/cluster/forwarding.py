"""The cluster hub's messages between processes: a change sent to a replica goes to its writer's inbox and
the answers come back (:meth:`Forwarding.route`), the writer serves what others forwarded, and every message
heard on Redis is dispatched here (:meth:`Forwarding._heard`).  Part of :class:`.relay.ClusterHub`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

from redis.exceptions import RedisError

from ...core.meaning import N_
from ..services import REDIS, WORDS
from ..table.live import Connection, LiveTable
from ..table.outgoing import Error
from ..table.protocol import handle_message
from .bus import ALL, Heard, inbox, table_channel
from .failover import Failover
from .table import ClusterTable, Relayed

WRITES = frozenset({"join", "sit", "stand", "bot", "unbot", "swap", "start", "next", "rematch", "move", "offer",
                    "admit", "refuse", "react", "claim"})
"""Client messages the writer answers (changes of the table, answers to who asks to join, reactions with their
rate limit): a replica forwards them to the writer."""
ATTEMPT = 2.0       # seconds to wait for the writer to answer a forwarded message before asking again
FORWARD = 12.0      # seconds to keep trying (the lease runs out and a new writer takes over meanwhile)


class Forwarding(Failover):
    """Changes forwarded from replicas to writers, and everything heard from the other processes."""

    _early: dict[str, list[Heard]]
    on_signout: Callable[[str, int], None] | None
    on_revoke: Callable[[str, str], None] | None
    on_forget: Callable[[str], None] | None

    async def route(self, table: LiveTable, conn: Connection, msg: dict[str, object]) -> None:
        """:func:`~fiftysix.server.table.protocol.handle_message`, or to the writer for a change at a replica."""
        if not isinstance(table, ClusterTable) or table.writer or msg["type"] not in WRITES:
            await handle_message(table, conn, msg)
            return
        rid = next(self._ids)
        request = {"op": "req", "code": table.code, "from": self.me, "rid": rid, "player": conn.player, "msg": msg}
        deadline = time.monotonic() + FORWARD
        try:
            while time.monotonic() < deadline:
                if table.writer:    # took the table over meanwhile
                    await handle_message(table, conn, msg)
                    return
                done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
                self._waiting[rid] = (table, conn, done)
                if not self.bus.up:     # no way to the writer: say so, do not spin
                    conn.send(self.services.messages()[0] if self.services.messages() else
                              {"type": "service", "service": REDIS, "ok": False})
                    break
                if table.owner is not None and await self._forward(table.owner, request) > 0:
                    with contextlib.suppress(TimeoutError):
                        if await asyncio.wait_for(done, ATTEMPT):
                            return
                else:
                    await asyncio.sleep(0.2)
                taken = (await self.lease.take([table.code])).get(table.code)
                if taken is not None:
                    await self.promote(table.code, taken)
                else:
                    table.follow(await self.lease.owner(table.code))
            move_id = msg.get("id") if msg["type"] == "move" else None
            conn.send(Error(N_("the table's server did not answer; please try again") if self.bus.up else WORDS[REDIS],
                            id=move_id if isinstance(move_id, str) else None))
        finally:
            self._waiting.pop(rid, None)

    async def _forward(self, owner: str, request: dict[str, object]) -> int:
        """Send a change to its writer's inbox; 0 when nobody got it (or Redis just went away)."""
        try:
            return await self.bus.publish(inbox(owner), request)
        except RedisError:
            return 0

    def _redis_back(self) -> None:
        """Redis answers again: every replica reads its table's log once (it missed what was published
        meanwhile) and tells its writer who is here; every writer tells its replicas to do the same."""
        for table in list(self.tables.values()):
            if table.writer:
                self.bus.publish_soon(table_channel(table.code), {"op": "writer", "from": self.me})
                table.announce()
            else:
                self.later(table.resync())
                self.send_here(table)

    async def _serve(self, data: Heard) -> None:
        """A change forwarded by another process's replica."""
        origin, rid = str(data["from"]), int(data["rid"])
        table = self.tables.get(str(data.get("code")))
        if table is None or not table.writer:
            self.bus.publish_soon(inbox(origin), {"op": "done", "rid": rid, "retry": True})
            return
        try:
            await handle_message(table, Relayed(self.bus, origin, rid, data.get("player")), data["msg"])
        finally:
            self.bus.publish_soon(inbox(origin), {"op": "done", "rid": rid})

    def tell_signout(self, player: str, generation: int) -> None:
        """Tell every process that ``player`` signed out everywhere (their older tokens are refused)."""
        self.bus.publish_soon(ALL, {"op": "signout", "from": self.me, "player": player, "gen": generation})

    def tell_revoked(self, player: str, session: str) -> None:
        """Tell every process that device ``session`` of ``player`` was signed out (server/accounts)."""
        self.bus.publish_soon(ALL, {"op": "revoke", "from": self.me, "player": player, "session": session})

    def tell_forget(self, player: str) -> None:
        """Tell every process that ``player``'s account was deleted (their tables are read again from the logs)."""
        self.bus.publish_soon(ALL, {"op": "forget", "from": self.me, "player": player})

    def tell_elsewhere(self, code: str, player: str, message: dict[str, object], seatless: bool) -> None:
        """To ``player``'s connections to ``code`` on every other process (an ask to see a hand, or the hand for a
        watcher): each process that has the table here delivers it to its own connections of that player."""
        self.bus.publish_soon(ALL, {"op": "tell", "from": self.me, "code": code, "player": player, "m": message,
                                    "seatless": seatless})

    def _told(self, data: Heard) -> None:
        """Another process's :meth:`tell_elsewhere`: to this process's connections of that player, if any (with
        ``seatless``, only while they hold no seat in this process's copy of the table)."""
        table = self.tables.get(str(data.get("code")))
        player = str(data.get("player"))
        if table is None or (data.get("seatless") and table.state.seat_of(player) is not None):
            return
        for conn in list(table.conns):
            if conn.player == player:
                conn.send(dict(data["m"]))

    def _heard(self, channel: str, data: Heard) -> None:
        """Every message from Redis (on the reader task: quick, no waiting)."""
        op = data.get("op")
        if channel.startswith("fs:t:"):
            code = channel[5:]
            if code in self._early:
                self._early[code].append(data)
            elif (table := self.tables.get(code)) is not None:
                table.receive(data)
        elif op == "req":
            self.later(self._serve(data))
        elif op == "reply" or op == "done":
            waiting = self._waiting.get(int(data["rid"]))
            if waiting is None:
                return
            table, conn, done = waiting
            if op == "reply":
                table.answer(conn, data["msg"])
            elif not done.done():
                done.set_result(not data.get("retry"))
        elif op == "here":
            table = self.tables.get(str(data.get("code")))
            if table is not None and table.writer:
                knocks = data.get("knocks")
                table.set_remote(str(data["from"]), set(data.get("players", ())),
                                 {str(p): str(n) for p, n in knocks.items()} if isinstance(knocks, dict) else None)
        elif data.get("from") == self.me:
            return
        elif op == "tell":
            self._told(data)
        elif op == "signout" and self.on_signout is not None:
            self.on_signout(str(data["player"]), int(data["gen"]))
        elif op == "revoke" and self.on_revoke is not None:
            self.on_revoke(str(data["player"]), str(data["session"]))
        elif op == "forget" and self.on_forget is not None:
            self.on_forget(str(data["player"]))

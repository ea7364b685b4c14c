"""The hub across processes: one writer per table, replicas everywhere else (tables: :mod:`.table`).

The process holding a table's lease (:mod:`.lease`) is its writer: it runs the table as one process does
(checks, log, computer players) and publishes each stored event once on the table's channel, with who is
online.  Every other process with viewers of that table keeps a replica: it applies the published events
to its own copy of the state and renders each of its viewers' own view from it (rendering stays where the
websockets are, so the writer's cost per event does not grow with viewers elsewhere, and a view never
crosses Redis).  Changes a viewer sends to a replica are forwarded to the writer's inbox as the client's
message; the writer handles it exactly as its own (move ids, turns, quotas) and its answers go back.

Failover: a replica whose table's lease ran out takes it (a new epoch), reloads the state from the log and
becomes the writer; tables with a deal in progress and no process at all are picked up by any process.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ..access import Lookups
from ..db import Database
from ..history import History
from ..hub import Hub
from ..limits import Limits, searching_bots
from ..messages import snapshot
from ..protocol import handle_message
from ..state import TableError, TableState
from ..table import Connection, LiveTable, Timing
from .bus import ALL, Bus, inbox, table_channel
from .lease import Lease
from .table import ClusterTable, Relayed

log = logging.getLogger("fiftysix.server")

WRITES = frozenset({"join", "sit", "stand", "bot", "unbot", "swap", "start", "next", "rematch", "move", "offer"})
"""Client messages that change the table: a replica forwards them to the writer."""
ATTEMPT = 2.0       # seconds to wait for the writer to answer a forwarded message before asking again
FORWARD = 12.0      # seconds to keep trying (the lease runs out and a new writer takes over meanwhile)


def process_name() -> str:
    return f"{socket.gethostname()[:40]}-{os.getpid()}-{secrets.token_hex(3)}"


class SharedLookups(Lookups):
    """Failed lookups counted by every process: each one is told to every other."""

    def __init__(self, limits: Limits, hub: ClusterHub) -> None:
        super().__init__(limits)
        self.hub = hub

    def failed(self, address: str) -> None:
        super().failed(address)
        self.hub.bus.publish_soon(ALL, {"op": "lookup", "from": self.hub.me, "a": address})


class ClusterHub(Hub):
    """The hub of one of many processes: leases, replicas, forwarding and failover (module docstring)."""

    def __init__(self, db: Database, timing: Timing, limits: Limits, redis_url: str,
                 lease_ttl: float = 3.0) -> None:
        super().__init__(db, timing, limits)
        self.me = process_name()
        self.bus = Bus(redis_url, self.me, self._heard)
        self.lease = Lease(db, self.me, ttl=lease_ttl, renew_every=lease_ttl / 3)
        self.lookups = SharedLookups(limits, self)
        self.tables: dict[str, ClusterTable] = {}    # type: ignore[assignment]
        self.statuses: dict[str, str] = {}          # tables loaded elsewhere (for the quotas)
        self._early: dict[str, list[dict[str, Any]]] = {}
        self._waiting: dict[int, tuple[ClusterTable, Connection, asyncio.Future[bool]]] = {}
        self._ids = itertools.count(1)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ticker: asyncio.Task[None] | None = None
        self.on_signout: Callable[[str, int], None] | None = None    # the server's: a sign-out elsewhere

    def later(self, work: Awaitable[Any]) -> None:
        """Run ``work`` in its own task (kept until it ends)."""
        async def run() -> None:
            try:
                await work
            except Exception:
                log.exception("cluster work failed")
        task = asyncio.create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def status_of(self, code: str) -> str | None:
        return super().status_of(code) or self.statuses.get(code)

    def _live(self, state: TableState, history: History) -> LiveTable:
        table = ClusterTable(self, state, history, None)
        code = state.code
        table.check_bot = lambda bot: (self.quotas.check_search(code, self.status_of)
                                       if searching_bots([bot]) else None)
        return table

    async def load(self, code: str) -> tuple[TableState, History]:
        count = await self.db.events_count(code)
        return await History.load_stream(code, count, self.db.stream_events(code), self.timing.replay_limit)

    # -- life ------------------------------------------------------------------------------------------
    async def resume_all(self) -> int:
        """Connect to Redis and start the lease loop; tables with a deal in progress whose writer is gone
        are taken over by that loop (by whichever process comes first)."""
        await self.bus.start()
        await self.bus.heartbeat()
        self._janitor = asyncio.create_task(self._sweep_loop(), name="idle tables")
        self._ticker = asyncio.create_task(self._lease_loop(), name="leases")
        return 0

    async def stop(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        held = {code: t.epoch for code, t in self.tables.items() if t.epoch is not None}
        await super().stop()
        for code, epoch in held.items():    # others take these over at once instead of after the lease
            with contextlib.suppress(Exception):
                await self.lease.release(code, epoch)
        await self.bus.stop()

    async def get(self, code: str) -> LiveTable | None:
        code = code.strip().upper()
        table = self.tables.get(code)
        if table is not None:
            return table
        async with self._loading:
            table = self.tables.get(code)
            if table is not None:
                return table
            if len(code) > 16 or not await self.db.exists(code):
                return None
            epoch = (await self.lease.take([code])).get(code)
            if epoch is None:       # a replica: listen first, so no event falls between the log and the channel
                self._early[code] = []
                await self.bus.watch(table_channel(code))
            try:
                state, history = await self.load(code)
            except Exception:
                if epoch is None:
                    self._early.pop(code, None)
                    await self.bus.unwatch(table_channel(code))
                raise
            if epoch is not None:
                self.db.forget_row(code)
            table = ClusterTable(self, state, history, epoch)
            code_ = code
            table.check_bot = lambda bot: (self.quotas.check_search(code_, self.status_of)
                                           if searching_bots([bot]) else None)
            if epoch is None:
                table.owner = await self.lease.owner(code)
            self.quotas.resumed(code, state.host, searching_bots([state.fill, *(s.bot for s in state.seats)]))
            self.tables[code] = table
            for data in self._early.pop(code, []):
                table.receive(data)
            table.start()
            if epoch is not None:
                log.info("table %s: writing it here (epoch %d)", code, epoch)
            return table

    async def create(self, host: str, host_name: str, form: dict[str, Any], address: str | None = None) -> LiveTable:
        table = await super().create(host, host_name, form, address)
        assert isinstance(table, ClusterTable)
        epoch = (await self.lease.take([table.code], mine_too=True)).get(table.code)
        if epoch is None:   # cannot happen for a new code; be safe: another process writes it
            raise TableError("the new table could not be set up; please try again")
        table.epoch, table.owner = epoch, self.me
        table.start()
        self.bus.publish_soon(ALL, {"op": "created", "from": self.me, "code": table.code, "host": host,
                                    "address": address, "searching": searching_bots([table.state.fill])})
        return table

    async def unload(self, code: str) -> bool:
        table = self.tables.get(code)
        epoch = table.epoch if table is not None else None
        if not await super().unload(code):
            return False
        if epoch is not None:
            await self.lease.release(code, epoch)
        else:
            await self.bus.unwatch(table_channel(code))
        return True

    async def sweep(self, now: float | None = None) -> tuple[int, int]:
        now = time.time() if now is None else now
        unloaded = 0
        for code, table in list(self.tables.items()):
            if table.idle_for(now) >= self.timing.idle_unload and await self.unload(code):
                unloaded += 1
        async with self._loading:     # a table leased anywhere is in use
            keep = set(self.tables) | await self.lease.leased()
            expired = await self.db.expire_lobbies(now - self.timing.lobby_expiry, keep=keep)
        return unloaded, expired

    # -- leases and failover ---------------------------------------------------------------------------
    async def _lease_loop(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception:
                log.exception("renewing leases failed; trying again")
            await asyncio.sleep(self.lease.renew_every)

    async def tick(self) -> None:
        """Renew this process's leases (stepping down where one was lost), take over replicas whose writer
        is gone, pick up tables in play that nobody writes, and forget people on dead processes."""
        await self.bus.heartbeat()
        held = {code: t.epoch for code, t in self.tables.items() if t.epoch is not None}
        kept = await self.lease.renew(held)
        for code, epoch in held.items():
            table = self.tables.get(code)
            if code not in kept and table is not None and table.epoch == epoch:
                await self.demote(table)
        replicas = [code for code, t in self.tables.items() if not t.writer]
        for code, epoch in (await self.lease.take(replicas)).items():
            await self.promote(code, epoch)
        for code in await self.lease.orphans(skip=list(self.tables)):
            with contextlib.suppress(Exception):
                await self.get(code)
        processes = sorted({p for t in self.tables.values() if t.writer for p in t.remote})
        alive = await self.bus.alive(processes)
        for t in list(self.tables.values()):
            for p in [p for p in t.remote if p not in alive] if t.writer else []:
                t.set_remote(p, set())

    async def promote(self, code: str, epoch: int) -> None:
        """Become the writer of a replica whose lease this process just took: the log is the truth."""
        table = self.tables.get(code)
        if table is None or table.writer:
            await self.lease.release(code, epoch)
            return
        async with table.lock:
            self.db.forget_row(code)
            state, history = await self.load(code)
            table.epoch, table.owner = epoch, self.me
            if state.version != table.state.version:
                table.state, table.history = state, history
                for conn in list(table.conns):
                    conn.send(snapshot(table.state, table.presence, conn.player))
            table.presence.online = table.local_players()
            table.remote = {}
            table._answer_later()
        await self.bus.unwatch(table_channel(code))
        self.bus.publish_soon(table_channel(code), {"op": "writer", "from": self.me})
        table.start()
        log.warning("table %s: took it over from the log (epoch %d)", code, epoch)

    async def demote(self, table: ClusterTable) -> None:
        """The lease was lost (paused too long, or fenced on append): become a replica."""
        if not table.writer:
            return
        log.warning("table %s: lost its lease (epoch %s); another process writes it now", table.code, table.epoch)
        table.pause()
        await self.bus.watch(table_channel(table.code))
        table.owner = await self.lease.owner(table.code)
        await table.resync()
        self.send_here(table)

    # -- forwarding --------------------------------------------------------------------------------------
    async def route(self, table: LiveTable, conn: Connection, msg: dict[str, Any]) -> None:
        """:func:`~fiftysix.server.protocol.handle_message`, or to the writer for a change at a replica."""
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
                if table.owner is not None and await self.bus.publish(inbox(table.owner), request) > 0:
                    with contextlib.suppress(TimeoutError):
                        if await asyncio.wait_for(done, ATTEMPT):
                            return
                else:
                    await asyncio.sleep(0.2)
                taken = (await self.lease.take([table.code])).get(table.code)
                if taken is not None:
                    await self.promote(table.code, taken)
                else:
                    table.owner = await self.lease.owner(table.code)
            error: dict[str, Any] = {"type": "error", "message": "the table's server did not answer; please try again"}
            if msg["type"] == "move" and isinstance(msg.get("id"), str):
                error["id"] = msg["id"]
            conn.send(error)
        finally:
            self._waiting.pop(rid, None)

    async def _serve(self, data: dict[str, Any]) -> None:
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

    def send_here(self, table: ClusterTable) -> None:
        """Tell the writer who is online here at this table."""
        if not table.writer and table.owner is not None:
            self.bus.publish_soon(inbox(table.owner), {"op": "here", "code": table.code, "from": self.me,
                                                       "players": sorted(table.local_players())})

    def _heard(self, channel: str, data: dict[str, Any]) -> None:
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
                table.set_remote(str(data["from"]), set(data.get("players", ())))
        elif data.get("from") == self.me:
            return
        elif op == "lookup":
            Lookups.failed(self.lookups, str(data["a"]))
        elif op == "created":
            self.quotas.created(str(data["code"]), str(data["host"]), data.get("address"), bool(data["searching"]))
        elif op == "signout" and self.on_signout is not None:
            self.on_signout(str(data["player"]), int(data["gen"]))
        elif op == "status":
            self.statuses[str(data["code"])] = str(data["s"])
            if len(self.statuses) > 100_000:
                self.statuses.clear()


def cluster_parts(db: Database, timing: Timing, limits: Limits, redis_url: str,
                  ) -> tuple[ClusterHub, Lookups, Callable[[LiveTable, Connection, dict[str, Any]], Awaitable[None]]]:
    """The hub, the failed-lookup counter and the message handler of one of many processes."""
    hub = ClusterHub(db, timing, limits, redis_url)
    return hub, hub.lookups, hub.route

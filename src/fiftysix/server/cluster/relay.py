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

People asking to join a private table wait on their own process; replicas tell the writer who asks there
(with who is online), the writer publishes everyone asking on the table's channel, and the host's answer,
forwarded to the writer like any change, is published after its event.  Failed lookups, the table quotas
and the spectators are counted in Redis (:mod:`.counters`).
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

from redis.exceptions import RedisError

from ...core.meaning import N_
from ..access import Lookups
from ..db import Database
from ..history import History
from ..hub import Hub, creation_event
from ..limits import Limits, searching_bots
from ..protocol import handle_message
from ..services import DATABASE, REDIS, WORDS, service_of
from ..state import MATCH_OVER, TableError, TableState
from ..table import Connection, LiveTable, Timing
from .bus import ALL, Bus, inbox, table_channel
from .counters import OPEN_TTL, RENEW_OPEN, WATCH_TTL, Counters, Hosted, SharedLookups, SharedQuotas, watch_key
from .lease import Lease
from .table import ClusterTable, Relayed

log = logging.getLogger("fiftysix.server")

WRITES = frozenset({"join", "sit", "stand", "bot", "unbot", "swap", "start", "next", "rematch", "move", "offer",
                    "admit", "refuse", "react"})
"""Client messages the writer answers (changes of the table, answers to who asks to join, reactions with their
rate limit): a replica forwards them to the writer."""
ATTEMPT = 2.0       # seconds to wait for the writer to answer a forwarded message before asking again
FORWARD = 12.0      # seconds to keep trying (the lease runs out and a new writer takes over meanwhile)


def process_name() -> str:
    return f"{socket.gethostname()[:40]}-{os.getpid()}-{secrets.token_hex(3)}"


class ClusterHub(Hub):
    """The hub of one of many processes: leases, replicas, forwarding and failover (module docstring)."""

    def __init__(self, db: Database, timing: Timing, limits: Limits, redis_url: str,
                 lease_ttl: float = 3.0) -> None:
        super().__init__(db, timing, limits)
        self.me = process_name()
        self.bus = Bus(redis_url, self.me, self._heard, self.services)
        self.bus.on_back = self._redis_back
        self.lease = Lease(db, self.me, ttl=lease_ttl, renew_every=lease_ttl / 3)
        self.counters = Counters(self.bus.redis)
        self.lookups = SharedLookups(limits, self.counters)
        self.shared_quotas = SharedQuotas(limits, self.counters)
        self.tables: dict[str, ClusterTable] = {}    # type: ignore[assignment]
        self._watch_ids = itertools.count(1)
        self._ticks = 0
        self._early: dict[str, list[dict[str, Any]]] = {}
        self._waiting: dict[int, tuple[ClusterTable, Connection, asyncio.Future[bool]]] = {}
        self._ids = itertools.count(1)
        self._tasks: set[asyncio.Task[Any]] = set()
        # the writer's quota bookkeeping, by table code: who created it, and whether it counts open in Redis
        self.hosts: dict[str, Hosted] = {}
        self.counted_open: set[str] = set()
        self._ticker: asyncio.Task[None] | None = None
        self.on_signout: Callable[[str, int], None] | None = None    # the server's: a sign-out elsewhere
        self.on_revoke: Callable[[str, str], None] | None = None     # ... and a device signed out elsewhere

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

    def _live(self, state: TableState, history: History) -> LiveTable:
        return ClusterTable(self, state, history, None)

    async def check_search(self, code: str, bot: str) -> None:
        """The quota of tables with searching computer players, counted in Redis (on the writer).

        :raises QuotaError: naming the limit.
        """
        if not searching_bots([bot]):
            return
        hosted = self.hosts.get(code)
        if hosted is None:
            table = self.tables[code]
            hosted = (await self.shared_quotas.recall([code])).get(code) or _hosted(table.state)
            self.hosts[code] = hosted
        await self.shared_quotas.check_search(code, hosted)

    def watch_member(self) -> str:
        return f"{self.me}:{next(self._watch_ids)}"

    async def count_watcher(self, code: str, member: str, most: int) -> int | None:
        """Count a connection watching ``code``; ``None`` when done, else how many watch it already (full)."""
        try:
            full = await self.counters.take([(watch_key(code), WATCH_TTL, most)], member)
        except RedisError:
            self.counters.outage.failed("counting a spectator (let in)")
            return None
        self.counters.outage.answered()
        return None if full is None else full[1]

    # -- life ------------------------------------------------------------------------------------------
    async def resume_all(self) -> int:
        """Connect to Redis and start the lease loop; tables with a deal in progress whose writer is gone
        are taken over by that loop (by whichever process comes first)."""
        await self.bus.start()
        self._janitor = asyncio.create_task(self._sweep_loop(), name="idle tables")
        self._ticker = asyncio.create_task(self._lease_loop(), name="leases")
        return 0

    async def stop(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        held = {code: t.epoch for code, t in self.tables.items() if t.epoch is not None}
        with contextlib.suppress(Exception):    # this process's spectators stop counting at once
            await self.counters.drop([p for t in self.tables.values() for p in t.watchers_now()])
        await super().stop()
        for code, epoch in held.items():    # others take these over at once instead of after the lease
            with contextlib.suppress(Exception):
                await self.lease.release(code, epoch)
        await self.bus.stop()

    async def _bring(self, code: str) -> LiveTable:
        """:meth:`Hub._bring` as this table's writer if its lease is free, else as a replica of its writer."""
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
        owner = await self.lease.owner(code) if epoch is None else None
        table = ClusterTable(self, state, history, epoch, owner)
        # no await from here until Hub.get has registered the table: a message on its channel goes to
        # _early or to the table, never nowhere
        for data in self._early.pop(code, []):
            table.receive(data)
        if epoch is not None:
            log.info("table %s: writing it here (epoch %d)", code, epoch)
        return table

    async def create(self, host: str, host_name: str, form: dict[str, Any], address: str | None = None,
                     event: str | None = None) -> LiveTable:
        """:meth:`Hub.create` with the quotas counted in Redis (``fs:made``, ``fs:open``, ``fs:search``).

        :raises TableError: for a form the rules or the server refuse.
        :raises QuotaError: when the host or their address is over a quota, on all processes together.
        """
        created = creation_event(host, host_name, form, event)
        searching = searching_bots([created["fill"]])
        async with self._loading:
            code = await self._new_code()
            hosted = await self.shared_quotas.check_create(code, host, address, searching, personal=event is None)
            state = TableState(code)
            stored = state.apply(created)
            try:
                await self.db.append(code, state.version, stored, state.status)
            except Exception:
                with contextlib.suppress(Exception):
                    await self.shared_quotas.uncount(code, hosted)
                raise
            epoch = (await self.lease.take([code], mine_too=True)).get(code)
            if epoch is None:   # cannot happen for a new code; be safe: another process writes it
                raise TableError("the new table could not be set up; please try again")
            table = ClusterTable(self, state, History(TableState(code), [stored], self.timing.replay_limit), epoch)
            self.hosts[code] = hosted
            self.counted_open.add(code)
            self.tables[code] = table
        table.start()
        return table

    async def unload(self, code: str) -> bool:
        table = self.tables.get(code)
        epoch = table.epoch if table is not None else None
        if not await super().unload(code):
            return False
        if epoch is not None:
            await self.lease.release(code, epoch)
            hosted = self.hosts.get(code)
            if code in self.counted_open and hosted is not None:       # unloaded: not open any more
                await self.counters.drop(hosted.places(code))
        else:
            await self.bus.unwatch(table_channel(code))
        self.hosts.pop(code, None)
        self.counted_open.discard(code)
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
            except Exception as e:
                if (service := service_of(e)) is None:
                    log.exception("renewing leases failed; trying again")
                else:   # one line a second, not a stack: tables refuse changes until the lease is renewed
                    if service == DATABASE:     # (its probe tells when it is back)
                        self.services.report(service, False)
                    log.warning("renewing leases failed (%s is away); trying again", service)
            await asyncio.sleep(self.lease.renew_every)

    async def tick(self) -> None:
        """Renew this process's leases (stepping down where one was lost), take over replicas whose writer
        is gone, pick up tables in play that nobody writes, and forget people on dead processes."""
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
        if not self.bus.up:     # the leases above live in PostgreSQL: tables written here go on meanwhile
            return
        try:
            processes = sorted({p for t in self.tables.values() if t.writer for p in {*t.remote, *t.remote_knocks}})
            alive = await self.bus.alive(processes)
            for t in list(self.tables.values()):
                for p in [p for p in {*t.remote, *t.remote_knocks} if p not in alive] if t.writer else []:
                    t.set_remote(p, set(), {})
            await self.counters.keep([p for t in self.tables.values() for p in t.watchers_now()], WATCH_TTL)
            self._ticks += 1
            if self._ticks % RENEW_OPEN == 1:
                await self._count_open()
        except RedisError:
            self.counters.outage.failed("renewing the spectators and open tables")

    async def _count_open(self) -> None:
        """Renew the open tables this process writes in their hosts' quotas (``fs:open``, ``fs:search``); a
        table whose match is over stops counting."""
        writing = [t for t in self.tables.values() if t.writer]
        unknown = [t.code for t in writing if t.code not in self.hosts]
        known = await self.shared_quotas.recall(unknown) if unknown else {}
        keep, drop = [], []
        for t in writing:
            hosted = self.hosts.get(t.code) or known.get(t.code) or _hosted(t.state)
            self.hosts[t.code] = hosted
            if t.state.status != MATCH_OVER:
                keep.extend(hosted.places(t.code))
                self.counted_open.add(t.code)
            elif t.code in self.counted_open:
                drop.extend(hosted.places(t.code))
                self.counted_open.discard(t.code)
        await self.counters.keep(keep, OPEN_TTL)
        await self.counters.drop(drop)

    async def promote(self, code: str, epoch: int) -> None:
        """Become the writer of a replica whose lease this process just took: the log is the truth."""
        table = self.tables.get(code)
        if table is None or table.writer:
            await self.lease.release(code, epoch)
            return
        async with table.lock:
            self.db.forget_row(code)
            state, history = await self.load(code)
            table.take_over(epoch, state, history)
        await self.bus.unwatch(table_channel(code))
        self.bus.publish_soon(table_channel(code), {"op": "writer", "from": self.me})
        table.tell_host()      # who asks to join here; the replicas tell theirs on hearing of the new writer
        table.start()
        log.warning("table %s: took it over from the log (epoch %d)", code, epoch)

    async def demote(self, table: ClusterTable) -> None:
        """The lease was lost (paused too long, or fenced on append): become a replica."""
        if not table.writer:
            return
        log.warning("table %s: lost its lease (epoch %s); another process writes it now", table.code, table.epoch)
        table.pause()
        await self.bus.watch(table_channel(table.code))
        table.follow(await self.lease.owner(table.code))
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
            error: dict[str, Any] = {"type": "error", "message": N_("the table's server did not answer; please try "
                                                                    "again") if self.bus.up else WORDS[REDIS]}
            if msg["type"] == "move" and isinstance(msg.get("id"), str):
                error["id"] = msg["id"]
            conn.send(error)
        finally:
            self._waiting.pop(rid, None)

    async def _forward(self, owner: str, request: dict[str, Any]) -> int:
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

    def tell_revoked(self, player: str, session: str) -> None:
        """Tell every process that device ``session`` of ``player`` was signed out (server/accounts)."""
        self.bus.publish_soon(ALL, {"op": "revoke", "from": self.me, "player": player, "session": session})

    def send_here(self, table: ClusterTable) -> None:
        """Tell the writer who is online here at this table."""
        if not table.writer and table.owner is not None:
            self.bus.publish_soon(inbox(table.owner), {"op": "here", "code": table.code, "from": self.me,
                                                       "players": sorted(table.local_players()),
                                                       "knocks": table.local_knocks()})

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
                knocks = data.get("knocks")
                table.set_remote(str(data["from"]), set(data.get("players", ())),
                                 {str(p): str(n) for p, n in knocks.items()} if isinstance(knocks, dict) else None)
        elif data.get("from") == self.me:
            return
        elif op == "signout" and self.on_signout is not None:
            self.on_signout(str(data["player"]), int(data["gen"]))
        elif op == "revoke" and self.on_revoke is not None:
            self.on_revoke(str(data["player"]), str(data["session"]))


def cluster_parts(db: Database, timing: Timing, limits: Limits, redis_url: str,
                  ) -> tuple[ClusterHub, Lookups, Callable[[LiveTable, Connection, dict[str, Any]], Awaitable[None]]]:
    """The hub, the failed-lookup counter and the message handler of one of many processes."""
    hub = ClusterHub(db, timing, limits, redis_url)
    return hub, hub.lookups, hub.route


def _hosted(state: TableState) -> Hosted:
    """Who created a table Redis does not remember (made before, or forgotten): its host, no address (as a
    table resumed after a restart counts with one process)."""
    return Hosted(state.host, None, searching_bots([state.fill, *(s.bot for s in state.seats)]))

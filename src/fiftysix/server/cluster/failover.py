"""The cluster hub's leases and failover: renewing this process's leases, stepping down to a replica when
one is lost (:meth:`Failover.demote`), becoming a table's writer from its log when its writer is gone
(:meth:`Failover.promote`), picking up tables in play that nobody writes, and keeping the counts of
spectators and open tables alive in Redis.  Part of :class:`.relay.ClusterHub`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Awaitable

from redis.exceptions import RedisError

from ..edge.limits import searching_bots
from ..services import DATABASE, service_of
from ..state.table import MATCH_OVER, TableState
from ..table.hub import Hub
from ..table.live import Connection
from .bus import Bus, inbox, table_channel
from .counters import OPEN_TTL, RENEW_OPEN, WATCH_TTL, Counters, Hosted, SharedQuotas
from .lease import Lease
from .table import ClusterTable

log = logging.getLogger("fiftysix.server")


class Failover(Hub):
    """Leases: who writes which table, and what happens when that changes."""

    me: str
    bus: Bus
    lease: Lease
    counters: Counters
    shared_quotas: SharedQuotas
    tables: dict[str, ClusterTable]     # type: ignore[assignment]
    hosts: dict[str, Hosted]            # the writer's quota bookkeeping: who created a table
    counted_open: set[str]              # ... and whether it counts open in Redis
    _ticks: int
    _tasks: set[asyncio.Task[None]]
    _ids: itertools.count[int]
    _waiting: dict[int, tuple[ClusterTable, Connection, asyncio.Future[bool]]]

    def later(self, work: Awaitable[object]) -> None:
        """Run ``work`` in its own task (kept until it ends)."""
        async def run() -> None:
            try:
                await work
            except Exception:
                log.exception("cluster work failed")
        task = asyncio.create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

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
            hosted = self.hosts.get(t.code) or known.get(t.code) or hosted_of(t.state)
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

    def send_here(self, table: ClusterTable) -> None:
        """Tell the writer who is online here at this table."""
        if not table.writer and table.owner is not None:
            self.bus.publish_soon(inbox(table.owner), {"op": "here", "code": table.code, "from": self.me,
                                                       "players": sorted(table.local_players()),
                                                       "knocks": table.local_knocks()})


def hosted_of(state: TableState) -> Hosted:
    """Who created a table Redis does not remember (made before, or forgotten): its host, no address (as a
    table resumed after a restart counts with one process)."""
    return Hosted(state.host, None, searching_bots([state.fill, *(s.bot for s in state.seats)]))

"""The cluster hub's leases and failover: renewing this process's leases, stepping down to a replica when
one is lost (:meth:`Failover.demote`), becoming a table's writer from its log when its writer is gone
(:meth:`Failover.promote`), picking up tables in play that nobody writes, and keeping the counts of
spectators and open tables alive in Redis.  A part of :class:`.relay.ClusterHub`, handed the hub.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol

from redis.exceptions import RedisError

from ..edge.limits import searching_bots
from ..services import DATABASE, Services, service_of
from ..state.table import MATCH_OVER, TableState
from ..storage.db import Database
from ..table.history import History
from ..table.live import LiveTable
from .bus import Bus, inbox, table_channel
from .counters import OPEN_TTL, RENEW_OPEN, WATCH_TTL, Counters, Hosted, SharedQuotas
from .lease import Lease
from .table import ClusterTable

log = logging.getLogger("fiftysix.server")


class FailoverHost(Protocol):
    """What the leases' part needs of its hub: the process's name, bus, lease, counters and quotas, the tables
    with the writer's quota bookkeeping, the services, the database, and to load and get a table."""

    me: str
    bus: Bus
    lease: Lease
    counters: Counters
    shared_quotas: SharedQuotas
    tables: dict[str, ClusterTable]
    hosts: dict[str, Hosted]            # the writer's quota bookkeeping: who created a table
    counted_open: set[str]              # ... and whether it counts open in Redis
    services: Services
    db: Database

    async def load(self, code: str) -> tuple[TableState, History]: ...
    async def get(self, code: str) -> LiveTable | None: ...


class Failover:
    """Leases: who writes which table, and what happens when that changes (``ticks``: the renewals so far)."""

    def __init__(self, hub: FailoverHost) -> None:
        self.hub = hub
        self.ticks = 0

    async def lease_loop(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception as e:
                if (service := service_of(e)) is None:
                    log.exception("renewing leases failed; trying again")
                else:   # one line a second, not a stack: tables refuse changes until the lease is renewed
                    if service == DATABASE:     # (its probe tells when it is back)
                        self.hub.services.report(service, False)
                    log.warning("renewing leases failed (%s is away); trying again", service)
            await asyncio.sleep(self.hub.lease.renew_every)

    async def tick(self) -> None:
        """Renew this process's leases (stepping down where one was lost), take over replicas whose writer
        is gone, pick up tables in play that nobody writes, and forget people on dead processes."""
        held = {code: t.epoch for code, t in self.hub.tables.items() if t.epoch is not None}
        kept = await self.hub.lease.renew(held)
        for code, epoch in held.items():
            table = self.hub.tables.get(code)
            if code not in kept and table is not None and table.epoch == epoch:
                await self.demote(table)
        replicas = [code for code, t in self.hub.tables.items() if not t.writer]
        for code, epoch in (await self.hub.lease.take(replicas)).items():
            await self.promote(code, epoch)
        for code in await self.hub.lease.orphans(skip=list(self.hub.tables)):
            with contextlib.suppress(Exception):
                await self.hub.get(code)
        if not self.hub.bus.up:     # the leases above live in PostgreSQL: tables written here go on meanwhile
            return
        try:
            processes = sorted({p for t in self.hub.tables.values() if t.writer for p in t.elsewhere.processes()})
            alive = await self.hub.bus.alive(processes)
            for t in list(self.hub.tables.values()):
                for p in [p for p in t.elsewhere.processes() if p not in alive] if t.writer else []:
                    t.set_remote(p, set(), {})
            watching = [p for t in self.hub.tables.values() for p in t.watching.now(t.conns)]
            await self.hub.counters.keep(watching, WATCH_TTL)
            self.ticks += 1
            if self.ticks % RENEW_OPEN == 1:
                await self._count_open()
        except RedisError:
            self.hub.counters.outage.failed("renewing the spectators and open tables")

    async def _count_open(self) -> None:
        """Renew the open tables this process writes in their hosts' quotas (``fs:open``, ``fs:search``); a
        table whose match is over stops counting."""
        writing = [t for t in self.hub.tables.values() if t.writer]
        unknown = [t.code for t in writing if t.code not in self.hub.hosts]
        known = await self.hub.shared_quotas.recall(unknown) if unknown else {}
        keep, drop = [], []
        for t in writing:
            hosted = self.hub.hosts.get(t.code) or known.get(t.code) or hosted_of(t.state)
            self.hub.hosts[t.code] = hosted
            if t.state.status != MATCH_OVER:
                keep.extend(hosted.places(t.code))
                self.hub.counted_open.add(t.code)
            elif t.code in self.hub.counted_open:
                drop.extend(hosted.places(t.code))
                self.hub.counted_open.discard(t.code)
        await self.hub.counters.keep(keep, OPEN_TTL)
        await self.hub.counters.drop(drop)

    async def promote(self, code: str, epoch: int) -> None:
        """Become the writer of a replica whose lease this process just took: the log is the truth."""
        table = self.hub.tables.get(code)
        if table is None or table.writer:
            await self.hub.lease.release(code, epoch)
            return
        async with table.lock:
            self.hub.db.forget_row(code)
            state, history = await self.hub.load(code)
            table.take_over(epoch, state, history)
        await self.hub.bus.unwatch(table_channel(code))
        table.channel.writer(self.hub.me)
        table.tell_host()      # who asks to join here; the replicas tell theirs on hearing of the new writer
        table.start()
        log.warning("table %s: took it over from the log (epoch %d)", code, epoch)

    async def demote(self, table: ClusterTable) -> None:
        """The lease was lost (paused too long, or fenced on append): become a replica."""
        if not table.writer:
            return
        log.warning("table %s: lost its lease (epoch %s); another process writes it now", table.code, table.epoch)
        table.pause()
        await self.hub.bus.watch(table_channel(table.code))
        table.replica.follow(await self.hub.lease.owner(table.code))
        await table.replica.resync()
        self.send_here(table)

    def send_here(self, table: ClusterTable) -> None:
        """Tell the writer who is online here at this table."""
        owner = table.replica.owner
        if not table.writer and owner is not None:
            self.hub.bus.publish_soon(inbox(owner), {"op": "here", "code": table.code, "from": self.hub.me,
                                                     "players": sorted(table.local_players()),
                                                     "knocks": table.door.asking_here()})


def hosted_of(state: TableState) -> Hosted:
    """Who created a table Redis does not remember (made before, or forgotten): its host, no address (as a
    table resumed after a restart counts with one process)."""
    return Hosted(state.host, None, searching_bots([state.fill, *(s.bot for s in state.seats)]))

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
from collections.abc import Awaitable, Callable

from redis.exceptions import RedisError

from ..edge.access import Lookups
from ..edge.limits import Limits, searching_bots
from ..state.table import TableError, TableState, replay_into
from ..state.typed_json import Received
from ..storage.db import Database
from ..table.history import History
from ..table.hub import Hub, creation_event
from ..table.live import Connection, LiveTable, Timing
from ..table.outgoing import Outgoing
from ..table.protocol import Handler
from .bus import Bus, table_channel
from .counters import WATCH_TTL, Counters, Hosted, SharedLookups, SharedQuotas, watch_key
from .failover import Failover, hosted_of
from .forwarding import Forwarding
from .lease import Lease
from .messages import Heard
from .places import SharedPlaces
from .table import ClusterTable

log = logging.getLogger("fiftysix.server")

def process_name() -> str:
    return f"{socket.gethostname()[:40]}-{os.getpid()}-{secrets.token_hex(3)}"


class ClusterHub(Hub):
    """The hub of one of many processes (module docstring): a hub whose tables are written here or followed, with
    two parts of its own, each handed the hub: the leases and failover (``failover``, :class:`.failover.Failover`)
    and the messages between processes (``forwarding``, :class:`.forwarding.Forwarding`)."""

    def __init__(self, db: Database, timing: Timing, limits: Limits, redis_url: str,
                 lease_ttl: float = 3.0) -> None:
        super().__init__(db, timing, limits)
        self.me = process_name()
        self.failover = Failover(self)
        self.forwarding = Forwarding(self)
        self.bus = Bus(redis_url, self.me, self.forwarding.heard, self.services)
        self.bus.on_back = self.forwarding.redis_back
        self.lease = Lease(db, self.me, ttl=lease_ttl, renew_every=lease_ttl / 3)
        self.counters = Counters(self.bus.redis)
        self.places = SharedPlaces(self.bus.redis)
        self.lookups = SharedLookups(limits, self.counters)
        self.shared_quotas = SharedQuotas(limits, self.counters)
        self.tables: dict[str, ClusterTable] = {}   # type: ignore[assignment]  # a hub of clustered tables
        self._watch_ids = itertools.count(1)
        self.early: dict[str, list[Heard]] = {}     # tables being loaded as replicas: their channel's messages
        self._tasks: set[asyncio.Task[None]] = set()
        # the writer's quota bookkeeping, by table code: who created it, and whether it counts open in Redis
        self.hosts: dict[str, Hosted] = {}
        self.counted_open: set[str] = set()
        self._ticker: asyncio.Task[None] | None = None
        self.on_signout: Callable[[str, int], None] | None = None    # the server's: a sign-out elsewhere
        self.on_revoke: Callable[[str, str], None] | None = None     # ... and a device signed out elsewhere
        self.on_forget: Callable[[str], None] | None = None          # ... and an account deleted elsewhere

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

    # -- what the tables and the server call, done by the parts ---------------------------------------------------
    async def demote(self, table: ClusterTable) -> None:
        await self.failover.demote(table)

    def send_here(self, table: ClusterTable) -> None:
        self.failover.send_here(table)

    async def route(self, table: LiveTable, conn: Connection, msg: Received) -> None:
        await self.forwarding.route(table, conn, msg)

    def tell_signout(self, player: str, generation: int) -> None:
        self.forwarding.tell_signout(player, generation)

    def tell_revoked(self, player: str, session: str) -> None:
        self.forwarding.tell_revoked(player, session)

    def tell_forget(self, player: str) -> None:
        self.forwarding.tell_forget(player)

    def tell_elsewhere(self, code: str, player: str, message: Outgoing, seatless: bool) -> None:
        self.forwarding.tell_elsewhere(code, player, message, seatless)
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
            hosted = (await self.shared_quotas.recall([code])).get(code) or hosted_of(table.state)
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
        self._ticker = asyncio.create_task(self.failover.lease_loop(), name="leases")
        return 0

    async def stop(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        held = {code: t.epoch for code, t in self.tables.items() if t.epoch is not None}
        with contextlib.suppress(Exception):    # this process's spectators stop counting at once
            await self.counters.drop([p for t in self.tables.values() for p in t.watching.now(t.conns)])
        await super().stop()
        for code, epoch in held.items():    # others take these over at once instead of after the lease
            with contextlib.suppress(Exception):
                await self.lease.release(code, epoch)
        await self.bus.stop()

    async def _bring(self, code: str) -> LiveTable:
        """:meth:`Hub._bring` as this table's writer if its lease is free, else as a replica of its writer."""
        epoch = (await self.lease.take([code])).get(code)
        if epoch is None:       # a replica: listen first, so no event falls between the log and the channel
            self.early[code] = []
            await self.bus.watch(table_channel(code))
        try:
            state, history = await self.load(code)
        except Exception:
            if epoch is None:
                self.early.pop(code, None)
                await self.bus.unwatch(table_channel(code))
            raise
        if epoch is not None:
            self.db.forget_row(code)
        owner = await self.lease.owner(code) if epoch is None else None
        table = ClusterTable(self, state, history, epoch, owner)
        # no await from here until Hub.get has registered the table: a message on its channel goes to
        # _early or to the table, never nowhere
        for data in self.early.pop(code, []):
            table.replica.receive(data)
        if epoch is not None:
            log.info("table %s: writing it here (epoch %d)", code, epoch)
        return table

    async def create(self, host: str, host_name: str, form: Received, address: str | None = None,
                     event: str | None = None) -> LiveTable:
        """:meth:`Hub.create` with the quotas counted in Redis (``fs:made``, ``fs:open``, ``fs:search``).

        :raises TableError: for a form the rules or the server refuse.
        :raises QuotaError: when the host or their address is over a quota, on all processes together.
        """
        created = creation_event(host, host_name, form, event)
        searching = searching_bots([created.fill])
        async with self._loading:
            code = await self._new_code()
            hosted = await self.shared_quotas.check_create(code, host, address, searching, personal=event is None)
            state = TableState(code)
            stored = state.apply_event(created).to_json()
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

    async def lobbies_elsewhere(self, limit: int) -> list[tuple[float, TableState]]:
        """The lobbies other processes hold (a live lease, status ``lobby`` in their rows), each replayed from its
        short log in one query: the list of open tables shows every process's."""
        return await self._replayed(await self.lease.lobbies(skip=self.tables, limit=limit))

    async def open_elsewhere(self, codes: list[str]) -> list[tuple[float, TableState]]:
        """Which of ``codes`` (a club's few tables) other processes hold open, each replayed from its log."""
        return await self._replayed(await self.lease.open_of(c for c in codes if c not in self.tables))

    async def _replayed(self, found: list[tuple[str, float]]) -> list[tuple[float, TableState]]:
        """The tables ``found`` (code, last change) as their logs, read in one query, replay them."""
        logs = await self.db.events_of_tables([code for code, _ in found])
        states = []
        for code, active in found:
            state = TableState(code)
            try:
                for event in logs[code]:
                    replay_into(state, event)
            except TableError:
                log.exception("table %s: its log does not replay; not listed", code)
                continue
            states.append((active, state))
        return states

    async def in_use(self) -> set[str]:
        """A table leased anywhere is in use, not only this process's."""
        return set(self.tables) | await self.lease.leased()


def cluster_parts(db: Database, timing: Timing, limits: Limits, redis_url: str,
                  ) -> tuple[ClusterHub, Lookups,
                             Handler]:
    """The hub, the failed-lookup counter and the message handler of one of many processes."""
    hub = ClusterHub(db, timing, limits, redis_url)
    return hub, hub.lookups, hub.route

"""A table across processes: this process's to write (it holds the lease) or a replica of another's.

The writer runs the table as one process does and publishes each stored event once, with who is online; a
replica applies the published events to its own copy of the state and renders its own viewers' views from it,
and tells the writer who is online through it.  See :mod:`.relay` for the hub that moves tables between the two.
"""

from __future__ import annotations

import logging
import time
from dataclasses import fields
from typing import TYPE_CHECKING, Protocol

from ...core.meaning import N_
from ..state.events import Event
from ..state.table import DEAL_OVER, TableError, TableState
from ..storage.attached import Attached
from ..storage.db import Fenced
from ..table.history import History
from ..table.live import Connection, LiveTable, NotStored, spectators_refusal
from ..table.messages import Presence, snapshot
from ..table.outgoing import Outgoing
from .bus import Bus, Heard, inbox, table_channel
from .counters import watch_key
from .replica import Replica

if TYPE_CHECKING:
    from collections.abc import Awaitable

    from ..edge.limits import Limits
    from ..storage.db import Database
    from ..table.live import Timing
    from .counters import Counters
    from .lease import Lease


class TableHost(Protocol):
    """What a clustered table needs of its process's hub (``relay.ClusterHub``): its services, the lease, the bus,
    and a few calls back.  A protocol, so that this module does not import the hub that imports it."""

    db: Database
    timing: Timing
    limits: Limits
    me: str
    lease: Lease
    bus: Bus
    counters: Counters

    def later(self, work: Awaitable[object]) -> None: ...
    async def demote(self, table: ClusterTable) -> None: ...
    def watch_member(self) -> str: ...
    async def count_watcher(self, code: str, member: str, most: int) -> int | None: ...
    def send_here(self, table: ClusterTable) -> None: ...
    async def load(self, code: str) -> tuple[TableState, History]: ...
    async def check_search(self, code: str, bot: str) -> None: ...
    async def board_seed(self, code: str, deal: int) -> int | None: ...
    async def deal_finished(self, code: str, deal: int, result: dict[str, object], standings: list[int]) -> None: ...
    def finishing_writes(self, state: TableState, played: list[int]) -> list[Attached]: ...

log = logging.getLogger("fiftysix.server")


class Relayed(Connection):
    """The writer's stand-in for a connection on another process: what it is sent goes back over Redis."""

    def __init__(self, bus: Bus, origin: str, rid: int, player: str | None) -> None:
        super().__init__(player)
        self.bus, self.origin, self.rid = bus, origin, rid

    def send(self, message: Outgoing | dict[str, object] | None) -> None:
        if isinstance(message, Outgoing):
            message = message.to_json()
        if message is not None:
            self.bus.publish_soon(inbox(self.origin), {"op": "reply", "rid": self.rid, "msg": message})


class ClusterTable(Replica):
    """A table that is either this process's to write (``epoch`` set) or a replica of another's."""

    hub: TableHost

    def __init__(self, hub: TableHost, state: TableState, history: History, epoch: int | None,
                 owner: str | None = None) -> None:
        code = state.code
        super().__init__(hub.db, state, history, hub.timing, hub.limits,
                         check_bot=lambda bot: hub.check_search(code, bot),
                         deal_seed=lambda n: hub.board_seed(code, n),      # a club night's boards (server/nights)
                         deal_done=lambda n, result, standings: hub.deal_finished(code, n, result, standings),
                         finishing=hub.finishing_writes)
        self.hub = hub
        self.epoch = epoch
        self.owner: str | None = hub.me if epoch is not None else owner
        self.remote: dict[str, set[str]] = {}     # the writer's: process -> its people online here
        self.later: list[tuple[int, Connection, dict[str, object]]] = []    # answers waiting for their event
        self.early: list[Heard] | None = None    # events arriving while the log is read again
        self.remote_knocks: dict[str, dict[str, str]] = {}   # the writer's: process -> who asks to join there
        self.shared_knocks: dict[str, str] = {}      # a replica's: everyone asking, as the writer published it
        self.watching: dict[Connection, str] = {}    # connections without a seat here -> their fs:watch member

    def start(self) -> None:
        if self.writer:
            super().start()

    def _update_clock(self) -> None:
        # the turn clock runs on the writer only; replicas show what its published presence says
        if self.writer:
            super()._update_clock()

    def follow(self, owner: str | None) -> None:
        """The process that writes this table now, as the lease says (a replica forwards changes to it)."""
        if not self.writer:
            self.owner = owner

    def take_over(self, epoch: int, state: TableState, history: History) -> None:
        """Become the writer (the caller holds the lock and the lease of ``epoch``), with the state read from
        the log: viewers get a full state if it moved on since this replica's copy, answers waiting for an
        event are sent."""
        self.epoch, self.owner = epoch, self.hub.me
        if state.version != self.state.version:
            self.state, self.history = state, history
            for conn in list(self.conns):
                conn.send(snapshot(self.state, self.presence, conn.player))
        self.presence.online = self.local_players()
        self.remote, self.remote_knocks = {}, {}
        self._answer_later()

    def announce(self) -> None:
        """The writer, after Redis was away: tell the replicas who is here and the host who asks to join."""
        self.broadcast_presence()
        self.tell_host()

    def pause(self) -> None:
        """Stop being the writer here: no computer players, no drop timers (the connections stay)."""
        self.epoch = None
        self.remote_knocks, self.shared_knocks = {}, {}
        for timer in self.drop_timers.values():
            timer.cancel()
        self.drop_timers.clear()
        if self.task is not None:
            self.task.cancel()
            self.task = None

    def here(self) -> None:
        self.hub.send_here(self)

    def local_players(self) -> set[str]:
        return {c.player for c in self.conns if c.player is not None}

    # -- the writer ------------------------------------------------------------------------------------
    async def commit(self, event: Event) -> None:
        if not self.writer:
            raise TableError("this table moved to another server just now; please try again")
        if not self.hub.lease.holds(self.code):     # not renewed in time (the database away): may be another's now
            raise NotStored(N_("the server could not save that just now; please try again"))
        try:
            await super().commit(event)
        except TableError as e:
            if isinstance(e.__context__, Fenced):
                self.hub.later(self.hub.demote(self))
            raise
        self.hub.bus.publish_soon(table_channel(self.code), {"op": "event", "v": self.state.version,
                                                             "e": self.history.events[-1], "p": self._who()})

    async def reload(self) -> None:
        """:meth:`LiveTable.reload`, and every replica reads the log again too (they applied the events the log
        lost, as published)."""
        await super().reload()
        if self.writer:
            self.hub.bus.publish_soon(table_channel(self.code), {"op": "reread"})

    def _who(self) -> dict[str, object]:
        return {f.name: sorted(v) if isinstance(v := getattr(self.presence, f.name), set) else v
                for f in fields(Presence)}

    def broadcast_presence(self) -> None:
        super().broadcast_presence()
        if self.writer:
            self.hub.bus.publish_soon(table_channel(self.code), {"op": "presence", "p": self._who()})

    def online_elsewhere(self, player: str) -> bool:
        return any(player in players for players in self.remote.values())

    def set_remote(self, process: str, players: set[str], knocks: dict[str, str] | None = None) -> None:
        """The writer hears who is online at ``process`` (people coming and going count as here) and, with
        ``knocks``, who asks to join there."""
        if knocks is not None and knocks != self.remote_knocks.get(process, {}):
            if knocks:
                self.remote_knocks[process] = knocks
            else:
                self.remote_knocks.pop(process, None)
            self.tell_host()
        before = set(self.presence.online)
        if players:
            self.remote[process] = players
        else:
            self.remote.pop(process, None)
        for p in players - before:
            super()._came_back(p)
        gone = before - self.local_players() - set().union(*self.remote.values())
        for p in gone:
            self.presence.online.discard(p)
            if self.state.seat_of(p) is not None:
                super()._schedule_drop(p)
        if gone:
            self._send_presence()

    # -- connections on either ---------------------------------------------------------------------------
    async def connect(self, conn: Connection, since: int | None) -> bool:
        """:meth:`LiveTable.connect`, with the spectator limit counted on every process (``fs:watch:<code>``).

        :raises TableError: when the table has as many spectators as it may, on all processes together.
        """
        if self.state.seat_of(conn.player) is None:     # counted as one process counts them (``watchers``)
            host = conn.player == self.state.host
            member = self.hub.watch_member()
            most = self.limits.spectators
            full = await self.hub.count_watcher(self.code, member, 1 << 30 if host else most)
            if full is not None:
                raise TableError(spectators_refusal(full, most))
            self.watching[conn] = member
        try:
            connected = await super().connect(conn, since)
        except BaseException:
            self.unwatch(conn)
            raise
        if not connected:
            self.unwatch(conn)
        return connected

    def unwatch(self, conn: Connection) -> None:
        member = self.watching.pop(conn, None)
        if member is not None:
            self.hub.later(self.hub.counters.drop([(watch_key(self.code), member)]))

    def watchers_now(self) -> list[tuple[str, str]]:
        """This process's connections without a seat, as ``fs:watch`` members (who sat down stops counting,
        who stood up starts)."""
        current = {c for c in self.conns if self.state.seat_of(c.player) is None}
        for conn in [c for c in self.watching if c not in current]:
            self.unwatch(conn)
        for conn in current - set(self.watching):
            self.watching[conn] = self.hub.watch_member()
        return [(watch_key(self.code), member) for member in self.watching.values()]

    def disconnect(self, conn: Connection) -> None:
        self.unwatch(conn)
        if not self.writer or (conn.player is not None and self.online_elsewhere(conn.player)):
            if conn in self.conns:
                self.last_active = time.time()
            self.conns.discard(conn)
            if not self.writer:
                self.here()
            return
        super().disconnect(conn)

    def _came_back(self, player: str) -> None:
        if self.writer:
            super()._came_back(player)
        else:
            self.here()

    def _schedule_drop(self, player: str) -> None:
        if self.writer:
            super()._schedule_drop(player)

    def pending_action(self) -> tuple[str, int] | None:
        pending = super().pending_action()
        if pending is None and self.writer and not self.conns and any(self.remote.values()) \
                and self.state.status == DEAL_OVER:     # people watching elsewhere: the table goes on
            seated = [s.player for s in self.state.seats if s.player is not None]
            if not any(p in self.presence.online for p in seated):
                return ("next", -1)
        return pending

    def idle_for(self, now: float) -> float:
        if self.writer:
            return super().idle_for(now)
        return 0.0 if self.conns or self.lock.locked() else max(0.0, now - self.last_active)

    def send_all(self, message: Outgoing | dict[str, object]) -> None:
        super().send_all(message)
        if self.writer:     # the viewers on other processes too
            sent = message.to_json() if isinstance(message, Outgoing) else message
            self.hub.bus.publish_soon(table_channel(self.code), {"op": "say", "m": sent})

    # -- asking to join a private table: the writer gathers who asks on every process -------------------------
    def asking(self) -> dict[str, str]:
        merged: dict[str, str] = {}
        if self.writer:
            for knocks in self.remote_knocks.values():
                merged.update(knocks)
        else:
            merged.update(self.shared_knocks)
        merged.update(super().asking())
        return merged

    def local_knocks(self) -> dict[str, str]:
        return LiveTable.asking(self)

    def tell_host(self) -> None:
        super().tell_host()        # the host's connections here
        if self.writer:             # ... and on every other process
            self.hub.bus.publish_soon(table_channel(self.code), {"op": "knocks", "k": self.asking()})
        else:
            self.here()

    def answer_knock(self, player: str, admitted: bool) -> None:
        """The writer's answer goes to whoever asked, on whichever process they wait."""
        if self.writer:
            for knocks in self.remote_knocks.values():
                knocks.pop(player, None)
            self.hub.bus.publish_soon(table_channel(self.code),
                                      {"op": "answer", "player": player, "admitted": admitted})
        super().answer_knock(player, admitted)

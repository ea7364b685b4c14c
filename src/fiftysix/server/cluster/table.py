"""A table across processes: this process's to write (it holds the lease) or a replica of another's.

The writer runs the table as one process does and publishes each stored event once, with who is online; a
replica applies the published events to its own copy of the state and renders its own viewers' views from it,
and tells the writer who is online through it.  See :mod:`.relay` for the hub that moves tables between the two.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Protocol

from ...core.meaning import N_
from ..services import ServiceMessage
from ..state.events import Event
from ..state.table import DEAL_OVER, TableError, TableState
from ..state.typed_json import Received
from ..storage.attached import Attached
from ..storage.db import Fenced
from ..table.history import History
from ..table.live import Connection, LiveTable, NotStored
from ..table.messages import Presence, Snapshot
from ..table.outgoing import Outgoing
from ..table.presence import holds_place
from .bus import Bus, inbox
from .channel import Channel
from .remote import Elsewhere
from .replica import Replica
from .watching import Watching

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
    async def deal_finished(self, code: str, deal: int, standings: list[int]) -> None: ...
    def finishing_writes(self, state: TableState, played: list[int]) -> list[Attached]: ...

log = logging.getLogger("fiftysix.server")


class Relayed(Connection):
    """The writer's stand-in for a connection on another process: what it is sent goes back over Redis."""

    def __init__(self, bus: Bus, origin: str, rid: int, player: str | None) -> None:
        super().__init__(player)
        self.bus, self.origin, self.rid = bus, origin, rid

    def send(self, message: Outgoing | Snapshot | ServiceMessage | dict[str, object] | None) -> None:
        if isinstance(message, Outgoing):
            message = message.to_json()
        elif message is not None:
            message = dict(message)
        if message is not None:
            self.bus.publish_soon(inbox(self.origin), {"op": "reply", "rid": self.rid, "msg": message})


class ClusterTable(LiveTable):
    """A table that is either this process's to write (``epoch`` set) or a replica of another's: a live table
    with three parts of its own, each handed what it needs: the replica's side (``replica``, following the
    writer's channel), the writer's record of the other processes (``elsewhere``) and the spectators counted on
    every process (``watching``)."""

    def __init__(self, hub: TableHost, state: TableState, history: History, epoch: int | None,
                 owner: str | None = None) -> None:
        code = state.code
        super().__init__(hub.db, state, history, hub.timing, hub.limits,
                         check_bot=lambda bot: hub.check_search(code, bot),
                         deal_seed=lambda n: hub.board_seed(code, n),      # a club night's boards (server/nights)
                         deal_done=lambda n, standings: hub.deal_finished(code, n, standings),
                         finishing=hub.finishing_writes)
        self.hub = hub
        self.epoch = epoch
        self.replica = Replica(self, hub, hub.me if epoch is not None else owner)
        self.elsewhere = Elsewhere()
        self.watching = Watching(hub, code, lambda: self.state, self.limits.spectators)
        self.channel = Channel(hub.bus, code)
        self.door.elsewhere = ClusterKnocks(self)

    @property
    def writer(self) -> bool:
        return self.epoch is not None

    def start(self) -> None:
        if self.writer:
            super().start()

    def update_clock(self) -> None:
        # the turn clock runs on the writer only; replicas show what its published presence says
        if self.writer:
            super().update_clock()

    def show(self, presence: Presence, event: Received | None = None) -> None:
        """A replica's viewers shown the writer's presence, with the event it published (applied to the state)."""
        self.presence = presence
        if event is None:
            self.presences.broadcast_here()
            return
        self.history.append(event)
        self.last_active = time.time()
        self.send_change(event)

    def take_over(self, epoch: int, state: TableState, history: History) -> None:
        """Become the writer (the caller holds the lock and the lease of ``epoch``), with the state read from
        the log: viewers get a full state if it moved on since this replica's copy, answers waiting for an
        event are sent."""
        self.epoch, self.replica.owner = epoch, self.hub.me
        self.adopt(state, history, always=False)
        self.presence.online = self.local_players()
        self.elsewhere.clear()
        self.replica.answer_later()

    def pause(self) -> None:
        """Stop being the writer here: no computer players, no drop timers (the connections stay)."""
        self.epoch = None
        self.elsewhere.knocks, self.replica.shared_knocks = {}, {}
        self.presences.cancel_drops()
        self.computers.cancel()

    def here(self) -> None:     # who is online here, to the writer
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
        self.channel.event(self.state.version, self.history.events[-1], self.presence)

    async def reload(self) -> None:
        """:meth:`LiveTable.reload`, and every replica reads the log again too (they applied the events the log
        lost, as published)."""
        await super().reload()
        if self.writer:
            self.channel.reread()

    def broadcast_presence(self) -> None:
        super().broadcast_presence()
        if self.writer:
            self.channel.presence(self.presence)

    def set_remote(self, process: str, players: set[str], knocks: dict[str, str] | None = None) -> None:
        """The writer hears who is online at ``process`` (people coming and going count as here) and, with
        ``knocks``, who asks to join there."""
        if knocks is not None and self.elsewhere.set_knocks(process, knocks):
            self.tell_host()
        came, gone = self.elsewhere.heard(process, players, set(self.presence.online), self.local_players())
        for p in came:
            super().came_back(p)
        for p in gone:
            self.presence.online.discard(p)
            if holds_place(self.state, p):
                super().schedule_drop(p)
        if gone:
            self.presences.send_presence()

    # -- connections on either ---------------------------------------------------------------------------
    async def connect(self, conn: Connection, since: int | None) -> bool:
        """:meth:`LiveTable.connect`, with the spectator limit counted on every process (``fs:watch:<code>``).

        :raises TableError: when the table has as many spectators as it may, on all processes together.
        """
        return await self.watching.counted(conn, lambda: LiveTable.connect(self, conn, since))

    def disconnect(self, conn: Connection) -> None:
        self.watching.uncount(conn)
        if not self.writer or (conn.player is not None and self.elsewhere.online(conn.player)):
            if conn in self.conns:
                self.last_active = time.time()
            self.conns.discard(conn)
            if not self.writer:
                self.here()
            return
        super().disconnect(conn)

    def came_back(self, player: str) -> None:
        if self.writer:
            super().came_back(player)
        else:
            self.here()

    def schedule_drop(self, player: str) -> None:
        if self.writer:
            super().schedule_drop(player)

    def pending_action(self) -> tuple[str, int] | None:
        pending = super().pending_action()
        if pending is None and self.writer and not self.conns and self.elsewhere.anyone() \
                and self.state.status == DEAL_OVER:     # people watching elsewhere: the table goes on
            seated = [s.player for s in self.state.seats if s.player is not None]
            if not any(p in self.presence.online for p in seated):
                return ("next", -1)
        return pending

    def idle_for(self, now: float) -> float:
        if self.writer:
            return super().idle_for(now)
        return 0.0 if self.conns or self.lock.locked() else max(0.0, now - self.last_active)

    def send_all(self, message: Outgoing) -> None:
        super().send_all(message)
        if self.writer:     # the viewers on other processes too
            self.channel.say(message.to_json())


class ClusterKnocks:
    """Who asks to join on the other processes (the door's ``elsewhere``): the writer gathers them from every
    process and publishes the list and the host's answers; a replica shows the list the writer published and tells
    the writer who asks here."""

    def __init__(self, table: ClusterTable) -> None:
        self.table = table

    def asking(self) -> dict[str, str]:
        return self.table.elsewhere.asking() if self.table.writer else dict(self.table.replica.shared_knocks)

    def told(self, asking: dict[str, str]) -> None:
        if self.table.writer:
            self.table.channel.knocks(asking)
        else:
            self.table.here()

    def answered(self, player: str, admitted: bool) -> None:
        if self.table.writer:
            self.table.elsewhere.answered(player)
            self.table.channel.answer(player, admitted)

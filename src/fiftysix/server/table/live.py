"""A live table: one writer, its connections, its computer players and who is online.

Every change goes through :meth:`LiveTable.commit` under the table's lock: the rules check it (through
:class:`~fiftysix.server.state.table.TableState`), it is written to the database, the version goes up, and then each
connection is sent its own message.  Nothing is sent for a change that is not stored.

Memory stays flat over a table's life: the current state and a bounded :class:`~.history.History` of
recent events; each connection's queue of unsent messages is bounded too (a client that falls that far
behind is dropped, and gets a fresh ``state`` when it comes back).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from ...core.meaning import N_, Meaning
from ..edge.limits import INLINE_BOTS, Buckets, Limits
from ..services import service_of
from ..state import events as ev
from ..state.table import TableError, TableState
from ..state.typed_json import Received
from ..storage.attached import Attached
from ..storage.db import Database, LogGap
from .bots import ComputerPlayers, NotStored, default_bot
from .clock import TurnClock
from .connection import Connection
from .deal_links import DealDone, DealLinks, DealSeed, Finishing
from .history import History
from .knocks import Knocking
from .messages import Presence, snapshot, table_info
from .outgoing import Outgoing, Synced
from .presence import Presences, holds_place
from .timing import Timing

log = logging.getLogger("fiftysix.server")

__all__ = ["INLINE_BOTS", "Connection", "DealDone", "DealSeed", "Finishing", "LiveTable", "NotStored", "Timing",
           "default_bot"]



def spectators_refusal(count: int, most: int) -> Meaning:
    """A viewer over a table's spectator limit (one sentence for both the single and the clustered table)."""
    return Meaning(N_("this table has {count} spectators, the most allowed ({most}); try again later"),
                   {"count": count, "most": most})

async def read_log(db: Database, code: str, replay_limit: int) -> tuple[TableState, History]:
    """A stored table's state and its recent events (at most ``replay_limit``), from its log.

    :raises TableError: if the log does not replay (a corrupt database).
    """
    count = await db.events_count(code)
    return await History.load_stream(code, count, db.stream_events(code), replay_limit)


BotCheck = Callable[[str], Awaitable[None] | None]
"""The hub's quota on searching computer players, given the bot's name (a coroutine with many processes:
counted in Redis); raises :class:`~fiftysix.server.edge.limits.QuotaError`."""


class LiveTable:
    """A table in this process: its state and history, its connections and presence, its clock; the asking at
    its door (``door``, :class:`~.knocks.Knocking`), its computer players (``computers``,
    :class:`~.bots.ComputerPlayers`) and the grace of who went (``presences``, :class:`~.presence.Presences`) are
    parts with their own state, each handed the table."""

    def __init__(self, db: Database, state: TableState, history: History, timing: Timing,
                 limits: Limits | None = None, check_bot: BotCheck | None = None,
                 deal_seed: DealSeed | None = None, deal_done: DealDone | None = None,
                 finishing: Finishing | None = None) -> None:
        self.db = db
        self.links = DealLinks(deal_seed, finishing, deal_done)
        self.limits = limits or Limits()
        self.renames = Buckets(self.limits.renames_per_hour / 3600, self.limits.renames_per_hour, keep=1000)
        self.reaction_limit = Buckets(self.limits.reactions_per_minute / 60, self.limits.reaction_burst, keep=1000)
        # seat and host changes (protocol.CHANGES) are logged: limited per member and for the whole table
        self.changes = Buckets(self.limits.changes_per_minute / 60, self.limits.change_burst, keep=1000)
        self.table_changes = Buckets(self.limits.table_changes_per_minute / 60, self.limits.table_change_burst)
        self.clock = TurnClock(self._clock_ran_out)
        # the hub's quota on searching computer players (a coroutine with many processes: counted in Redis)
        self.check_bot = check_bot
        self.state = state
        self.history = history
        self.timing = timing
        self.last_active = time.time()      # the last change or connection (wall clock: it goes to the db)
        self.closed = False                 # unloaded from memory: a new LiveTable serves the code
        self.lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        self.presence = Presence()
        self.wake = asyncio.Event()
        self.epoch: int | None = None       # the lease's fencing epoch with many processes (cluster/relay.py)
        self.door = Knocking(self)
        self.computers = ComputerPlayers(self)
        self.presences = Presences(self)

    @property
    def code(self) -> str:
        return self.state.code

    def start(self) -> None:
        """Begin driving the computer players; seated people count as dropped until they connect."""
        self.expect_seated()
        self.computers.start()
        self.update_clock()
        self.wake.set()

    def expect_seated(self) -> None:
        """:meth:`.presence.Presences.expect_seated` (at the start, and after the server seated people itself)."""
        self.presences.expect_seated()

    async def stop(self) -> None:
        self.presences.cancel_drops()
        self.clock.stop()
        await self.computers.stop()
        for conn in list(self.conns):
            conn.send(None)

    # -- the one writer -------------------------------------------------------------------------------
    async def submit(self, event: ev.Event) -> None:
        """Check, store and broadcast one change.

        :raises TableError: when the table or the rules refuse it (nothing changes then).
        """
        async with self.lock:
            await self.commit(event)

    async def commit(self, event: ev.Event) -> None:
        """:meth:`submit` for a caller that holds the lock."""
        before = self.state.deals_count
        played = self.state.deal_seats()        # before: a 56 team that runs out leaves the next deal
        stored = self.state.apply_event(self.clock.stamp(event, self.state)).to_json()
        finished = None
        attached: tuple[Attached, ...] = ()
        f = self.state.last_finished
        if self.state.deals_count > before and f is not None:
            finished = (f.number, f.record, f.result)
            attached = self.links.writes(self.state, played)
        try:
            await self.db.append(self.code, self.state.version, stored, self.state.status, finished, self.epoch,
                                 attached)
        except LogGap as e:     # the log lost events this table had stored: the log is the truth
            log.error("table %s: %s; reading the table from its log again", self.code, e)
            await self.reload()
            raise NotStored(N_("the table was read again from the server's records; please make your move "
                               "again")) from None
        except Exception as e:
            if service_of(e) is None:
                log.exception("table %s: could not store event %s", self.code, self.state.version)
            else:
                log.warning("table %s: could not store event %s: %s", self.code, self.state.version, e)
            self.state = self.history.rebuild()    # back to what the database holds (all of it was stored)
            raise NotStored(N_("the server could not save that just now; please try again")) from None
        self.history.append(stored)
        self.presences.seated(event)
        if finished is not None:
            await self.links.report(self.state, finished[0])
        self.last_active = time.time()
        self.update_clock()
        self.send_change(stored)
        self.presences.flush_presence()
        self.wake.set()

    def send_change(self, stored: Received) -> None:
        """The stored event ``stored``, to every viewer with their view of the state after it."""
        info = table_info(self.state, self.presence)     # the same for every viewer
        for conn in list(self.conns):
            conn.send(snapshot(self.state, self.presence, conn.player, stored, info))

    async def reload(self) -> None:
        """Read the state again from the stored log (the caller holds the lock) and send every viewer a full
        state.  If the database cannot be read now, the state of the recent history stands (the next change
        finds out again)."""
        try:
            state, history = await read_log(self.db, self.code, self.timing.replay_limit)
        except Exception:
            log.exception("table %s: reading the log again failed", self.code)
            self.state = self.history.rebuild()
            return
        self.adopt(state, history)

    def adopt(self, state: TableState, history: History, always: bool = True) -> None:
        """The state read from the log (unless it is at this table's version and not ``always``): the clock follows
        it, and every viewer gets it whole."""
        if always or state.version != self.state.version:
            self.state, self.history = state, history
            self.update_clock()
            for conn in list(self.conns):
                conn.send(snapshot(self.state, self.presence, conn.player))

    # -- connections ----------------------------------------------------------------------------------
    async def connect(self, conn: Connection, since: int | None) -> bool:
        """Register a connection and send it what it needs: a full state, or exactly the events after
        version ``since`` when the history still holds them all; with the ids of its person's recent moves
        that were applied.  ``False`` (nothing done) when the table has been unloaded meanwhile: ask the hub
        for it again.

        :raises TableError: when the table has as many spectators as it may and ``conn`` would be one more
            (seated people and the host always get in).
        """
        async with self.lock:
            if self.closed:
                return False
            seated_or_host = holds_place(self.state, conn.player or "") or conn.player == self.state.host
            if not seated_or_host and self.watchers() >= self.limits.spectators:
                raise TableError(spectators_refusal(self.watchers(), self.limits.spectators))
            self.conns.add(conn)
            self.last_active = time.time()
            current = self.state.version
            applied = list(self.state.move_ids.get(conn.player or "", {}))
            if since is not None and since > 0 and self.history.covers(since):
                for past, e in self.history.replay_since(since):
                    conn.send(snapshot(past, self.presence, conn.player, e))
                conn.send(Synced(current, tuple(applied)))
            else:
                full = snapshot(self.state, self.presence, conn.player)
                full["applied"] = applied
                conn.send(full)
            if conn.player is not None:
                self.came_back(conn.player)
                if conn.player == self.state.host and self.asking():
                    conn.send(self.door.knock_list())
            self.presences.flush_presence()
            self.wake.set()     # a table that paused with no one there goes on
            return True

    def send_all(self, message: Outgoing) -> None:
        """A message for every viewer that is not a change of the table (a reaction)."""
        for conn in list(self.conns):
            conn.send(message)

    def watchers(self) -> int:
        """Open connections of people without a seat here."""
        return sum(1 for c in self.conns if self.state.seat_of(c.player) is None)

    def disconnect(self, conn: Connection) -> None:
        """Forget a connection (synchronous: it also runs while the connection's task is being cancelled)."""
        if conn in self.conns:
            self.last_active = time.time()
        self.conns.discard(conn)
        if conn.player is not None and not any(c.player == conn.player for c in self.conns):
            self.presences.went(conn.player)

    # -- what a clustered table changes of the parts' steps (cluster/table.py) --------------------------------
    def came_back(self, player: str) -> None:
        self.presences.came_back(player)

    def schedule_drop(self, player: str) -> None:
        self.presences.schedule_drop(player)

    def broadcast_presence(self) -> None:
        self.presences.broadcast_here()

    def pending_action(self) -> tuple[str, int] | None:
        """What the table does next by itself: a claim given up (``lapsing``), or the computers' next action."""
        return self.presences.lapsing() or self.computers.next_action()

    def answer_knock(self, player: str, admitted: bool) -> None:
        self.door.answer_knock(player, admitted)

    def asking(self) -> dict[str, str]:
        """Everyone asking to be let in (player -> the name they gave); with many processes, on any of them."""
        return self.door.asking()

    def tell_host(self) -> None:
        self.door.tell_host()

    # -- the turn clock (server/table/clock.py) -------------------------------------------------------------
    def update_clock(self) -> None:
        if self.state.clock is None:
            return
        seat = self.state.to_move_table_seat()
        person = seat is not None and self.computers.bot_for(seat, clock=False) is None
        self.clock.update(self.state, seat if person else None)
        self.presence.clock = self.clock.info

    def _clock_ran_out(self) -> None:
        """The person to move is out of time: their computer player makes this move."""
        self.presence.clock = self.clock.info
        self.wake.set()

    async def close_if_idle(self) -> bool:
        """Mark the table closed (its hub takes it out of memory) unless someone is here or its computers have
        something to do; a connection arriving after this finds it closed and loads the table again."""
        async with self.lock:
            if self.conns or self.pending_action() is not None:
                return False
            self.closed = True
            return True

    def idle_for(self, now: float) -> float:
        """Seconds this table has had nothing to do and no connection (0 while it is busy)."""
        if self.conns or self.lock.locked() or self.presences.drop_timers or self.pending_action() is not None:
            return 0.0
        return max(0.0, now - self.last_active)

    async def next_seed(self) -> tuple[int, bool]:
        """:meth:`.deal_links.DealLinks.next_seed`."""
        return await self.links.next_seed(self.state)

    async def next_start(self) -> tuple[int, int]:
        """:meth:`.deal_links.DealLinks.next_start`."""
        return await self.links.next_start(self.state)

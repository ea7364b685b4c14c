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
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from ...core.meaning import N_, Meaning
from ..edge.limits import INLINE_BOTS, Buckets, Limits
from ..services import service_of
from ..state import events as ev
from ..state.dealing import board_dealer
from ..state.table import TableError, TableState
from ..storage.attached import Attached
from ..storage.db import Database, LogGap
from .bots import ComputerPlayers, NotStored, default_bot
from .clock import TurnClock
from .connection import Connection
from .history import History
from .knocks import Knocking
from .messages import Presence, snapshot, table_info
from .outgoing import Outgoing, Synced
from .presence import Presences
from .timing import Timing

if TYPE_CHECKING:
    from ...bots.base import Bot

log = logging.getLogger("fiftysix.server")

__all__ = ["INLINE_BOTS", "Connection", "LiveTable", "NotStored", "Timing", "default_bot"]



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


DealSeed = Callable[[int], Awaitable[int | None]]
"""The seed a table must deal as its ``n``-th deal, or ``None`` (any seed): a club night's board (server/nights)."""

Finishing = Callable[[TableState, list[int]], Sequence[Attached]]
"""Told as a deal finishes, before its event is stored (the state after it, the table seats that played it):
what to write in the event's transaction (a finished deal's people, the match it ended and its rating:
server/matches subscribes)."""

DealDone = Callable[[int, dict[str, object], list[int]], Awaitable[None]]
"""Told after a finished deal is stored: its number, its result, the standings (a club night's board, server/nights)."""

BotCheck = Callable[[str], Awaitable[None] | None]
"""The hub's quota on searching computer players, given the bot's name (a coroutine with many processes:
counted in Redis); raises :class:`~fiftysix.server.edge.limits.QuotaError`."""


class LiveTable(Knocking, ComputerPlayers, Presences):
    """A table in this process: its state and history, its connections and presence, its clock; the asking at
    its door (:class:`~.knocks.Knocking`), its computer players (:class:`~.bots.ComputerPlayers`) and
    who is here (:class:`~.presence.Presences`) are parts of their own."""

    def __init__(self, db: Database, state: TableState, history: History, timing: Timing,
                 limits: Limits | None = None, check_bot: BotCheck | None = None,
                 deal_seed: DealSeed | None = None, deal_done: DealDone | None = None,
                 finishing: Finishing | None = None) -> None:
        self.db = db
        self.deal_seed, self.deal_done, self.finishing = deal_seed, deal_done, finishing
        self.limits = limits or Limits()
        self.renames = Buckets(self.limits.renames_per_hour / 3600, self.limits.renames_per_hour, keep=1000)
        self.reaction_limit = Buckets(self.limits.reactions_per_minute / 60, self.limits.reaction_burst, keep=1000)
        # seat and host changes (protocol.CHANGES) are logged: limited per member and for the whole table
        self.changes = Buckets(self.limits.changes_per_minute / 60, self.limits.change_burst, keep=1000)
        self.table_changes = Buckets(self.limits.table_changes_per_minute / 60, self.limits.table_change_burst)
        self.clock = TurnClock(self._clock_ran_out)
        self.knocks: dict[str, tuple[str, set[Connection]]] = {}   # asking to join: player -> (name, connections)
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
        self.bots: dict[tuple[int, str], Bot] = {}
        self.drop_timers: dict[str, asyncio.TimerHandle] = {}
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self._presence_dirty = False
        self.epoch: int | None = None       # the lease's fencing epoch with many processes (cluster/relay.py)

    @property
    def code(self) -> str:
        return self.state.code

    def start(self) -> None:
        """Begin driving the computer players; seated people count as dropped until they connect."""
        self.expect_seated()
        self.task = asyncio.create_task(self._bot_loop(), name=f"bots {self.code}")
        self._update_clock()
        self.wake.set()

    def expect_seated(self) -> None:
        """Seated people who are not here count as dropped: the computer covers them after the grace period
        unless they come (at the start, and after the server seated people itself: a club night's teams)."""
        for seat in self.state.seats:
            if seat.player is not None and seat.player not in self.presence.online:
                self._schedule_drop(seat.player)       # from now: a grace period is counted afresh

    async def stop(self) -> None:
        for timer in self.drop_timers.values():
            timer.cancel()
        self.clock.stop()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
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
            try:
                attached = tuple(self.finishing(self.state, played)) if self.finishing is not None else ()
            except Exception:   # history and ratings must never cost the table its move
                log.exception("table %s: the facts of deal %s could not be read", self.code, f.number)
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
        if finished is not None and self.deal_done is not None and self.state.match is not None:
            try:
                await self.deal_done(finished[0], finished[2], list(self.state.match.standings))
            except Exception:   # the deal is in the log; its board row can be written again from it
                log.exception("table %s: deal %s could not be reported", self.code, finished[0])
        self.last_active = time.time()
        self._update_clock()
        info = table_info(self.state, self.presence)     # the same for every viewer
        for conn in list(self.conns):
            conn.send(snapshot(self.state, self.presence, conn.player, stored, info))
        self._flush_presence()
        self.wake.set()

    async def reload(self) -> None:
        """Read the state again from the stored log (the caller holds the lock) and send every viewer a full
        state.  If the database cannot be read now, the state of the recent history stands (the next change
        finds out again)."""
        try:
            self.state, self.history = await read_log(self.db, self.code, self.timing.replay_limit)
        except Exception:
            log.exception("table %s: reading the log again failed", self.code)
            self.state = self.history.rebuild()
            return
        self._update_clock()
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
            seated_or_host = self.state.seat_of(conn.player) is not None or conn.player == self.state.host
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
                conn.send({**snapshot(self.state, self.presence, conn.player), "applied": applied})
            if conn.player is not None:
                self._came_back(conn.player)
                if conn.player == self.state.host and self.asking():
                    conn.send(self.knock_list())
            self._flush_presence()
            self.wake.set()     # a table that paused with no one there goes on
            return True

    def send_all(self, message: Outgoing | dict[str, object]) -> None:
        """A message for every viewer that is not a change of the table (a reaction)."""
        for conn in list(self.conns):
            conn.send(message)

    def watchers(self) -> int:
        """Open connections of people without a seat here."""
        return sum(1 for c in self.conns if self.state.seat_of(c.player) is None)

    # -- the turn clock (server/table/clock.py) -------------------------------------------------------------
    def _update_clock(self) -> None:
        if self.state.clock is None:
            return
        seat = self.state.to_move_table_seat()
        person = seat is not None and self._bot_for(seat, clock=False) is None
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
        if self.conns or self.lock.locked() or self.drop_timers or self.pending_action() is not None:
            return 0.0
        return max(0.0, now - self.last_active)

    async def next_seed(self) -> tuple[int, bool]:
        """The seed of the next deal, and whether it is fixed (a club night's board: the same at every table)."""
        fixed = None if self.deal_seed is None else await self.deal_seed(self.state.deals_count + 1)
        return (secrets.randbits(62), False) if fixed is None else (fixed, True)

    async def next_start(self) -> tuple[int, int]:
        """The seed and first dealer of a match (a start or a rematch): a club night's board is dealt by the same
        seat at every table (state/dealing.board_dealer), any other match by a seat drawn at random."""
        seed, fixed = await self.next_seed()
        seats = len(self.state.seats)
        return seed, (board_dealer(self.state.deals_count + 1, seats) if fixed else secrets.randbelow(seats))

"""The computer players of a table: which seat a computer plays now, what it does next, and the loop that makes
its moves through the table's one writer (a part of :class:`~.live.LiveTable`, handed the table)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from typing import TYPE_CHECKING, Protocol

from ...core.moves import PASS
from ..edge.limits import INLINE_BOTS
from ..state import events as ev
from ..state.errors import NoMoreDeals
from ..state.table import DEAL_OVER, MATCH_OVER, PLAYING, TableError, TableState
from .clock import TurnClock
from .connection import Connection
from .messages import Presence
from .timing import Timing

if TYPE_CHECKING:
    from ...bots.base import Bot

log = logging.getLogger("fiftysix.server")


class NotStored(TableError):
    """A change the database did not store (it is away, or the log was not where the table thought)."""


BACKOFF = 2.0
"""Seconds at most between a computer player's tries while the database does not store its moves."""


def default_bot(game: str) -> str:
    """The strongest bot the game has: its rules bot when registered, else random."""
    from ...bots import make_bot  # the bots (numpy) with the first table or catalogue, not at the start

    try:
        make_bot("rules", 0, game)
        return "rules"
    except ValueError:
        return "random"


class BotsOwner(Protocol):
    """What the computer players need of their table: its state, presence, clock, pacing, lock, wake-up and
    connections, its one writer, the seeds of the next deal, and what to do next (:meth:`pending_action`: a
    clustered table adds a case)."""

    state: TableState
    presence: Presence
    clock: TurnClock
    timing: Timing
    lock: asyncio.Lock
    wake: asyncio.Event
    conns: set[Connection]

    @property
    def code(self) -> str: ...
    async def commit(self, event: ev.Event) -> None: ...
    async def next_seed(self) -> tuple[int, bool]: ...
    async def next_start(self) -> tuple[int, int]: ...
    def pending_action(self) -> tuple[str, int] | None: ...


class ComputerPlayers:
    """Drives the computer players: a seat's own bot, or the table's fill for a person who is away, out of time
    or may not see this deal; the next deal when no seated person is here to ask for it.  It owns the bots made,
    the loop's task, and whether a club night's table has dealt all its boards."""

    def __init__(self, table: BotsOwner) -> None:
        self.table = table
        self.bots: dict[tuple[int, str], Bot] = {}
        self.task: asyncio.Task[None] | None = None
        self.dealt_all = False       # a club night's table past its last board: no computer deals a next deal

    def start(self) -> None:
        self.task = asyncio.create_task(self._bot_loop(), name=f"bots {self.table.code}")

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    def bot_for(self, table_seat: int, clock: bool = True) -> str | None:
        seat = self.table.state.seats[table_seat]
        if seat.bot is not None:
            return seat.bot
        if seat.player is not None and (seat.player in self.table.presence.covered
                                        or not self.table.state.may_see(seat.player, table_seat)
                                        or (clock and self.table.clock.expired == table_seat)):
            return self.table.state.fill or default_bot(self.table.state.game.name)
        return None

    def next_action(self) -> tuple[str, int] | None:
        """What the computer players should do next: ``("move", table seat)``, ``("next", -1)``,
        ``("rematch", -1)`` or nothing."""
        state = self.table.state
        if state.paused:
            return None
        if state.status == PLAYING:
            seat = state.to_move_table_seat()
            if seat is not None and self.bot_for(seat) is not None:
                return ("move", seat)
        elif state.status == DEAL_OVER and (self.table.conns or not state.rated) and not self.dealt_all:
            # with no one there at all a table pauses; a club night's table deals its boards on (its computers
            # cover the people away), so that no other table of the event waits for it
            if not self._anyone_seated_here():
                return ("next", -1)
        elif state.status == MATCH_OVER and not state.rated and not self.dealt_all and not self._anyone_seated_here():
            # a club night's 56 team out of tables (or a 55 match at its end) before the last board: the next
            # board starts a new match, as if its people had asked for the rematch
            return ("rematch", -1)
        return None

    def _anyone_seated_here(self) -> bool:
        return any(s.player in self.table.presence.online for s in self.table.state.seats if s.player is not None)

    async def _bot_loop(self) -> None:
        backoff = 0.0
        while True:
            await self.table.wake.wait()
            self.table.wake.clear()
            while (pending := self.table.pending_action()) is not None:
                timing = self.table.timing
                delay = {"move": timing.bot_delay, "lapse": 0.0}.get(pending[0], timing.next_delay)
                if delay > 0:   # a little jitter: more natural, and tables do not move in lockstep
                    delay *= random.uniform(0.7, 1.3)
                    await asyncio.sleep(delay)
                async with self.table.lock:
                    if self.table.pending_action() != pending:
                        continue
                    try:
                        await self.table.commit(await self._bot_event(pending))
                        backoff = 0.0
                    except NotStored:    # the database is away: try again, less and less often
                        backoff = min(BACKOFF, max(0.1, 2 * backoff))
                    except NoMoreDeals:     # a club night's last board: the computers wait with the people
                        self.dealt_all = True
                    except TableError as e:
                        log.warning("table %s: a computer player's move was refused: %s", self.table.code, e)
                        backoff = 0.05
                if backoff:
                    await asyncio.sleep(backoff)

    async def _bot_event(self, pending: tuple[str, int]) -> ev.Event:
        kind, table_seat = pending
        if kind == "lapse":         # a claimant who never came: the claim is given up in their name
            return ev.Stand(player=self.table.state.claims[table_seat])
        if kind == "next":
            return ev.NextDeal(seed=(await self.table.next_seed())[0])
        if kind == "rematch":       # in the host's name: the event's owner hosts every table of the event
            seed, dealer = await self.table.next_start()
            return ev.Rematch(player=self.table.state.host, seed=seed, dealer=dealer)
        from ...bots import make_bot
        from ...bots.base import RandomBot

        name = self.bot_for(table_seat) or "random"
        state = self.table.state
        assert state.deal is not None, "a computer player's move is pending only during a deal"
        deal_seat = state.deal_seat(table_seat)
        seen = state.game.observation(state.deal, deal_seat, state.match)   # built from the deal: no JSON
        legal = seen.legal or ()
        timed_out = self.table.clock.expired == table_seat
        if timed_out and seen.phase == "auction" and PASS.text in legal:
            # a person whose clock ran out in the auction passes: the computer never bids them into a contract
            return ev.Move(seat=table_seat, move=PASS.text, by=name, timeout=True)
        bot = self.bots.get((table_seat, name))
        if bot is None:
            bot = self.bots[(table_seat, name)] = make_bot(name, secrets.randbits(32), state.game.name)
        try:
            if name in INLINE_BOTS:
                move = bot.choose(seen)
            else:   # a searching bot thinks in a worker thread, so other tables go on meanwhile
                move = await asyncio.to_thread(bot.choose, seen)
        except Exception:  # a faulty bot must not stop the table: the fallback plays
            log.exception("table %s: bot %s failed; a random move is played", self.table.code, name)
            move = RandomBot().choose(seen)
        if move not in legal:
            move = RandomBot().choose(seen)
        return ev.Move(seat=table_seat, move=move, by=name, timeout=True if timed_out else None)

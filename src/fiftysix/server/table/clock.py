"""The turn clock: a table option, kept by the server (the one writer), never by the rules core.

A table created with ``"clock": {"move": 20, "bank": 120}`` gives a person ``move`` seconds for each move
(a call, a card, a trump, a discard); when those run out the seat's time bank runs, ``bank`` seconds for the
whole match, of which one turn may draw at most :data:`TURN_SHARE` of the full bank (so that one slow call
cannot spend what the rest of the match needs).  When both are gone, the seat's computer player makes that
one move (the stored move says ``"timeout": true``) and the person keeps the seat.  Only people's turns are
timed: a computer player's, or a dropped person's that a computer player covers, are not.

What is left of a bank goes into the log with each move (``"bank"`` on the move event), so a restarted
server knows every bank; the turn that was running when the server stopped starts again with its full move
seconds (time the server was down is charged to no one).  A pause (host) stops the clock; resuming gives
back exactly what was left.  With no clock option nothing here runs.

The page gets the clock in every message's table facts as ``turn_clock``: the table seat to move, the
server's ``now`` and the ``deadline`` (both seconds since the epoch, so the page counts down from
``deadline - now`` without trusting its own clock), the move seconds and bank left, and ``paused``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TypedDict, TypeVar

from ...core.meaning import N_, Meaning
from ..state.events import Event, Move
from ..state.table import TableError, TableState

E = TypeVar("E", bound=Event)

MAX_MOVE = 600
"""Most seconds a move may be given."""
MAX_BANK = 3600
"""Most seconds a time bank may hold."""
TURN_SHARE = 0.25
"""The most of a match's full bank that one turn may draw: a quarter, so a bank lasts at least four hard moves."""


def clock_rule(value: object) -> dict[str, float] | None:
    """Check the create form's ``clock``: ``null`` (no clock) or ``{"move": seconds, "bank": seconds}``.

    :raises TableError: naming what is wrong and what is allowed.
    """
    if value is None:
        return None
    if not isinstance(value, dict) or not set(value) <= {"move", "bank"} or "move" not in value:
        raise TableError(N_('clock must be null (no clock) or {"move": seconds a move, "bank": seconds a match}'))
    move, bank = value["move"], value.get("bank", 0)
    for name, number, top in (("move", move, MAX_MOVE), ("bank", bank, MAX_BANK)):
        if not isinstance(number, int | float) or isinstance(number, bool) or not 0 <= number <= top:
            raise TableError(Meaning("clock {name} must be a number of seconds from 0 to {top}",
                                     {"name": name, "top": top}))
    if move < 1:
        raise TableError(N_("clock move must be at least 1 second"))
    return {"move": float(move), "bank": float(bank)}


class TurnClock:
    """The clock of one live table.  :meth:`update` after every change; it calls ``on_timeout`` when the
    person to move has run out (the table's computer player then moves for them)."""

    def __init__(self, on_timeout: Callable[[], None], now: Callable[[], float] = time.monotonic) -> None:
        self.on_timeout = on_timeout
        self.now = now              # the monotonic clock (a test passes its own)
        self.turn: tuple[int, int, int] | None = None   # (table seat, finished deals, moves of the deal)
        self.started = 0.0          # monotonic time the running part of the turn began
        self.move = 0.0             # move seconds and the bank this turn may draw, left when it began
        self.bank = 0.0
        self.reserve = 0.0          # the bank beyond what this turn may draw
        self.running = False
        self.expired: int | None = None     # the table seat whose time ran out this turn
        self.timer: asyncio.TimerHandle | None = None
        self.info: ClockInfo | None = None     # for the messages (without ``now``)

    def left(self) -> tuple[float, float]:
        """Move seconds and the whole bank left now."""
        move, bank = self._turn_left()
        return move, bank + self.reserve

    def _turn_left(self) -> tuple[float, float]:
        """Move seconds and the bank this turn may still draw."""
        if not self.running:
            return self.move, self.bank
        spent = self.now() - self.started
        return max(0.0, self.move - spent), max(0.0, self.bank - max(0.0, spent - self.move))

    def update(self, state: TableState, person_turn: int | None) -> None:
        """Start, go on with, pause or stop the clock after a change.  ``person_turn``: the table seat a
        person must move now (``None`` when no one or a computer player moves)."""
        rule = state.clock
        if rule is None:
            return
        deal = state.deal
        turn = None if person_turn is None or deal is None else (person_turn, state.deals_count, len(deal.history))
        if turn != self.turn:
            self._stop()
            self.turn, self.expired = turn, None
            if turn is not None:
                full = state.banks[turn[0]]
                self.move, self.bank = rule["move"], min(full, rule["bank"] * TURN_SHARE)
                self.reserve = full - self.bank
        if turn is None:
            self.info = None
            return
        if state.paused and self.running:
            self._stop()    # keeps what is left (taking it here as well charged the time spent twice)
        elif not state.paused and not self.running and self.expired is None:
            self.started, self.running = self.now(), True
            loop = asyncio.get_running_loop()
            self.timer = loop.call_later(self.move + self.bank, self._ran_out)
        self._note(state.paused)

    def stamp(self, event: E, state: TableState) -> E:
        """Before a move is stored: the move with what is left of the mover's bank (any other event as it is)."""
        if state.clock is None or not isinstance(event, Move) or self.turn is None or event.seat != self.turn[0]:
            return event
        return replace(event, bank=round(self.reserve if self.expired is not None else self.left()[1], 1))

    def stop(self) -> None:
        self._stop()

    def _stop(self) -> None:
        if self.running:
            self.move, self.bank = self._turn_left()
        self.running = False
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _ran_out(self) -> None:
        self.timer = None
        self.running = False
        self.move = self.bank = 0.0
        if self.turn is not None:
            self.expired = self.turn[0]
        self._note(False)
        self.on_timeout()

    def _note(self, paused: bool) -> None:
        if self.turn is None:
            return
        move, bank = self._turn_left()
        now = time.time()
        self.info = ClockInfo(seat=self.turn[0], move_left=round(move, 1), bank_left=round(bank + self.reserve, 1),
                              turn_bank_left=round(bank, 1),
                              deadline=round(now + move + bank, 2) if self.running else None,
                              paused=paused, expired=self.expired is not None)


class ClockInfo(TypedDict):
    """The turn clock of the person to move: seconds left for the move, the bank and this turn's share of it."""

    seat: int
    move_left: float
    bank_left: float
    turn_bank_left: float
    deadline: float | None      # unix time it runs out, while it runs
    paused: bool
    expired: bool


class ClockNow(ClockInfo):
    """The clock as a message carries it: with the server's time ``now`` (the page counts from it)."""

    now: float


def clock_message(info: ClockInfo | None) -> ClockNow | None:
    """The clock as a message carries it: with the server's time now."""
    return None if info is None else ClockNow(**info, now=round(time.time(), 2))

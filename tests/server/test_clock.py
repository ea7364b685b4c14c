"""The turn clock on its own (server/table/clock.py), on a clock the test moves: a pause stops the clock and costs
the person nothing; resuming gives back exactly what was left, however often the host pauses."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fiftysix.server.state.events import Move, Stand
from fiftysix.server.table.clock import TURN_SHARE, TurnClock


@dataclass
class _Deal:
    history: list[Any] = field(default_factory=list)


@dataclass
class _State:
    """What TurnClock.update reads of a TableState."""
    clock: dict[str, float] = field(default_factory=lambda: {"move": 3.0, "bank": 10.0})
    deal: _Deal = field(default_factory=_Deal)
    deals_count: int = 0
    banks: list[float] = field(default_factory=lambda: [10.0, 10.0, 10.0, 10.0])
    paused: bool = False


class _Time:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def _clock() -> tuple[TurnClock, _State, _Time, list[int]]:
    now, timeouts = _Time(), []
    clock = TurnClock(lambda: timeouts.append(1), now=now)
    return clock, _State(), now, timeouts


def _run(body: Any) -> None:
    async def main() -> None:
        body()
    asyncio.run(main())


def test_a_pause_half_way_through_a_move_costs_nothing() -> None:
    def body() -> None:
        clock, state, now, _ = _clock()
        clock.update(state, 0)              # seat 0's turn: 3 s, then a bank of 10 s
        now.t += 1.5
        state.paused = True
        clock.update(state, 0)
        assert clock.left() == (1.5, 10.0)
        now.t += 60                         # a long pause is charged to no one
        state.paused = False
        clock.update(state, 0)
        assert clock.left() == (1.5, 10.0)
        assert clock.info is not None and clock.info["move_left"] == 1.5 and clock.info["bank_left"] == 10.0
        now.t += 1.0
        assert clock.left() == (0.5, 10.0)
        clock.stop()
    _run(body)


def test_forty_pauses_and_resumes_in_a_second_cost_the_person_only_that_second() -> None:
    def body() -> None:
        clock, state, now, timeouts = _clock()
        clock.update(state, 0)
        for _ in range(40):
            now.t += 0.0125
            state.paused = True
            clock.update(state, 0)
            state.paused = False
            clock.update(state, 0)
            now.t += 0.0125
        move, bank = clock.left()
        assert abs(move - 2.0) < 1e-9 and bank == 10.0 and not timeouts and clock.expired is None
        clock.stop()
    _run(body)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 2), st.booleans()), max_size=30))
def test_the_time_charged_is_the_time_the_clock_ran(steps: list[tuple[float, bool]]) -> None:
    def body() -> None:
        clock, state, now, _ = _clock()
        clock.update(state, 0)
        ran = 0.0
        for wait, pause in steps:
            now.t += wait
            if not state.paused:
                ran += wait
            state.paused = pause
            clock.update(state, 0)
        move, bank = clock.left()
        assert abs(move - max(0.0, 3.0 - ran)) < 1e-6
        # one turn draws at most a quarter of the full bank (TURN_SHARE)
        assert abs(bank - (10.0 - min(max(0.0, ran - 3.0), 10.0 * TURN_SHARE))) < 1e-6
        clock.stop()
    _run(body)


def test_one_slow_turn_cannot_spend_the_whole_bank() -> None:
    def body() -> None:
        clock, state, now, timeouts = _clock()
        clock.update(state, 0)
        assert clock.info is not None and clock.info["bank_left"] == 10.0 and clock.info["turn_bank_left"] == 2.5
        now.t += 60                              # far past move and bank: the turn's share is gone, no more
        clock._ran_out()                         # what the event loop's timer calls
        assert timeouts == [1]
        event = clock.stamp(Move(seat=0, move="P", by="rules"), state)    # the computer's move stores what the
        assert event.bank == 7.5                                           # bank still holds
        assert clock.stamp(Stand(player="p"), state) == Stand(player="p")  # any other event as it is
        state.banks[0] = event.bank
        state.deal.history.append("P")          # the next turn of the same seat draws again
        clock.update(state, 0)
        assert clock.left() == (3.0, 7.5)
        clock.stop()
    _run(body)

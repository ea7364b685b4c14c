"""The read rule and the scoring of today's deals (issue 58), as properties over random days: nothing of board k
played by another reaches a player before they finished board k; the ranking is comparison with the field."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from fiftysix.server.daily.rule import LIVE, Day, may_read, readable_boards
from fiftysix.server.daily.scoring import board_comparisons, ranking
from fiftysix.server.daily.seeds import day_end, day_of, day_seed, parse_sets

PLAYERS = ["a", "b", "c", "d"]


@st.composite
def days(draw: st.DrawFn) -> Day:
    boards = draw(st.integers(1, 6))
    done = {p: frozenset(range(1, draw(st.integers(0, boards)) + 1)) for p in PLAYERS}
    return Day(draw(st.booleans()), boards, {p: b for p, b in done.items() if b})


READERS = st.sampled_from([None, *PLAYERS, "outsider"])


@given(days(), READERS, st.sampled_from([None, *PLAYERS]), st.one_of(st.none(), st.integers(0, 7)))
def test_a_board_of_another_is_read_only_after_finishing_it(day: Day, reader: str | None, owner: str | None,
                                                             through: int | None) -> None:
    allowed = may_read(day, reader, owner, through)
    mine = reader is not None and reader == owner
    if day.over or mine:
        assert allowed
        return
    if through is LIVE:
        assert not allowed          # a table as it plays: its board is unfinished
        return
    both = all(day.done(reader, b) and (owner is None or day.done(owner, b)) for b in range(1, through + 1))
    assert allowed == both


@given(days(), READERS)
def test_the_ranking_counts_only_the_boards_the_reader_finished(day: Day, reader: str | None) -> None:
    counted = readable_boards(day, reader)
    assert all(day.over or day.done(reader, b) for b in counted)
    assert day.over or len(counted) == len(day.finished.get(reader or "", frozenset()))


def gain(player: str, board: int) -> int:
    return (ord(player) * 5 + board * 3) % 9 - 4


@given(days(), READERS)
def test_the_ranking_is_each_board_s_result_minus_the_field_s_average(day: Day, reader: str | None) -> None:
    field = {(p, b): [gain(p, b), -gain(p, b)] for p, boards in day.finished.items() for b in boards}
    counted = readable_boards(day, reader)
    expected: dict[str, Fraction] = {}
    for b in counted:       # restated by hand: the test's oracle
        played = [p for p in PLAYERS if (p, b) in field]
        average = Fraction(sum(gain(p, b) for p in played), len(played)) if played else Fraction(0)
        for p in played:
            expected[p] = expected.get(p, Fraction(0)) + gain(p, b) - average
    got = ranking(field, counted)
    assert {p.player: p.score for p in got} == expected
    assert [p.score for p in got] == sorted((p.score for p in got), reverse=True)
    for b in counted:
        assert sum(board_comparisons(field, b).values()) == 0


def test_a_day_s_seed_needs_the_server_s_secret_and_differs_by_day_and_set() -> None:
    assert day_seed("s1", "2026-12-07", "56-6") == day_seed("s1", "2026-12-07", "56-6")
    assert len({day_seed("s1", "2026-12-07", "56-6"), day_seed("s2", "2026-12-07", "56-6"),
                day_seed("s1", "2026-12-08", "56-6"), day_seed("s1", "2026-12-07", "56-4")}) == 4
    assert day_of(day_end("2026-12-07") - 1) == "2026-12-07" and day_of(day_end("2026-12-07")) == "2026-12-08"


def test_the_operator_s_sets_are_checked() -> None:
    assert [(s.preset, s.boards) for s in parse_sets("56-6:8, 56-4:8")] == [("56-6", 8), ("56-4", 8)]
    for bad in ("", "56-6", "56-6:0", "56-6:33", "56-6:2,56-6:3"):
        try:
            parse_sets(bad)
        except ValueError as e:
            assert "56-6:8" in str(e)
        else:
            raise AssertionError(bad)

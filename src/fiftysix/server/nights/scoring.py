"""Scoring a club night by comparison with the field (pure: no I/O, no clock).

A table's result on a board is one number per direction (what that side gained: tables in 56, points in
56-points and 55). Its comparison is the result minus the average of that direction over the tables that played the
board; scores are exact fractions so the comparisons of a board sum to exactly zero.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

Results = Mapping[tuple[int, int], Sequence[int]]
"""(table, board) -> the result for each direction, present only once the board is finished at that table."""


@dataclass(frozen=True)
class Seat:
    """Where an event team sits: its table and its direction there (the team index in 56, the seat in 55)."""

    table: int
    direction: int


@dataclass(frozen=True)
class Standing:
    team: str
    score: Fraction
    boards: int       # the boards that counted


class ScoringError(ValueError):
    """Results that cannot be compared (directions of different counts at one board)."""


def compare(board: Mapping[int, Sequence[int]]) -> dict[int, tuple[Fraction, ...]]:
    """One board's comparisons: table -> for each direction, its result minus that direction's field average."""
    if not board:
        return {}
    widths = {len(r) for r in board.values()}
    if len(widths) != 1:
        raise ScoringError("the tables report different numbers of directions for one board")
    width = widths.pop()
    averages = [Fraction(sum(r[d] for r in board.values()), len(board)) for d in range(width)]
    return {table: tuple(Fraction(r[d]) - averages[d] for d in range(width)) for table, r in board.items()}


def finished_everywhere(results: Results, tables: int, boards: int) -> list[int]:
    """The boards (1-based) finished at every one of the ``tables`` tables, in order."""
    return [b for b in range(1, boards + 1) if all((t, b) in results for t in range(1, tables + 1))]


def board_comparisons(results: Results, board: int) -> dict[int, tuple[Fraction, ...]]:
    """The comparisons of ``board`` among the tables that finished it (for the board page once it may be shown)."""
    return compare({t: r for (t, b), r in results.items() if b == board})


def standings(results: Results, tables: int, boards: int, teams: Mapping[str, Seat]) -> list[Standing]:
    """The standings from the boards finished everywhere only, best first (ties by name).

    Live standings while the event runs; at close the same call gives the final standings, because a board not
    finished everywhere is dropped for everyone (docs/spec/club-nights.md)."""
    counted = finished_everywhere(results, tables, boards)
    score = {team: Fraction(0) for team in teams}
    for board in counted:
        comparisons = board_comparisons(results, board)
        for team, seat in teams.items():
            row = comparisons.get(seat.table)
            if row is not None and seat.direction < len(row):
                score[team] += row[seat.direction]
    ranked = sorted(teams, key=lambda team: (-score[team], team))
    return [Standing(team, score[team], len(counted)) for team in ranked]


def places(table: Sequence[Standing]) -> list[int]:
    """Each standing's place (0 best), equal scores sharing a place: the ranks a rating update takes."""
    out: list[int] = []
    for i, s in enumerate(table):
        out.append(out[-1] if i and table[i - 1].score == s.score else i)
    return out

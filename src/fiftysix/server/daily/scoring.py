"""Today's deals scored as club nights score (pure): each board compared with the average of everyone who played
it (:func:`..nights.scoring.compare`), a player's score the sum of their comparisons over the boards counted."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..nights.scoring import compare

Field = Mapping[tuple[str, int], Sequence[int]]
"""(player, board) -> that player's table's result for each direction, once the board's deal is stored."""


@dataclass(frozen=True)
class Place:
    player: str
    score: Fraction
    boards: int       # the counted boards this player finished


def board_comparisons(field: Field, board: int, direction: int = 0) -> dict[str, Fraction]:
    """Each player who finished ``board``: their direction's result minus the field's average on it."""
    players = sorted({p for (p, b) in field if b == board})
    if not players:         # nobody finished it (yet): nothing to compare
        return {}
    compared = compare({i: field[(p, board)] for i, p in enumerate(players)})
    return {p: compared[i][direction] for i, p in enumerate(players)}


def ranking(field: Field, counted: Iterable[int], direction: int = 0) -> list[Place]:
    """Everyone who finished a counted board, best first (then by id): the sum of their comparisons over the
    ``counted`` boards (those the reader may see: :func:`.rule.readable_boards`)."""
    score: dict[str, Fraction] = {}
    played: dict[str, int] = {}
    for board in counted:
        for player, value in board_comparisons(field, board, direction).items():
            score[player] = score.get(player, Fraction(0)) + value
            played[player] = played.get(player, 0) + 1
    return [Place(p, score[p], played[p]) for p in sorted(score, key=lambda p: (-score[p], p))]


def day_places(field: Field, boards: int, direction: int = 0) -> dict[str, int]:
    """The day's finished ranking as the day's rating takes it: everyone who finished all ``boards`` boards, placed
    by their day score (compared with everyone who finished each board), 0 the best, equal scores sharing a place;
    those who stopped early are left out (they count in the field's averages only)."""
    table = [p for p in ranking(field, range(1, boards + 1), direction) if p.boards == boards]
    scores = sorted({p.score for p in table}, reverse=True)
    return {p.player: scores.index(p.score) for p in table}

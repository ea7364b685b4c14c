"""Which table a person who taps "Play" sits at: pure, so it is tested on its own (``tests/server/test_play.py``).

An *opening* is a public table of the default game that is not started or is between deals, with seats a newcomer
may take (an empty seat, or a computer's: it is handed over for the next deal) and at least one person seated.
Near means the smallest distance between the newcomer's rating and the mean rating of the people seated, within
the narrowest of :data:`WINDOWS` that holds any opening (so a window widens only when the narrower one is empty);
beyond the widest there is no match and the newcomer gets a new table with computers.  Of tables as near, one
where the newcomer plays at once (before its match, or between deals) comes before one mid-deal (a computer's
seat taken from the next deal), then the table waiting longest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

WINDOWS = (100, 200, 400)
"""Rating distances tried in turn, in the points a profile shows (``matches/rating.py`` ``display``)."""


@dataclass(frozen=True)
class Opening:
    """A table a newcomer may sit at: its code, its host's name, the seats free to take, the display ratings of
    the people seated (a guest counts at the starting rating), since when it waits (unix seconds) and whether
    the newcomer plays at once there (``False``: a deal is on, the seat is theirs from the next)."""

    code: str
    host: str
    seats: tuple[int, ...]
    ratings: tuple[int, ...]
    since: float
    now: bool = True


@dataclass(frozen=True)
class Pick:
    """Where a newcomer goes: a table's code and seat, or ``None`` for a new table with computers."""

    player: str
    code: str | None
    seat: int | None


def distance(rating: int, opening: Opening) -> float:
    """How far ``rating`` is from the people seated at ``opening`` (their mean)."""
    return abs(rating - sum(opening.ratings) / len(opening.ratings))


def choose(rating: int, openings: Sequence[Opening], windows: Sequence[int] = WINDOWS) -> Opening | None:
    """The opening for a newcomer of ``rating``: nearest within the narrowest window that holds one, ties to a
    seat played at once, then the longest waiting (then by code, so the choice is the same on every process);
    ``None``: none near enough."""
    fit = [o for o in openings if o.seats and o.ratings]
    for window in windows:
        near = [o for o in fit if distance(rating, o) <= window]
        if near:
            return min(near, key=lambda o: (distance(rating, o), not o.now, o.since, o.code))
    return None


def ranked(rating: int, openings: Sequence[Opening], windows: Sequence[int] = WINDOWS) -> list[Opening]:
    """Every opening near enough, best first: the route tries the next when a seat went to someone else first."""
    out, rest = [], list(openings)
    while (best := choose(rating, rest, windows)) is not None:
        out.append(best)
        rest.remove(best)
    return out


def seat_all(arrivals: Sequence[tuple[str, int]], openings: Sequence[Opening], seats: int,
             windows: Sequence[int] = WINDOWS) -> list[Pick]:
    """Newcomers ``(player, rating)`` seated one after another, as the route does under its lock: each takes the
    lowest seat of its chosen opening; one with no opening gets a new table of ``seats`` seats, whose other seats
    (computers) are openings for those after it.  A player already placed is not placed again."""
    tables = list(openings)
    picks: list[Pick] = []
    placed: set[str] = set()
    for player, rating in arrivals:
        if player in placed:
            continue
        placed.add(player)
        best = choose(rating, tables, windows)
        if best is None:
            code = f"new-{len(picks)}"
            tables.append(Opening(code, player, tuple(range(1, seats)), (rating,), float(len(picks)), now=False))
            picks.append(Pick(player, None, None))
            continue
        seat = min(best.seats)
        tables[tables.index(best)] = replace(best, seats=tuple(s for s in best.seats if s != seat),
                                             ratings=(*best.ratings, rating))
        picks.append(Pick(player, best.code, seat))
    return picks

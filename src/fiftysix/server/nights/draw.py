"""Drawing members into teams (pure): the owner lists who comes without a team, the draw shuffles them and fills
the open places in order, a team's size at a time (``rng`` is the caller's: the server's system random)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .scoring import Seat


def open_places(tables: int, directions: int, taken: set[Seat]) -> list[Seat]:
    """The places (table, direction) no team has, table by table."""
    return [Seat(t, d) for t in range(1, tables + 1) for d in range(directions) if Seat(t, d) not in taken]


def draw(players: Sequence[str], places: Sequence[Seat], per_team: int, rng: random.Random
         ) -> list[tuple[Seat, list[str]]]:
    """The drawn teams: the players shuffled and dealt ``per_team`` at a time into ``places`` in order, the last
    team smaller if the players run out; players beyond the open places stay undrawn."""
    pool = list(dict.fromkeys(players))
    rng.shuffle(pool)
    return [(place, pool[i * per_team:(i + 1) * per_team]) for i, place in enumerate(places)
            if pool[i * per_team:(i + 1) * per_team]]

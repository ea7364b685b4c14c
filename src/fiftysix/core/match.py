"""What a match of either game keeps: the deals so far, the dealer, the standings and how it ended."""

from __future__ import annotations

import random
from typing import Generic, TypeVar

from .options import Rules

R = TypeVar("R", bound=Rules)


class MatchBase(Generic[R]):
    """Deal after deal with a rotating dealer.  Each game adds how a deal is booked and when it ends.

    :ivar rules: the match's rules; :ivar deal_rules: the rules of the next deal (56 re-seats survivors).
    :ivar dealer: the next deal's dealer; the first is drawn from the match's seeded generator if not given.
    :ivar standings: per team or side, after the deals booked so far.
    :ivar results: each booked deal's result.
    :ivar deals_booked: how many deals have been booked (a count: a long-running server keeps no deal objects).
    :ivar winner: once :attr:`over`, the winning team or side (``None`` for a draw).
    """

    def __init__(self, rules: R, standings: list[int], first_dealer: int | None, seed: int | None) -> None:
        self.rules = rules
        self.deal_rules = rules
        self.rng = random.Random(seed)
        self.standings = standings
        self.dealer: int = first_dealer if first_dealer is not None else self.rng.randrange(rules.players)
        self.deals_booked = 0
        self.results: list[dict[str, object]] = []
        self.winner: int | None = None
        self.over = False
        self.end_reason = ""

    @property
    def deal_number(self) -> int:
        """1 for the first deal."""
        return self.deals_booked + 1

    def team_of_current(self, team: int) -> int:
        """The match's number of the current deal's team ``team`` (the same unless a game re-seats players)."""
        return team

    def _deal_rng(self, seed: int | None) -> random.Random:
        """The generator for the next shuffle: the match's own unless a seed is given."""
        return random.Random(seed) if seed is not None else self.rng

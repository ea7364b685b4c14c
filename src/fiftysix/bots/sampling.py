"""Whole deals consistent with one seat's view, for search bots: the game's own sampler, reached through its
:class:`~fiftysix.games.spec.GameSpec` (``observe`` then ``sampler``; OpenSpiel's ``ResampleFromInfostate``).

The samplers themselves live with their games (:mod:`fiftysix.games.sampling`, ``games/fifty_six/sampler.py``,
``games/fifty_five/sampler.py``): what a view shows about the hidden cards is a matter of each game's rules.
"""

from __future__ import annotations

import math
import random

from ..core.deal import Deal
from ..games import GAMES
from ..games.sampling import Claim, DealSampler
from ..games.spec import Sampler, SamplingError
from .base import Seen, clock, observed
from .kits import Likelihood

__all__ = ["Claim", "DealSampler", "Sampler", "SamplingError", "WeightedSampler", "sample_deals", "sampler_for"]

MIN_POOL = 8
"""Candidates a :class:`WeightedSampler` draws whatever its budget."""


def sampler_for(seen: Seen, *, use_bids: bool = True, infer: bool = True,
                tries: int = 300) -> Sampler:
    """The sampler of the seat's game for what it knows (its observation, read once).

    :raises SamplingError: if no deal agrees with the view.
    :raises ValueError: for a malformed view.
    """
    obs = observed(seen)
    return GAMES[obs.game].sampler(obs, use_bids=use_bids, infer=infer, tries=tries)


def sample_deals(seen: Seen, n: int, rng: random.Random) -> list[Deal]:
    """``n`` deals consistent with what the seat knows, each replayed to its position.

    :raises SamplingError: if no deal agrees with the view.
    """
    sampler = sampler_for(seen)
    return [sampler.sample(rng) for _ in range(n)]


class WeightedSampler:
    """Draws ``pool`` candidates from ``base`` once, then answers deals in proportion to their weights
    (``exp(likelihood.log_weight(deal))``: sampling importance resampling, for ``kermit`` and ``reader``)."""

    def __init__(self, base: Sampler, likelihood: Likelihood, pool: int,
                 budget: float | None = None) -> None:
        self.budget = budget
        """CPU seconds the candidates may take (at least :data:`MIN_POOL` are drawn)."""
        self.base = base
        self.likelihood = likelihood
        self.pool = max(1, pool)
        self.deals: list[Deal] = []
        self.weights: list[float] = []

    def fill(self, rng: random.Random) -> None:
        start = clock()
        deals: list[Deal] = []
        logs: list[float] = []
        while len(deals) < self.pool:
            if self.budget is not None and len(deals) >= MIN_POOL and clock() - start > self.budget:
                break
            deal = self.base.sample(rng)
            deals.append(deal)
            logs.append(self.likelihood.log_weight(deal))
        top = max(logs)
        self.deals = deals
        self.weights = [math.exp(x - top) for x in logs]

    def sample(self, rng: random.Random) -> Deal:
        if not self.deals:
            self.fill(rng)
        return rng.choices(self.deals, weights=self.weights)[0].copy()

    def effective_size(self) -> float:
        """Kish's effective number of deals among the candidates (1 when one deal has all the weight)."""
        s = sum(self.weights)
        return s * s / sum(w * w for w in self.weights) if self.weights else 0.0

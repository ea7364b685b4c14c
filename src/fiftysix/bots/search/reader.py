"""``reader``: ``pimc`` whose sampled deals are weighted by a learned model of where the cards lie.

The game's sampler draws deals consistent with everything the view shows for certain (voids, cards played,
what each bid form promises). What a player reads between the lines (a seat that named hearts holds more hearts
than its share; one that never bid holds few high cards; the declarer holds the trumps) is the game kit's
learned card-location model (:attr:`~fiftysix.bots.kits.GameKit.card_model`; for 56
:mod:`fiftysix.bots.heuristic.cardmodel56`, trained offline on self-play). Each candidate deal is weighted by the
model's chance of its hands against the sampler's (a few dictionary lookups a deal, so the pool can be large),
and the deals the double-dummy play solves are drawn from ``pool`` candidates in proportion (sampling
importance resampling, :class:`~fiftysix.bots.sampling.WeightedSampler`). The play code is ``pimc``'s; calls
too.

Options (``--bot reader,strength=0.5,...``): those of ``pimc``, ``strength`` (the model's weight as a power, 0:
plain ``pimc``, default 1) and ``pool`` (candidates per decision, default four times the deals solved, drawn
within 0.3 of the time limit).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...games.spec import Observation
from ..base import register
from ..kits import KITS, kit_for
from ..sampling import Sampler, WeightedSampler, sampler_for
from .pimc import PimcBot, samples_for

BUDGET_SHARE = 0.3
"""The share of a decision's time limit the candidates may take (the rest is the solver's)."""


class ReaderBot(PimcBot):
    """``pimc`` with deals weighted by the game's card-location model; see the module documentation."""

    name = "reader"

    def __init__(self, seed: int | None = None, strength: float = 1.0, pool: int | None = None,
                 **options: Any) -> None:
        super().__init__(seed=seed, **options)
        if not 0.0 <= float(strength) <= 4.0:
            raise ValueError(f"strength must be between 0 and 4, not {strength}")
        if pool is not None and int(pool) < 1:
            raise ValueError(f"pool must be at least 1, not {pool}")
        self.strength = float(strength)
        self.pool = None if pool is None else int(pool)

    def sampler(self, obs: Observation) -> Sampler:
        base = sampler_for(obs)
        model = kit_for(obs.game).card_model
        if obs.phase != "play" or model is None or self.strength == 0.0 or obs.seat is None:
            return base
        n = self.samples if self.samples is not None else samples_for(len(obs.hand), True, self.fast)
        budget = None if self.time_limit is None else BUDGET_SHARE * self.time_limit
        return WeightedSampler(base, model.likelihood(obs, self.strength),
                               self.pool if self.pool is not None else 4 * n, budget)


def _factory(game: str) -> Callable[..., ReaderBot]:
    def make(seed: int | None = None, **options: Any) -> ReaderBot:
        return ReaderBot(seed=seed, game=game, **options)
    return make


def register_games(games: Sequence[str] | None = None) -> None:
    """Register ``reader`` for each game whose kit has a card-location model."""
    for game in games if games is not None else [g for g, kit in KITS.items() if kit.card_model is not None]:
        register("reader", _factory(game), game)

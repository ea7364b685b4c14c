"""``kermit``: ``pimc`` whose sampled deals are weighted by how likely the other seats' actual moves were.

Kermit's inference (Buro et al., Skat; Solinas et al., arXiv 1905.10911): a sampled deal in which the other
players' cards explain what they did is more likely than one in which they do not. For every candidate deal
the game's sampler draws (:func:`~fiftysix.bots.sampling.sampler_for`: consistent with everything the view
shows), the bot replays the deal from its dealt hands and, at each of the last ``window`` moves of the other
seats, asks the ``rules`` bot what it would have done with that seat's sampled hand and the same public
history. The deal's weight is the product over those moves of

    P(actual move) = (1 − epsilon) · [the ``rules`` bot's move] + epsilon / (number of legal moves),

a softened ``rules`` policy (never 0, since people and other bots do not play like ``rules``). The deals the
double-dummy play solves are then drawn from ``pool`` candidates in proportion to their weights (sampling
importance resampling), so the play code is ``pimc``'s own (:mod:`.ddplay`). The weighting is used for card
play only; calls are simulated as ``pimc`` does (its bid-form claims already shape the sampled hands).

Options (``--bot kermit,epsilon=0.2,...``): those of ``pimc``, and ``epsilon`` (default 0.25), ``window``
(other seats' moves weighed, the latest first; default 8), ``pool`` (candidate deals per decision, default
twice the deals solved, drawn within 0.4 of the time limit). Like ``pimc`` it is ``trusty`` by default.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from ...core.cards import Card
from ...core.deal import Deal
from ...games import GAMES
from ...games.spec import Observation
from ..base import Bot, make_bot, register
from ..kits import KITS, kit_for
from ..sampling import Sampler, WeightedSampler, sampler_for
from .pimc import PimcBot, samples_for

DEFAULT_EPSILON = 0.25
DEFAULT_WINDOW = 8
BUDGET_SHARE = 0.4
"""The share of a decision's time limit the weighting may take (the rest is the solver's)."""


def dealt_deal(deal: Deal) -> Deal:
    """A fresh copy of ``deal`` at its first move: each seat's cards now plus the cards it has played.

    :raises ValueError: for a deal whose cards are not all in the seats' hands or tricks (55's kitty).
    """
    played: list[list[Card]] = [[] for _ in deal.hands]
    for seat, move in deal.history:
        if isinstance(move, Card):
            played[seat].append(move)
    hands = [list(h) + p for h, p in zip(deal.hands, played, strict=True)]
    return type(deal)(deal.rules, deal.dealer, hands)


class PolicyLikelihood:
    """The softened ``rules`` policy's probability of the other seats' latest moves in a sampled deal."""

    def __init__(self, seat: int, game: str, epsilon: float = DEFAULT_EPSILON, window: int = DEFAULT_WINDOW,
                 policy: Bot | None = None) -> None:
        if not 0.0 < epsilon <= 1.0:
            raise ValueError(f"epsilon must be in (0, 1], not {epsilon}")
        if window < 0:
            raise ValueError(f"window must be 0 or more, not {window}")
        self.seat = seat
        self.epsilon = epsilon
        self.window = window
        self.policy = policy if policy is not None else make_bot("rules", seed=0, game=game)
        self._cache: dict[tuple[int, tuple[Card, ...]], str] = {}
        """(history index, the mover's hand) → the policy's move: the public history before that index is
        the same in every sampled deal of one decision, so the hand decides."""

    def judged(self, deal: Deal) -> list[int]:
        """Indices in ``deal.history`` of the moves weighed: the other seats' latest ``window`` moves."""
        others = [i for i, (s, _) in enumerate(deal.history) if s != self.seat]
        return others[len(others) - self.window:] if self.window else []

    def log_weight(self, deal: Deal) -> float:
        """log P(the other seats' judged moves | their hands in ``deal``) under the softened policy."""
        judged = self.judged(deal)
        if not judged:
            return 0.0
        history = deal.history
        replay = dealt_deal(deal)
        game = GAMES[deal.game]
        total = 0.0
        marks = set(judged)
        for i, (seat, move) in enumerate(history[: judged[-1] + 1]):
            if i in marks:
                legal = replay.legal_moves()
                if len(legal) > 1:
                    key = (i, tuple(sorted(replay.hands[seat])))
                    choice = self._cache.get(key)
                    if choice is None:
                        choice = self._cache[key] = self.policy.choose(game.observation(replay, seat))
                    p = self.epsilon / len(legal) + (1.0 - self.epsilon) * (choice == str(move))
                    total += math.log(p)
            replay.push_unchecked(move)
        return total


class KermitBot(PimcBot):
    """``pimc`` with deals weighted by the other seats' moves; see the module documentation."""

    name = "kermit"

    def __init__(self, seed: int | None = None, epsilon: float = DEFAULT_EPSILON, window: int = DEFAULT_WINDOW,
                 pool: int | None = None, **options: Any) -> None:
        super().__init__(seed=seed, **options)
        if not 0.0 < float(epsilon) <= 1.0:
            raise ValueError(f"epsilon must be in (0, 1], not {epsilon}")
        if int(window) < 0 or (pool is not None and int(pool) < 1):
            raise ValueError("window must be 0 or more and pool at least 1")
        self.epsilon = float(epsilon)
        self.window = int(window)
        self.pool = None if pool is None else int(pool)

    def sampler(self, obs: Observation) -> Sampler:
        base = sampler_for(obs)
        if obs.phase != "play" or not kit_for(obs.game).replays_from_hands or self.window == 0:
            return base
        n = self.samples if self.samples is not None else samples_for(len(obs.hand), True, self.fast)
        if obs.seat is None:
            return base
        likelihood = PolicyLikelihood(obs.seat, obs.game, self.epsilon, self.window, self.fallback(obs.game))
        budget = None if self.time_limit is None else BUDGET_SHARE * self.time_limit
        return WeightedSampler(base, likelihood, self.pool if self.pool is not None else 2 * n, budget)


def _factory(game: str) -> Callable[..., KermitBot]:
    def make(seed: int | None = None, **options: Any) -> KermitBot:
        return KermitBot(seed=seed, game=game, **options)
    return make


def register_games(games: Sequence[str] | None = None) -> None:
    """Register ``kermit`` for each game whose deals replay from the seats' hands (its weighting replays them;
    55, with its kitty, does not)."""
    for game in games if games is not None else [g for g, kit in KITS.items() if kit.replays_from_hands]:
        register("kermit", _factory(game), game)

"""``pimc``: Perfect Information Monte Carlo for 56 and 55.

The bot sees only its view.  For a decision it samples deals consistent with everything the view shows
(:mod:`.sampling`: voids shown in play, cards played, what bid forms claim, a hidden trump, 55's kitty and
undealt cards), answers the question for every sampled deal as if all hands were known, and plays the move
with the best average.

* **Play** (:mod:`.ddplay`, game-agnostic): each sampled deal is solved double dummy with
  :func:`fiftysix.solver.card_values`, and each card scores the share of samples in which its side
  reaches its goal (the declaring team its contract, the defenders its defeat; in 55 the bidder its bid),
  plus a little for the average points.  Whole deals of six or eight players are too slow to solve
  several times a second, so a trick or two deeper the bot only asks whether each card keeps the goal in
  reach (null-window searches), and earlier still it plays the card the ``rules`` bot would (its card
  counting and bid reading included); see :meth:`~fiftysix.bots.kits.GameKit.dd_tricks`.
* **Auction, 56** (:mod:`fiftysix.bots.heuristic.pimc_auction56`): the contract of each strain is
  simulated over sampled deals; every call (pass, double, each strain at the cheapest value in its
  informative form) gets an expected score and the best is made.  The trump choice (``chosen``,
  ``hidden``) likewise.
* **55** (:mod:`fiftysix.bots.heuristic.pimc55`): bids, discards and trumps by simulating the contract
  double dummy over sampled deals (kitty included); play as above.

The game-specific parts come from the game's :class:`~fiftysix.bots.kits.GameKit`; the bot names no game.

Options (``--bot pimc,samples=20,...``): ``samples`` (deals per card decision, default by depth),
``bid_samples`` (default 250), ``time_limit`` (CPU seconds a decision may take, default 0.9; sampling
stops early when it would be exceeded), ``dd_tricks`` (solve exactly when holding at most this many cards;
default by table size, the game's :meth:`~fiftysix.bots.kits.GameKit.dd_tricks`), ``fast`` (half the
samples and one trick less deep, for arena runs), ``points_weight`` (what the average points add to a card's
chance of reaching its goal),
``bid_margin`` (expected tables, or points in 55, a bid must gain over passing), ``weights`` (weight the
sampled deals by the values bid, 56; off by default: in arena runs it made the bids worse), ``compete``
(look ahead to the opponents bidding on, 56), ``trusty`` (default true: never take a trick from a teammate whose
card is sure to win it when another legal card does not: the game kit's ``trust``, 56 only),
``contract_model`` (56: ``rules``, the default, the contract model fitted on deals the ``rules`` bot played out,
or ``solver``, fitted on their double-dummy values; 56-6 only, other tables keep ``rules``),
``alphamu`` (0, the default: off; ``M`` ≥ 2: plan our next ``M`` cards as one plan over the sampled deals in
short endings, :mod:`.alphamu`; two sides only, where the tree is small: 56-4 from three cards a hand).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from ...games import DEFAULT_GAME
from ...games.spec import Observation
from ..base import Bot, Seen, clock, legal_moves, make_bot, observed, register
from ..kits import KITS, Decision, SearchContext, SearchSettings, kit_for
from ..sampling import Sampler, sampler_for
from ..why import reason
from . import alphamu
from .ddplay import choose_card

CONTRACT_MODELS = ("rules", "solver")
"""What the 56 contract model is fitted on (``bots.heuristic.pimc_weights56.MODELS``): deals played out by the
``rules`` bot, or their double-dummy values."""
DEFAULT_TIME = 0.9
"""Seconds per decision at the default setting."""


def samples_for(cards_held: int, exact: bool, fast: bool = False) -> int:
    """Deals sampled per card decision (fewer when each solve is dear)."""
    n = {1: 1, 2: 24, 3: 40, 4: 48, 5: 32, 6: 24}.get(cards_held, 24) if exact else 32
    return max(1, n // 2) if fast else n


class PimcBot:
    """Perfect Information Monte Carlo; see the module documentation."""

    name = "pimc"

    def __init__(self, seed: int | None = None, samples: int | None = None, bid_samples: int | None = None,
                 time_limit: float | None = DEFAULT_TIME, dd_tricks: int | None = None, fast: bool = False,
                 points_weight: float = 0.5, bid_margin: float | None = None, weights: bool = False,
                 compete: bool = True, trusty: bool = True, contract_model: str = "rules",
                 alphamu: int = 0, game: str = DEFAULT_GAME) -> None:
        if samples is not None and samples < 1:
            raise ValueError(f"samples must be at least 1, not {samples}")
        if contract_model not in CONTRACT_MODELS:
            raise ValueError(f"contract_model must be one of {', '.join(CONTRACT_MODELS)}, not {contract_model!r}")
        if alphamu < 0:
            raise ValueError(f"alphamu must be 0 (off) or the number of our cards to plan together, not {alphamu}")
        self.contract_model = contract_model
        self.alphamu = int(alphamu)
        self.seed = seed
        self.rng = random.Random(seed)
        self.samples = samples
        self.fast = bool(fast)
        self.bid_samples = bid_samples if bid_samples is not None else (100 if self.fast else 250)
        self.time_limit = time_limit if time_limit is None or time_limit > 0 else None
        self.dd_depth = dd_tricks
        self.points_weight = float(points_weight)
        self.bid_margin = bid_margin
        self.weights = bool(weights)
        self.compete = bool(compete)
        self.trusty = bool(trusty)
        self.game = game
        self._fallback: Bot | None = None
        self._fallback_game: str | None = None
        self.reason: str | None = None
        """A short sentence on the last decision (:func:`fiftysix.bots.why.reason`), for the deal review."""
        self.last: dict[str, object] = {}
        """What the last decision did: ``how`` (``solver``, ``rules``, ``simulation``), ``samples``,
        ``seconds`` and the scores of the moves."""

    # -- dispatch ----------------------------------------------------------------------------------------
    def choose(self, seen: Seen) -> str:
        ctx = self.context(observed(seen))
        obs = ctx.obs
        legal = legal_moves(obs)
        start = time.perf_counter()
        self.last = {"how": "only move", "samples": 0}
        trust = ctx.kit.trust if self.trusty and obs.phase == "play" else None
        keep = trust.overtake_avoidable(obs) if trust is not None else []
        if keep:    # every later step, the rules card's included, chooses among these
            legal = keep + [m for m in legal if m == "?"]
            self.last = {"how": "trust", "samples": 0}
        if len(legal) == 1:
            self.reason = reason(obs, legal[0], self.last)
            return legal[0]
        try:
            move = self._choose(ctx, legal)
        except Exception as e:  # noqa: BLE001 - a search failure must never cost the move
            self.last = {"how": "fallback", "error": f"{type(e).__name__}: {e}"}
            move = self.rules_move(obs, legal)
        self.last["seconds"] = time.perf_counter() - start
        move = move if move in legal else self.rules_move(obs, legal)
        self.reason = reason(obs, move, self.last)
        return move

    def context(self, obs: Observation) -> SearchContext:
        """What this decision's search is given: the observation, its game's kit, this bot's settings, its
        random generator, its deals and its ``rules`` player (the game's kit looked up once a decision)."""
        settings = SearchSettings(self.samples, self.bid_samples, self.fast, self.time_limit, self.points_weight,
                                  self.bid_margin, self.weights, self.compete, self.contract_model)
        return SearchContext(obs, kit_for(obs.game), settings, self.rng, lambda: self.sampler(obs),
                             self.fallback(obs.game))

    def noted(self, decision: Decision) -> str:
        """The move of a search helper's ``decision``, keeping its note as :attr:`last` (if it made one)."""
        if decision.note is not None:
            self.last = dict(decision.note)
        return decision.move

    def _choose(self, ctx: SearchContext, legal: list[str]) -> str:
        chooser = ctx.kit.pimc_choosers.get(ctx.obs.phase)
        if chooser is not None:     # the calls, the trump choice, 55's discard: the game's own simulation
            return self.noted(chooser(ctx, legal))
        return self.play(ctx, legal)

    def rules_move(self, obs: Observation, legal: list[str]) -> str:
        """The ``rules`` bot's move among ``legal``: the seat's legal moves, or fewer (a trusty bot's). The
        observation itself stays as it is for the samplers, which read what its legal moves show."""
        if tuple(legal) != obs.legal:
            obs = obs.with_legal(legal)
        return self.fallback(obs.game).choose(obs)

    def fallback(self, game: str) -> Bot:
        """The game's ``rules`` bot, for what this bot does not search."""
        if self._fallback is None or self._fallback_game != game:
            self._fallback = make_bot("rules", seed=self.seed, game=game)
            self._fallback_game = game
        return self._fallback

    def sampler(self, obs: Observation) -> Sampler:
        """Where this bot's deals come from: the game's sampler for ``obs`` (a subclass may weight or replace
        it; the arena's all-seeing bot answers the true deal).

        :raises SamplingError: if no deal agrees with the observation.
        """
        return sampler_for(obs)

    # -- play ------------------------------------------------------------------------------------------
    def play(self, ctx: SearchContext, legal: list[str]) -> str:
        """The card: the ``rules`` card early in the deal, else the best over solved sampled deals (among
        ``legal``, which :meth:`choose` has narrowed for a ``trusty`` bot)."""
        obs = ctx.obs
        rules_move = None
        if "?" in legal:   # 56, hidden trump: ask for it as the rules bot would (the solver does not search it)
            rules_move = self.rules_move(obs, legal)
            if rules_move == "?":
                self.last = {"how": "rules", "samples": 0}
                return "?"
        cards = [m for m in legal if m not in ("?", "CLAIM")]
        if len(cards) == 1:
            return cards[0]
        held = len(obs.hand)
        players = obs.n or 4
        exact_depth, reach_depth = ctx.kit.dd_tricks(players, self.fast)
        if self.dd_depth is not None:
            exact_depth = reach_depth = self.dd_depth
        if held > reach_depth:
            move = rules_move or self.rules_move(obs, legal)
            self.last = {"how": "rules", "samples": 0}
            return move if move in cards else cards[0]
        exact = held <= exact_depth
        n = self.samples if self.samples is not None else samples_for(held, exact, self.fast)
        preferred = None if exact else (rules_move or self.rules_move(obs, legal))
        spent = 0.0
        worlds = alphamu.worlds_for(players, held, n, self.alphamu) if exact else 0
        if worlds:
            start = clock()
            budget = None if self.time_limit is None else self.time_limit / 2
            planned = alphamu.choose_card(ctx, cards, n, worlds, self.alphamu, budget)
            if planned is not None:
                return self.noted(planned)
            spent = clock() - start     # out of time: pimc chooses in what is left
        return self.noted(choose_card(ctx, cards, n, exact, preferred, spent))


def _factory(game: str) -> Callable[..., PimcBot]:
    def make(seed: int | None = None, **options: Any) -> PimcBot:
        return PimcBot(seed=seed, game=game, **options)
    return make


def register_games() -> None:
    """Register ``pimc`` for every game that has bots (``pimc:56``, ``pimc:55``)."""
    for game in KITS:
        register("pimc", _factory(game), game)

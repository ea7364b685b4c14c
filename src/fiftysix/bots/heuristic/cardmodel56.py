"""A learned model of where the unseen cards of a 56 deal lie, from one seat's view.

For every unseen card and every other seat that may still hold it (by everything the view shows: voids, bid-form
claims, cards played) the model gives a logit ``w · features(card, seat)`` plus ``log(cards the seat holds)``:
with ``w = 0`` each copy of a card is equally likely in each card place, the deal sampler's own prior. A copy's
chances over the seats are the softmax of those logits (a multinomial logistic model, Solinas et al., AAAI-19,
in its smallest form). The features are what a player reads from the table: who named the card's suit in the
auction and how high they went, who declares and with which trump, who has led or followed the suit.

The weights are fitted offline on self-play deals (``bench/train_cardmodel56.py``: its data recipe and the
held-out log loss) and shipped beside this module (``cardmodel56.npz``, a few hundred bytes). Inference is a
few numpy products per decision. :class:`CardLikelihood` weighs a sampled deal by the model's chance of its
hands, for the ``reader`` bot's weighted sampling (:mod:`..search.reader`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from ...core.deal import Deal
from .knowledge import SUITS, AuctionState, Table, rank_of, strength, suit_of

WEIGHTS_FILE = "cardmodel56.npz"

_POINT_CLASS = {"J": 0, "9": 1, "A": 2, "T": 2}
"""Rank classes: the jack, the nine, the ace and ten (1 point each), the rest (no points)."""
CLASSES = 4
MAX_OTHERS = 7
"""Other seats at the largest table (8 players): the width of the training arrays."""

FEATURES: tuple[str, ...] = (
    *(f"trump, seat declares, class {k}" for k in range(CLASSES)),
    *(f"trump, seat is the declarer's teammate, class {k}" for k in range(CLASSES)),
    *(f"trump, seat defends, class {k}" for k in range(CLASSES)),
    *(f"side suit, seat on the declaring team, class {k}" for k in range(CLASSES)),
    *(f"seat named the suit, class {k}" for k in range(CLASSES)),
    *(f"a teammate of the seat named the suit, class {k}" for k in range(CLASSES)),
    *(f"seat never bid, class {k}" for k in range(CLASSES)),
    *(f"seat is my teammate, class {k}" for k in range(CLASSES)),
    "seat's highest bid (0-1), trump",
    "seat's highest bid (0-1), jack or nine",
    "cards of the suit the seat has played (quarters)",
    "times the seat led the suit (halves)",
    "seat ruffed a trick, trump",
)
"""What each weight multiplies, in order (``class k``: the card's rank class, see ``_POINT_CLASS``)."""
WIDTH = len(FEATURES)
_BID_TRUMP, _BID_HIGH, _FOLLOWED, _LED, _RUFFED = range(WIDTH - 5, WIDTH)
"""Where the five features after the class-crossed ones sit."""


def point_class(card: str) -> int:
    return _POINT_CLASS.get(rank_of(card), 3)


class Observation:
    """One seat's view read for the model: the unseen cards, the seats that may hold them, their features."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        t = Table(view)
        a = AuctionState(view, t)
        self.others = [s for s in range(t.n) if s != t.seat]
        self.cards = sorted(t.outstanding, key=lambda c: (SUITS.index(suit_of(c)), -strength(c)))
        sizes = list(view.get("hand_sizes") or [0] * t.n)
        k, m = len(self.cards), len(self.others)
        self.features = np.zeros((k, m, WIDTH))
        self.allowed = np.zeros((k, m), dtype=bool)
        self.offset = np.zeros((k, m))
        trump = t.known_trump
        if trump is None and t.contract is not None and t.contract.get("strain") in SUITS:
            trump = str(t.contract["strain"])    # the declarer's own hidden trump
        named: list[set[str]] = [set() for _ in range(t.n)]
        top = [0] * t.n
        for seat, value, strain, _ in a.bids:
            top[seat] = max(top[seat], value)
            if strain in SUITS:     # the suit the bid named (read_bid: "NT" or None when it named none)
                named[seat].add(strain)
        led: list[list[str]] = [[] for _ in range(t.n)]
        ruffed = [False] * t.n
        for trick in list(view.get("tricks") or []) + ([view["trick"]] if view.get("trick") else []):
            cards = list(trick.get("cards") or [])
            if not cards:
                continue
            leader = int(trick["leader"])
            led[leader].append(suit_of(cards[0]))
            for i, c in enumerate(cards[1:], 1):
                if trump is not None and suit_of(c) == trump != suit_of(cards[0]):
                    ruffed[(leader + i) % t.n] = True
        for j, s in enumerate(self.others):
            held = sizes[s] if s < len(sizes) else 0
            team = t.team_of[s]
            declares = t.declarer == s
            declaring = t.declaring_team is not None and team == t.declaring_team
            mates_named = set().union(*(named[x] for x in range(t.n) if x != s and t.team_of[x] == team))
            for i, c in enumerate(self.cards):
                if held <= 0 or not t.may_hold_card(s, c):
                    continue
                self.allowed[i, j] = True
                self.offset[i, j] = math.log(held)
                f = self.features[i, j]
                u, pc = suit_of(c), point_class(c)
                if trump is not None and u == trump:
                    role = 0 if declares else 1 if declaring else 2
                    f[role * CLASSES + pc] = 1.0
                    f[_BID_TRUMP] = (top[s] - 27) / 29 if top[s] else 0.0
                    f[_RUFFED] = float(ruffed[s])
                elif trump is not None and declaring:
                    f[3 * CLASSES + pc] = 1.0
                if u in named[s]:
                    f[4 * CLASSES + pc] = 1.0
                if u in mates_named:
                    f[5 * CLASSES + pc] = 1.0
                if not top[s]:
                    f[6 * CLASSES + pc] = 1.0
                if team == t.team:
                    f[7 * CLASSES + pc] = 1.0
                if pc <= 1 and top[s]:
                    f[_BID_HIGH] = (top[s] - 27) / 29
                f[_FOLLOWED] = sum(1 for x in t.played_by[s].elements() if suit_of(x) == u) / 4
                f[_LED] = led[s].count(u) / 2

    def log_probabilities(self, weights: np.ndarray) -> np.ndarray:
        """``[card, other seat]``: log chance that a copy of the card lies with the seat (−inf where it cannot)."""
        logits = np.where(self.allowed, self.features @ weights + self.offset, -np.inf)
        top = logits.max(axis=1, keepdims=True)
        top[~np.isfinite(top)] = 0.0
        z = np.log(np.exp(logits - top).sum(axis=1, keepdims=True))
        out: np.ndarray = logits - top - z
        return out


class CardModel:
    """The weights and what they say about a view."""

    def __init__(self, weights: Sequence[float] | np.ndarray) -> None:
        self.weights = np.asarray(weights, dtype=float)
        if self.weights.shape != (WIDTH,):
            raise ValueError(f"the card model has {WIDTH} weights, not {self.weights.shape}")

    def observe(self, view: Mapping[str, Any]) -> tuple[Observation, np.ndarray]:
        obs = Observation(view)
        return obs, obs.log_probabilities(self.weights)

    def likelihood(self, view: Mapping[str, Any], strength: float = 1.0) -> CardLikelihood:
        return CardLikelihood(view, self, strength)


class CardLikelihood:
    """log P(a sampled deal's hands) under the model, less the uniform prior's (the sampler's own): the weight
    that turns the sampler's deals into the model's (``strength`` tempers it: 0 is the sampler, 1 the model)."""

    def __init__(self, view: Mapping[str, Any], model: CardModel, strength: float = 1.0) -> None:
        obs, logp = model.observe(view)
        uniform = obs.log_probabilities(np.zeros(WIDTH))
        gain = (np.where(obs.allowed, logp, 0.0) - np.where(obs.allowed, uniform, 0.0)) * strength
        self.others = obs.others
        self._gain = {(c, s): float(gain[i, j]) for i, c in enumerate(obs.cards)
                      for j, s in enumerate(obs.others) if obs.allowed[i, j]}

    def log_weight(self, deal: Deal) -> float:
        gain = self._gain
        total = 0.0
        hands = deal.hands
        for s in self.others:
            for card in hands[s]:
                total += gain.get((str(card), s), 0.0)
        return total


@cache
def shipped() -> CardModel:
    """The model shipped with the package (read once; no network)."""
    with resources.files(__package__).joinpath(WEIGHTS_FILE).open("rb") as f:
        data = np.load(f)
        names = tuple(str(x) for x in data["features"])
        if names != FEATURES:
            raise ValueError(f"{WEIGHTS_FILE} was trained on other features; retrain with bench/train_cardmodel56.py")
        return CardModel(data["weights"])

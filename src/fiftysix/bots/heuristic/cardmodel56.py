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
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from ...core.deal import Deal
from ...games.fifty_six import Observation56
from ..base import Seen
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


@dataclass(frozen=True)
class _SeatRead:
    """What the table shows of one other seat, for the features of the cards it may hold."""

    seat: int
    held: int                   # cards in its hand
    declares: bool
    declaring: bool             # on the declaring team
    my_team: bool
    top_bid: int                # its highest bid (0: it never bid)
    named: set[str]             # the suits its bids named
    mates_named: set[str]       # the suits its teammates' bids named
    led: list[str]              # the suit of each trick it led
    ruffed: bool
    played: Counter[str]        # the cards it has played


class SeatReading:
    """One seat's knowledge read for the model: the unseen cards, the seats that may hold them, their features."""

    def __init__(self, seen: Seen) -> None:
        t = Table(seen)
        self.others = [s for s in range(t.n) if s != t.seat]
        self.cards = sorted(t.outstanding, key=lambda c: (SUITS.index(suit_of(c)), -strength(c)))
        k, m = len(self.cards), len(self.others)
        self.features = np.zeros((k, m, WIDTH))
        self.allowed = np.zeros((k, m), dtype=bool)
        self.offset = np.zeros((k, m))
        trump = _trump_seen(t)
        for j, seat in enumerate(_read_seats(t, trump)):
            for i, c in enumerate(self.cards):
                if seat.held <= 0 or not t.may_hold_card(seat.seat, c):
                    continue
                self.allowed[i, j] = True
                self.offset[i, j] = math.log(seat.held)
                _card_features(self.features[i, j], c, seat, trump)

    def log_probabilities(self, weights: np.ndarray) -> np.ndarray:
        """``[card, other seat]``: log chance that a copy of the card lies with the seat (−inf where it cannot)."""
        logits = np.where(self.allowed, self.features @ weights + self.offset, -np.inf)
        top = logits.max(axis=1, keepdims=True)
        top[~np.isfinite(top)] = 0.0
        z = np.log(np.exp(logits - top).sum(axis=1, keepdims=True))
        out: np.ndarray = logits - top - z
        return out


Observation = SeatReading
"""The name ``bench/train_cardmodel56.py`` reads it by (kept apart from :class:`fiftysix.games.spec.Observation`,
the seat's knowledge this reading is made from)."""


def _trump_seen(t: Table) -> str | None:
    """The trump as this seat knows it: shown, or its own hidden trump as declarer."""
    if t.known_trump is None and t.strain in SUITS:
        return t.strain
    return t.known_trump


def _read_seats(t: Table, trump: str | None) -> list[_SeatRead]:
    """Every other seat as the auction and the tricks show it, in the order of ``SeatReading.others``."""
    named: list[set[str]] = [set() for _ in range(t.n)]
    top = [0] * t.n
    for seat, value, strain, _ in AuctionState(t).bids:
        top[seat] = max(top[seat], value)
        if strain in SUITS:     # the suit the bid named (read_bid: "NT" or None when it named none)
            named[seat].add(strain)
    led, ruffed = _leads_and_ruffs(t.obs, t.n, trump)
    sizes = t.obs.hand_sizes
    out = []
    for s in range(t.n):
        if s == t.seat:
            continue
        team = t.team_of[s]
        out.append(_SeatRead(
            seat=s, held=sizes[s] if s < len(sizes) else 0, declares=t.declarer == s,
            declaring=t.declaring_team is not None and team == t.declaring_team, my_team=team == t.team,
            top_bid=top[s], named=named[s],
            mates_named=set().union(*(named[x] for x in range(t.n) if x != s and t.team_of[x] == team)),
            led=led[s], ruffed=ruffed[s], played=t.played_by[s]))
    return out


def _leads_and_ruffs(obs: Observation56, n: int, trump: str | None) -> tuple[list[list[str]], list[bool]]:
    """Per seat: the suit of each trick it led, and whether it has trumped another suit's lead."""
    led: list[list[str]] = [[] for _ in range(n)]
    ruffed = [False] * n
    for trick in obs.all_tricks():
        cards = [str(c) for c in trick.cards]
        leader = trick.leader
        led[leader].append(suit_of(cards[0]))
        for i, c in enumerate(cards[1:], 1):
            if trump is not None and suit_of(c) == trump != suit_of(cards[0]):
                ruffed[(leader + i) % n] = True
    return led, ruffed


def _card_features(f: np.ndarray, c: str, seat: _SeatRead, trump: str | None) -> None:
    """Write the features of ``seat`` holding a copy of ``c`` into ``f`` (zeros before)."""
    u, pc = suit_of(c), point_class(c)
    top = seat.top_bid
    if trump is not None and u == trump:
        role = 0 if seat.declares else 1 if seat.declaring else 2
        f[role * CLASSES + pc] = 1.0
        f[_BID_TRUMP] = (top - 27) / 29 if top else 0.0
        f[_RUFFED] = float(seat.ruffed)
    elif trump is not None and seat.declaring:
        f[3 * CLASSES + pc] = 1.0
    if u in seat.named:
        f[4 * CLASSES + pc] = 1.0
    if u in seat.mates_named:
        f[5 * CLASSES + pc] = 1.0
    if not top:
        f[6 * CLASSES + pc] = 1.0
    if seat.my_team:
        f[7 * CLASSES + pc] = 1.0
    if pc <= 1 and top:
        f[_BID_HIGH] = (top - 27) / 29
    f[_FOLLOWED] = sum(1 for x in seat.played.elements() if suit_of(x) == u) / 4
    f[_LED] = seat.led.count(u) / 2


class CardModel:
    """The weights and what they say about a view."""

    def __init__(self, weights: Sequence[float] | np.ndarray) -> None:
        self.weights = np.asarray(weights, dtype=float)
        if self.weights.shape != (WIDTH,):
            raise ValueError(f"the card model has {WIDTH} weights, not {self.weights.shape}")

    def observe(self, seen: Seen) -> tuple[SeatReading, np.ndarray]:
        obs = SeatReading(seen)
        return obs, obs.log_probabilities(self.weights)

    def likelihood(self, seen: Seen, strength: float = 1.0) -> CardLikelihood:
        return CardLikelihood(seen, self, strength)


class CardLikelihood:
    """log P(a sampled deal's hands) under the model, less the uniform prior's (the sampler's own): the weight
    that turns the sampler's deals into the model's (``strength`` tempers it: 0 is the sampler, 1 the model)."""

    def __init__(self, seen: Seen, model: CardModel, strength: float = 1.0) -> None:
        obs, logp = model.observe(seen)
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

"""What a 56 seat knows, read from its view alone: card counting, voids, and what bid forms showed.

:class:`Table` is built once per decision from a view.  It tracks

* the cards played and the cards still out (neither played nor in the bot's hand);
* the suits each seat has shown void in (it did not follow), and the suits a seat showed void in by a
  ``NOES`` bid or whose holding it showed exactly (``+kH``: the k top hearts and no other heart);
* the cards each seat showed in the auction (``28H``: the J♥) and the ones it denied (``H28``: no J♥).

The bid forms are read with :func:`fiftysix.games.fifty_six.bid_claims` (from the one table of bid forms,
:data:`fiftysix.games.fifty_six.forms.FORMS`), the same reading the deal sampler uses, so the heuristic and
the search bots agree on what a call means.  A claim that cannot be true (the card has been seen elsewhere)
is ignored: other players may bid against the convention.

:class:`AuctionState` is the auction so far: value, bidder, strain, double, last suit named.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable

from ...core.cards import CARDS, Card, Suit
from ...games.fifty_six import RANKS, Observation56, Rules56, bid_claims, play
from ...games.sampling import Claim
from ..base import Seen, observed_as

ALL_RANKS = RANKS
_CARD: dict[str, Card] = {str(c): c for c in CARDS}
_SUIT: dict[str | None, Suit | None] = {None: None, **{s.letter: s for s in Suit}}
POINTS = {r: play.POINTS[_CARD[r + "S"]] for r in RANKS}
"""Card points by rank letter (from the game's play rule)."""
SUITS = ("S", "H", "D", "C")
STRAINS = ("S", "H", "D", "C", "NT")
DEFAULT_DECK = {4: 48, 6: 48, 8: 64}
"""The deck when the rules leave ``deck`` at its default (``rules-56.md``)."""


def rank_of(card: str) -> str:
    return card[0]


def suit_of(card: str) -> str:
    return card[1]


def strength(card: str) -> int:
    """Higher is stronger: J = 8 … 7 = 1 (the game's play rule)."""
    return play.STRENGTH[_CARD[card]]


def points(card: str) -> int:
    return play.POINTS[_CARD[card]]


def observed56(seen: Seen) -> Observation56:
    """What a 56 seat knows (:func:`fiftysix.bots.base.observed`).

    :raises ValueError: for a view of another game.
    """
    return observed_as(seen, Observation56, "56")


def rules_of(seen: Seen) -> Rules56:
    """The :class:`~fiftysix.games.fifty_six.rules.Rules56` a 56 seat plays by."""
    return observed56(seen).rules56


@functools.lru_cache(maxsize=256)
def _bid_claims(rules: Rules56, first_hand: int, calls: tuple[str, ...]) -> tuple[Claim, ...]:
    """The auction's claims, remembered: searching bots ask the ``rules`` policy about many sampled deals with
    the same public auction (``kermit``), and reading the forms was most of a decision's time."""
    return tuple(bid_claims(rules, first_hand, list(calls)))


def _exact_suits(claim: Claim) -> set[int]:
    """The suits a claim fixes exactly: as many cards at least as at most, all of them named cards."""
    return {int(x) for x, lo in claim.suit_lo for y, hi in claim.suit_hi if x == y and lo == hi
            and sum(k for c, k in claim.lo if c // 13 == int(x)) == lo}


class Table:
    """What the bot knows, computed once per decision from the seat's observation."""

    def __init__(self, seen: Seen) -> None:
        obs = observed56(seen)
        if obs.seat is None:
            raise ValueError("a spectator's view has no hand to play")
        rules = obs.rules56
        self.obs = obs
        self.rules = rules
        self.hand: list[str] = [str(c) for c in obs.hand]
        self.seat: int = obs.seat
        self.n: int = rules.players
        self.deck: int = rules.deck_size
        self.ranks: str = rules.ranks
        self.team_of: list[int] = list(rules.team_of)
        self.n_teams: int = rules.n_teams
        self.team = self.team_of[self.seat]
        self.bidding: str = rules.bidding
        trump = obs.trump_text
        self.known_trump: str | None = trump if trump in SUITS else None
        self.active_trump: str | None = None if obs.trump_hidden else self.known_trump
        self.declaring_team: int | None = obs.contract_team
        self.declarer: int | None = obs.declarer
        self.strain: str | None = obs.strain
        """The contract's strain as written (``"H"``, ``"NT"``), once the auction is over."""
        # cards seen
        self.played: Counter[str] = Counter()
        self.played_by: list[Counter[str]] = [Counter() for _ in range(self.n)]
        self.voids: list[set[str]] = [set() for _ in range(self.n)]
        for done in obs.tricks:
            self._see(done.leader, [str(c) for c in done.cards])
        trick = obs.trick
        self.trick_leader: int = trick.leader if trick is not None else self.seat
        self.trick_cards: list[str] = [str(c) for c in trick.cards] if trick is not None else []
        if trick is not None:
            self._see(trick.leader, self.trick_cards)
        mine = Counter(self.hand)
        self.outstanding: Counter[str] = Counter()
        for s in SUITS:
            for r in self.ranks:
                c = r + s
                left = 2 - self.played[c] - mine[c]
                if left > 0:
                    self.outstanding[c] = left
        # what the auction showed
        self.shown: list[Counter[str]] = [Counter() for _ in range(self.n)]
        self.denied: list[set[str]] = [set() for _ in range(self.n)]
        self.exact: list[dict[str, Counter[str]]] = [{} for _ in range(self.n)]
        self._read_bids(obs)

    def _see(self, leader: int, cards: list[str]) -> None:
        if not cards:
            return
        led = suit_of(cards[0])
        for i, c in enumerate(cards):
            seat = (leader + i) % self.n
            self.played[c] += 1
            self.played_by[seat][c] += 1
            if suit_of(c) != led:
                self.voids[seat].add(led)

    def _read_bids(self, obs: Observation56) -> None:
        """Fold the claims of the bid forms into :attr:`shown`, :attr:`denied`, :attr:`exact` and
        :attr:`voids` (cards the seat has played since are taken out)."""
        if not obs.auction:
            return
        try:
            claims = _bid_claims(self.rules, (obs.dealer + 1) % self.n, obs.auction)
        except Exception:   # noqa: BLE001 - a view whose auction cannot be read: know nothing from it
            return
        for claim in claims:
            if claim.seat != self.seat:
                self._fold_claim(claim)

    def _fold_claim(self, claim: Claim) -> None:
        """One seat's claim, less the cards it has played since: its voids, cards shown and denied, and the
        suits whose cards it showed exactly."""
        s = claim.seat
        played = self.played_by[s]
        for suit_int, hi in claim.suit_hi:
            letter = SUITS[int(suit_int)]
            if hi == 0 and not any(suit_of(c) == letter for c in played.elements()):
                self.voids[s].add(letter)
        for card, k in claim.lo:
            text = str(card)
            still = k - played[text]
            if still > 0 and self.outstanding[text] >= still:
                self.shown[s][text] = max(self.shown[s][text], still)
        for card, k in claim.hi:
            if k == 0:
                self.denied[s].add(str(card))
        for suit_int in _exact_suits(claim):
            self._fold_exact_suit(s, SUITS[suit_int], claim, played)

    def _fold_exact_suit(self, s: int, letter: str, claim: Claim, played: Counter[str]) -> None:
        """A suit of which the claim names every card: what of it ``s`` still holds, if those are still out."""
        held = Counter({str(c): k for c, k in claim.lo if str(c)[1] == letter})
        held.subtract(Counter(c for c in played.elements() if suit_of(c) == letter))
        held = +held
        if all(self.outstanding[c] >= k for c, k in held.items()):
            self.exact[s][letter] = held
            if not held:
                self.voids[s].add(letter)

    # -- helpers -----------------------------------------------------------------------------------------
    @property
    def first_hand(self) -> int:
        """The seat that made the auction's first call (the dealer's left)."""
        return (self.obs.dealer + 1) % self.n

    def is_partner(self, seat: int) -> bool:
        return self.team_of[seat] == self.team

    def key(self, card: str, led: str) -> int:
        """How high ``card`` ranks in a trick led in ``led`` (the game's play rule)."""
        return play.trick_key(_CARD[card], "SHDC".index(led), _SUIT[self.active_trump])

    def current_winner(self) -> tuple[int, str] | None:
        """Position in the trick and card of the card winning so far."""
        cards = self.trick_cards
        if not cards:
            return None
        best = play.trick_winner([_CARD[c] for c in cards], _SUIT[self.active_trump])   # the game's own rule
        return best, cards[best]

    def players_after(self) -> list[int]:
        pos = len(self.trick_cards)
        return [(self.trick_leader + k) % self.n for k in range(pos + 1, self.n)]

    def higher_outstanding(self, card: str) -> int:
        s, st = suit_of(card), strength(card)
        return sum(k for c, k in self.outstanding.items() if suit_of(c) == s and strength(c) > st)

    def outstanding_in(self, suit: str) -> int:
        return sum(k for c, k in self.outstanding.items() if suit_of(c) == suit)

    def may_hold_card(self, seat: int, card: str) -> bool:
        """Whether ``seat`` (not this bot) may still hold ``card``, by everything seen and shown."""
        if seat == self.seat or self.outstanding[card] == 0:
            return False
        s = suit_of(card)
        if s in self.voids[seat] or card in self.denied[seat]:
            return False
        exact = self.exact[seat].get(s)
        if exact is not None:
            return exact[card] > 0
        elsewhere = sum(self.shown[x][card] for x in range(self.n) if x != seat)
        elsewhere += sum(self.exact[x][s][card] for x in range(self.n) if x != seat and s in self.exact[x])
        return elsewhere < self.outstanding[card]

    def may_hold(self, seat: int, suit: str) -> bool:
        """Whether ``seat`` may still hold a card of ``suit``."""
        if suit in self.voids[seat] or seat == self.seat:
            return seat == self.seat and any(suit_of(c) == suit for c in self.hand)
        return any(self.may_hold_card(seat, c) for c in self.outstanding if suit_of(c) == suit)

    def may_hold_higher(self, seat: int, card: str) -> bool:
        s, st = suit_of(card), strength(card)
        return any(self.may_hold_card(seat, c) for c in self.outstanding if suit_of(c) == s and strength(c) > st)

    def can_be_beaten(self, card: str, led: str, seats: Iterable[int]) -> bool:
        """Whether one of ``seats`` (playing after) might beat ``card`` as the trick's best card."""
        s = suit_of(card)
        t = self.active_trump
        seats = list(seats)
        if not seats:
            return False
        if s == t:
            return any(self.may_hold_higher(x, card) for x in seats)
        if s != led:
            return True   # a discard never wins
        if any(self.may_hold_higher(x, card) for x in seats):
            return True
        if t is not None and self.outstanding_in(t) > 0:
            short = self.outstanding_in(s) < len(seats)
            for x in seats:
                if self.may_hold(x, t) and (not self.may_hold(x, s) or short):
                    return True
        return False

    def is_master(self, card: str) -> bool:
        return self.higher_outstanding(card) == 0

    def shown_suits(self, seats: Iterable[int]) -> set[str]:
        """Suits in which one of ``seats`` showed a top card in the auction."""
        return {suit_of(c) for x in seats for c in self.shown[x]}


class AuctionState:
    """The auction so far, read from the seat's knowledge: value, bidder, strain, double, last suit named."""

    def __init__(self, t: Table) -> None:
        self.value = 27
        self.bidder: int | None = None
        self.strain: str | None = None
        self.doubled = 0
        self.last_suit: str | None = None
        self.partner_bid = False
        self.bids: list[tuple[int, int, str | None, str]] = []
        """Every bid: (seat, value, strain or ``"NT"``, text)."""
        calls = t.obs.auction
        first = t.first_hand
        announcements = t.bidding == "announcements"
        for i, call in enumerate(calls):
            seat = (first + i) % t.n
            c = call.upper()
            if c == "P":
                if announcements and i == 0:
                    self._bid(seat, t, self.value + 1, None, None, c)
                continue
            if c == "X":
                self.doubled = 1
                continue
            if c == "XX":
                self.doubled = 2
                continue
            value, strain, suit = read_bid(c, self.value, announcements)
            self._bid(seat, t, value, strain, suit, c)
        self.closed = self.doubled > 0 and t.rules.double == "closes"

    def _bid(self, seat: int, t: Table, value: int, strain: str | None, suit: str | None, text: str) -> None:
        self.value = value
        self.bidder = seat
        self.strain = strain
        self.doubled = 0
        self.bids.append((seat, value, strain, text))
        if suit is not None:
            self.last_suit = suit
        if seat != t.seat and t.is_partner(seat):
            self.partner_bid = True

    def bids_by(self, seats: Iterable[int]) -> list[tuple[int, int, str | None, str]]:
        wanted = set(seats)
        return [b for b in self.bids if b[0] in wanted]


def read_bid(c: str, current: int, announcements: bool) -> tuple[int, str | None, str | None]:
    """Value, strain and named suit of a bid (``"NT"`` strain: no-trumps; ``None``: not shown)."""
    digits = ""
    i = 0
    while i < len(c) and c[i].isdigit():
        digits += c[i]
        i += 1
    suit = c[-1] if c[-1] in SUITS and not c.endswith("NOES") and not c.endswith("NOS") else None
    if c.startswith("+") and not announcements:
        k = int("".join(ch for ch in c[1:] if ch.isdigit()) or 1)
        return current + k, suit or "NT", suit
    if not announcements:
        if c[0] in SUITS:   # H28
            return int(c[1:]), c[0], c[0]
        return int(digits), suit or "NT", suit
    # announcements: a number then a suit or NT is a raise to that number; otherwise a relative raise
    rest = c[i:]
    if digits and rest in ("NT", "S", "H", "D", "C"):
        return int(digits), suit or "NT", suit
    if "+" in c and digits and not c.startswith("+"):
        k = int(digits)
        step = k if k >= 2 else 1
        return current + step, suit, suit
    return current + 1, suit if suit else ("NT" if c in ("NT", "NOS") or c.endswith("NOS") else None), suit

"""A heuristic computer player for 55 that uses nothing but its seat view.

Bidding: for each suit the bot counts what its trumps are worth in tricks (the 5, the J, the A♥, the ace
of the suit, the king, the others), adds a little for the kitty it would take and for side kings, and
bids the cheapest legal value its best suit can carry; the dealer holds on the same estimate.  It does
not outbid a partner without a clearly better hand.

Discard and trumps: it picks the suit with the most trump strength among its ten cards, keeps those
trumps and throws the weakest plain cards; then it names that suit.

Play: it tracks the cards played and leads the highest trump while that trump is the best one still
out; otherwise it leads low plain cards.  Following, it wins as cheaply as it can when the trick is not
already its side's, throws its lowest card when it cannot win, and uses the renege privilege: on a
lower trump lead it keeps the 5, J and A♥ back whenever the rules let it play another card.

The bot always answers a member of ``view["legal"]``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...core.cards import CARDS, Card, Suit
from ...games.fifty_five import Auction55, Rules55, parse_call, play, rules_of
from ..base import View, register

IS_TRUMP, KEY, PRIVILEGED, TRUMP_BASE, trick_winner = (play.IS_TRUMP, play.KEY, play.PRIVILEGED, play.TRUMP_BASE,
                                                       play.trick_winner)

# What one trump is worth in tricks, by its place in the trump order (5, J, A♥, A, K, Q, then the rest).
_TRUMP_TRICKS = (1.0, 0.9, 0.8, 0.65, 0.45, 0.35)
_OTHER_TRUMP = 0.25


def aggression(players: int) -> tuple[float, float]:
    """(what taking the kitty is worth in tricks, points the bot bids beyond its estimate).

    Fitted by self-play (bots of different settings at one table, seats alternating): the kitty and the
    trump choice are worth much at a small table, so bidding boldly pays; at a big one the other hands
    hold more trumps and the bot bids closer to its cards.
    """
    if players <= 4:
        return 1.5, 5.0
    if players <= 7:
        return 1.0, 3.0
    return 1.0, 2.0


def _cards(texts: Iterable[str]) -> list[Card]:
    return [Card.parse(t) for t in texts]


def trump_tricks(hand: Sequence[Card], trump: int) -> float:
    """Tricks the trumps of ``hand`` should take with ``trump`` as trumps."""
    key = KEY[trump]
    order = sorted((c for c in CARDS if IS_TRUMP[trump][c]), key=lambda c: -key[c])
    tricks = 0.0
    for c in hand:
        if IS_TRUMP[trump][c]:
            place = order.index(c)
            tricks += _TRUMP_TRICKS[place] if place < len(_TRUMP_TRICKS) else _OTHER_TRUMP
    return tricks


def side_tricks(hand: Sequence[Card], trump: int, players: int) -> float:
    """Plain kings are worth something at a small table, little at a big one."""
    kings = sum(1 for c in hand if not IS_TRUMP[trump][c] and KEY[trump][c] == 13)
    return kings * (0.5 if players <= 3 else 0.25 if players <= 5 else 0.1)


def best_suit(hand: Sequence[Card], players: int) -> tuple[int, float]:
    """The suit the hand plays best as trumps, and its trick estimate."""
    scored = [(trump_tricks(hand, s) + side_tricks(hand, s, players), s) for s in Suit]
    tricks, suit = max(scored, key=lambda x: (x[0], -x[1]))
    return suit, tricks


def estimate(hand: Sequence[Card], players: int, kitty: float) -> float:
    """Points the hand should take as bidder (with the kitty still to come)."""
    suit, tricks = best_suit(hand, players)
    bonus = 5.0 if any(c in PRIVILEGED[suit] and KEY[suit][c] == max(KEY[suit]) for c in hand) else 2.0
    return 5.0 * min(tricks + kitty, 5.0) + bonus


class Rules55Bot:
    """A 55 player of rules of thumb; see the module docstring."""

    name = "rules"

    def __init__(self, seed: int | None = None, aggression: tuple[float, float] | None = None) -> None:
        self.rng = random.Random(seed)
        self.aggression = aggression
        """``(kitty tricks, points beyond the estimate)``; ``None``: :func:`aggression` for the table."""

    def choose(self, view: View) -> str:
        legal: list[str] = list(view["legal"])
        if len(legal) == 1:
            return legal[0]
        phase = view.get("phase")
        if phase == "auction":
            return self._call(view, legal)
        if phase == "discard":
            return self._discard(view, legal)
        if phase == "trump":
            suit, _ = best_suit(_cards(view["hand"] or ()), view["rules"]["players"])
            letter = Suit(suit).letter
            return letter if letter in legal else legal[0]
        return self._play(view, legal)

    # -- auction ----------------------------------------------------------------------------------------
    def _call(self, view: Mapping[str, Any], legal: list[str]) -> str:
        rules = _rules(view)
        kitty, boldness = self.aggression or aggression(rules.players)
        worth = estimate(_cards(view["hand"]), rules.players, kitty) + boldness
        auction = replay_auction(view)
        high = auction.bidder
        if high is not None and rules.side_of[high] == rules.side_of[view["seat"]]:
            worth -= 10      # a partner holds the bid: raise only with a clearly better hand
        if "HOLD" in legal and high is not None and auction.value <= worth:
            return "HOLD"
        bids = [int(t) for t in legal if t.isdigit() and int(t) <= worth]
        if bids:
            return str(min(bids))
        return "P"

    # -- discard and trumps ---------------------------------------------------------------------------------
    def _discard(self, view: Mapping[str, Any], legal: list[str]) -> str:
        hand = _cards(view["hand"])
        suit, _ = best_suit(hand, view["rules"]["players"])
        key, is_trump = KEY[suit], IS_TRUMP[suit]
        # Keep trumps first, then plain cards by rank; throw the five least useful.
        order = sorted(hand, key=lambda c: (is_trump[c], key[c]))
        throw = set(order[:5])
        for text in legal:
            if set(_cards(text.split())) == throw:
                return text
        return legal[0]  # pragma: no cover - every 5 of the 10 cards is legal

    # -- play ------------------------------------------------------------------------------------------
    def _play(self, view: Mapping[str, Any], legal_texts: list[str]) -> str:
        trump = Suit.parse(view["trump"])
        key, is_trump = KEY[trump], IS_TRUMP[trump]
        legal = _cards(legal_texts)
        hand = _cards(view["hand"])
        trick = _cards((view.get("trick") or {}).get("cards", []))
        n = view["rules"]["players"]
        if not trick:
            return str(self._lead(view, trump, hand, legal))
        seat = view["seat"]
        leader = view["trick"]["leader"]
        best_i = trick_winner(trick, trump)
        side_of = _rules(view).side_of
        ours = side_of[(leader + best_i) % n] == side_of[seat]
        last = len(trick) == n - 1
        lowest = min(legal, key=lambda c: (is_trump[c], c in PRIVILEGED[trump], key[c]))
        led_trump = is_trump[trick[0]]
        if led_trump and any(not is_trump[c] for c in legal):
            # The renege privilege lets us keep the 5, J and A♥ back: do, unless one of them takes the
            # trick for good as the last card.
            winners = [c for c in legal if is_trump[c] and key[c] > key[trick[best_i]]]
            if last and winners and not ours:
                return str(min(winners, key=key.__getitem__))
            return str(lowest)
        if ours and (last or key[trick[best_i]] >= TRUMP_BASE + 12):
            return str(lowest)
        beats = [c for c in legal if _beats(trump, c, trick, best_i)]
        if beats:
            return str(min(beats, key=key.__getitem__))
        return str(lowest)

    def _lead(self, view: Mapping[str, Any], trump: int, hand: list[Card], legal: list[Card]) -> Card:
        key, is_trump = KEY[trump], IS_TRUMP[trump]
        out = _unseen_trumps(view, trump, hand)
        mine = sorted((c for c in legal if is_trump[c]), key=lambda c: -key[c])
        if mine and (not out or key[mine[0]] > max(key[c] for c in out)):
            return mine[0]      # the best trump still out: draw trumps
        plain = [c for c in legal if not is_trump[c]]
        if plain:
            kings = [c for c in plain if key[c] == 13]
            return kings[0] if kings else min(plain, key=key.__getitem__)
        return min(legal, key=key.__getitem__)


def _beats(trump: Suit, card: Card, trick: Sequence[Card], best_i: int) -> bool:
    """Whether ``card`` would take the trick from its best card so far."""
    return trick_winner([*trick, card], trump) == len(trick)


def _unseen_trumps(view: Mapping[str, Any], trump: int, hand: Sequence[Card]) -> list[Card]:
    seen = set(hand)
    for t in view.get("tricks", []):
        seen.update(_cards(t["cards"]))
    seen.update(_cards(view.get("discard") or []))
    return [c for c in CARDS if IS_TRUMP[trump][c] and c not in seen]


def _rules(view: Mapping[str, Any]) -> Rules55:
    rules = rules_of(view["rules"])
    assert isinstance(rules, Rules55)
    return rules


def replay_auction(view: Mapping[str, Any]) -> Auction55:
    """The public calls replayed through the game's own auction (the hold duel and all)."""
    auction = Auction55(_rules(view), view["dealer"])
    for text in view["auction"]:
        auction.push_unchecked(parse_call(text))
    return auction


register("rules:55", Rules55Bot)

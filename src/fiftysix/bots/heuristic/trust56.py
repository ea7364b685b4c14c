"""What makes a partner untrustworthy in 56, decided from a seat's view alone (what the bot itself could know).

The search bots reach these through the 56 kit (:attr:`fiftysix.bots.kits.GameKit.trust`); every function takes
a 56 seat's observation (or its JSON view, read by :func:`fiftysix.bots.base.observed`).

* **Overtaking a sure trick** (:func:`sure_for_partner`, :func:`overtakes`): a teammate's card is winning the
  trick and, from what the view shows (the cards played, the bot's own hand, the voids shown in play and by bid
  forms), no later player in the trick can hold a card that beats it: no outstanding higher card of the led suit
  in a hand not known void in it, and, with the trump known, no outstanding trump that beats it in a hand not
  known void in trumps (a hand that has not shown a void in the led suit may still ruff). While the trump is
  hidden and the bot does not know it, a later player may ask for it and ruff: nothing is sure. The bot then
  overtakes if its card takes the trick from the teammate (a higher card or a ruff) although it holds a legal
  card that does not.
* **A broken bid promise** (:func:`broken_promise`): the bid forms' claims (:func:`fiftysix.games.fifty_six.bid_claims`,
  the same structured promises the samplers read) checked against the hand the bidder holds.
* **A pass a simple count says must bid** (:func:`must_open`): nobody has bid yet and the hand holds a suit of
  four or more cards headed by its jack and nine (the two top cards, 5 of the suit's 7 points in one copy each).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ...core.cards import Card, Suit
from ...games import GAMES
from ...games.fifty_six import bid_claims
from ...games.sampling import Claim
from ..base import Seen
from .knowledge import Table, observed56, suit_of

__all__ = ["broken_promise", "must_open", "overtake_avoidable", "overtakes", "sure_for_partner"]


def _trick(seen: Seen) -> tuple[Table, list[Card], Suit | None]:
    t = Table(seen)
    trump = Suit.parse(t.active_trump) if t.active_trump else None
    return t, [Card.parse(c) for c in t.trick_cards], trump


def sure_for_partner(seen: Seen) -> bool:
    """A teammate's card is winning the trick and no later player can beat it (see the module text)."""
    obs = observed56(seen)
    if obs.phase != "play":
        return False
    t, cards, trump = _trick(obs)
    if not cards:
        return False
    rule = GAMES["56"].play
    n = t.n
    order = [(t.trick_leader + i) % n for i in range(len(cards))]
    winner = order[rule.trick_winner(cards, trump)]
    if winner == t.seat or t.team_of[winner] != t.team:
        return False
    hidden = obs.trump_hidden and trump is None
    led = suit_of(t.trick_cards[0])
    later = [(t.trick_leader + i) % n for i in range(len(cards) + 1, n)]
    for seat in later:
        if hidden and led not in t.voids[seat] and t.known_trump is None:
            return False     # it may turn out void, ask for the trump and ruff
        for text in t.outstanding:
            suit = suit_of(text)
            if suit in t.voids[seat]:
                continue
            if suit != led and (trump is None or suit != trump.letter):
                continue     # a discard never wins
            if rule.trick_winner([*cards, Card.parse(text)], trump) == len(cards):
                return False
    return True


def overtakes(seen: Seen, move: str) -> bool:
    """Playing ``move`` takes the trick from the teammate now winning it."""
    if move in ("?", "CLAIM"):
        return False
    _, cards, trump = _trick(seen)
    return bool(cards) and GAMES["56"].play.trick_winner([*cards, Card.parse(move)], trump) == len(cards)


def overtake_avoidable(seen: Seen) -> list[str]:
    """When the teammate's card is sure to win: the legal cards that do not take the trick from it (empty when
    the trick is not a teammate's sure one, or every legal card overtakes)."""
    obs = observed56(seen)
    if not sure_for_partner(obs):
        return []
    return [m for m in obs.legal or () if m not in ("?", "CLAIM") and not overtakes(obs, m)]


def _holds(hand: Sequence[str], claim: Claim) -> bool:
    cards = Counter(Card.parse(c) for c in hand)
    suits = Counter(int(c.suit) for c in cards.elements())
    return (all(cards[c] >= k for c, k in claim.lo) and all(cards[c] <= k for c, k in claim.hi)
            and all(suits[s] >= k for s, k in claim.suit_lo) and all(suits[s] <= k for s, k in claim.suit_hi))


def broken_promise(seen: Seen, move: str) -> bool:
    """``move`` is a bid whose form claims what the bidder's hand (in ``seen``) does not hold."""
    obs = observed56(seen)
    if obs.phase != "auction":
        return False
    rules = obs.rules56
    first = (obs.dealer + 1) % rules.players
    calls = list(obs.auction)
    try:
        before = len(bid_claims(rules, first, calls))
        after = bid_claims(rules, first, [*calls, move])
    except Exception:   # noqa: BLE001 - a call outside the bidding system promises nothing we can read
        return False
    mine = [c for c in after[before:] if c.seat == obs.seat]
    return any(not _holds([str(c) for c in obs.hand], c) for c in mine)


def must_open(seen: Seen) -> bool:
    """Nobody has bid and the hand has a suit of four or more cards headed by its jack and nine."""
    obs = observed56(seen)
    if obs.phase != "auction":
        return False
    if any(c.upper() not in ("P", "PASS") for c in obs.auction):
        return False
    hand = [str(c) for c in obs.hand]
    for suit in "SHDC":
        mine = [c for c in hand if c[1] == suit]
        if len(mine) >= 4 and any(c[0] == "J" for c in mine) and any(c[0] == "9" for c in mine):
            return True
    return False

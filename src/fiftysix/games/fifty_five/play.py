"""The card play of 55, in one place: the legal cards, the trick's winner and its points.

The card tables (``KEY``, ``IS_TRUMP``, ``PRIVILEGED``...) come from :mod:`.ranking`; the deal, the solver,
the samplers and the bots play by these functions (through the game's
:class:`~fiftysix.games.spec.GameSpec`).  On a plain lead: follow suit or trump, as the player likes
(free trumping), else any card.  On a trump lead: a trump if the player has one, except that the 5 and
J of trumps and the A♥ need not fall to a lower trump lead (the renege privilege).  The highest trump
wins, else the highest card of the suit led.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core.cards import CARDS, Card, Suit
from .ranking import EFFECTIVE_SUIT, IS_TRUMP, KEY, PRIVILEGED, SUIT, TRUMP_BASE
from .rules import TRICK_POINTS

POINTS: tuple[int, ...] = (0,) * 52
"""Cards carry no points in 55: a trick is worth :data:`TRICK_POINTS` whatever is in it."""

COPIES = 1
"""One pack of 52 cards."""
TRICK_BONUS = TRICK_POINTS
"""Each trick is worth 5 (the highest trump's 5 comes at the end of the deal)."""
FAMILY = "trump-or-follow"
"""Free trumping on a plain lead; a trump lead must be trumped, with the renege privilege (the solver
kernel's card-play family)."""

__all__ = ["COPIES", "EFFECTIVE_SUIT", "FAMILY", "IS_TRUMP", "KEY", "POINTS", "PRIVILEGED", "SLOTS", "SUIT",
           "TRICK_BONUS", "TRICK_POINTS", "TRUMP_BASE", "is_privileged", "legal_cards", "slot", "trick_points",
           "trick_winner"]


def legal_cards(hand: Sequence[Card], trick: Sequence[Card], trump: Suit | None) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played to ``trick`` (empty: a lead) with ``trump`` as trumps."""
    if not trick:
        return tuple(hand)
    assert trump is not None, "55 always has trumps"
    is_trump = IS_TRUMP[trump]
    led = trick[0]
    if is_trump[led]:
        trumps = tuple(c for c in hand if is_trump[c])
        key, privileged, led_key = KEY[trump], PRIVILEGED[trump], KEY[trump][led]
        # The renege privilege: 5, J and A♥ need not fall to a lower trump lead, but one ordinary
        # trump (or a privileged card below the lead) obliges the player to play a trump.
        for c in trumps:
            if c not in privileged or key[c] < led_key:
                return trumps
        return tuple(hand)
    suit = SUIT[led]
    if any(SUIT[c] == suit and not is_trump[c] for c in hand):
        # Free trumping: follow suit or trump, as the player likes.
        return tuple(c for c in hand if is_trump[c] or SUIT[c] == suit)
    return tuple(hand)


def trick_winner(cards: Sequence[Card], trump: Suit | None) -> int:
    """The index in ``cards`` (a trick, led first; complete or not) of the card winning it: the highest
    trump, or without trumps the highest card of the suit led."""
    assert trump is not None, "55 always has trumps"
    key, eff = KEY[trump], EFFECTIVE_SUIT[trump]
    led_suit = eff[cards[0]]
    best_i, best = 0, key[cards[0]]
    for i in range(1, len(cards)):
        k = key[cards[i]]
        if k > best and (k > TRUMP_BASE or eff[cards[i]] == led_suit):
            best, best_i = k, i
    return best_i


def trick_points(cards: Sequence[Card]) -> int:
    """What a complete trick is worth: :data:`TRICK_POINTS` (the highest-trump bonus comes at the end)."""
    return TRICK_BONUS


def _slots(trump: Suit) -> tuple[int, ...]:
    key, eff = KEY[trump], EFFECTIVE_SUIT[trump]
    out = [0] * 52
    for suit in Suit:
        cards = sorted((c for c in CARDS if eff[c] == suit), key=lambda c: -key[c])
        for i, c in enumerate(cards):
            out[c] = 16 * suit + i
    return tuple(out)


SLOTS: tuple[tuple[int, ...], ...] = tuple(_slots(s) for s in Suit)
"""``SLOTS[trump][card]``: ``16 * effective suit + order``, order 0 for the suit's highest card."""


def slot(card: Card, trump: Suit | None) -> int:
    """The card's place for the solver kernel."""
    assert trump is not None, "55 always has trumps"
    return SLOTS[trump][card]


def is_privileged(card: Card, trump: Suit | None) -> bool:
    """The 5 and J of trumps and the A♥ need not be played to a lower trump lead."""
    return trump is not None and card in PRIVILEGED[trump]

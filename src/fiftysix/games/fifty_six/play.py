"""The card play of 56, in one place: card tables, the legal cards, the trick's winner and its points.

The deal, the solver, the samplers and the bots all play by these functions (through the game's
:class:`~fiftysix.games.spec.GameSpec`).  Follow suit if able, no duty to trump; the highest trump
wins, else the highest card of the suit led; of two identical cards the first played wins.  The deal
adds what depends on its state: the hidden trump (``?``, and the asker's duty to trump) and claims.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core.cards import RANK_CHARS, Card, Suit
from .rules import RANK_POINTS, RANKS

STRENGTH: tuple[int, ...] = tuple(8 - RANKS.index(RANK_CHARS[i % 13]) if RANK_CHARS[i % 13] in RANKS else 0
                                  for i in range(52))
"""``STRENGTH[card]``: 8 for a jack down to 1 for a seven (0 for ranks 56 does not use)."""

POINTS: tuple[int, ...] = tuple(RANK_POINTS.get(RANK_CHARS[i % 13], 0) for i in range(52))
"""``POINTS[card]``: J 3, 9 2, A 1, T 1, the others 0 (56 points in a 32-card pack, twice)."""

SUIT: tuple[int, ...] = tuple(i // 13 for i in range(52))

COPIES = 2
"""Each card is in the pack twice."""
TRICK_BONUS = 0
"""A trick is worth its card points alone."""
FAMILY = "follow"
"""Follow suit if able, no duty to trump (the solver kernel's card-play family)."""

TRUMP_BONUS = 32
"""Added to a trump's strength when a trick is ranked (above any card of the suit led)."""
LED_BONUS = 16
"""Added to the strength of a card of the suit led (above any discard)."""


def legal_cards(hand: Sequence[Card], trick: Sequence[Card], trump: Suit | None) -> tuple[Card, ...]:
    """The distinct cards of ``hand`` that may be played to ``trick`` (empty: a lead), in the hand's order:
    the cards of the suit led if any, else every card.  ``trump`` does not matter (no duty to trump)."""
    distinct = tuple(dict.fromkeys(hand))
    if not trick:
        return distinct
    led = SUIT[trick[0]]
    follow = tuple(c for c in distinct if SUIT[c] == led)
    return follow or distinct


def trick_key(card: Card, led: int, trump: Suit | None) -> int:
    """How high ``card`` ranks in a trick led in suit ``led`` with ``trump`` (``None``: no trumps)."""
    s = SUIT[card]
    return STRENGTH[card] + (TRUMP_BONUS if s == trump else LED_BONUS if s == led else 0)


def trick_winner(cards: Sequence[Card], trump: Suit | None) -> int:
    """The index in ``cards`` (a trick, led first; complete or not) of the card winning it.

    ``trump`` is the suit acting as trumps (``None`` at no-trumps or while a hidden trump is not turned up).
    Of two identical cards the first played wins.
    """
    led = SUIT[cards[0]]
    best_i = 0
    best = STRENGTH[cards[0]] + (TRUMP_BONUS if led == trump else LED_BONUS)
    for i in range(1, len(cards)):
        c = cards[i]
        s = SUIT[c]
        key = STRENGTH[c] + (TRUMP_BONUS if s == trump else LED_BONUS if s == led else 0)
        if key > best:          # strictly higher: of two identical cards the first wins
            best, best_i = key, i
    return best_i


def trick_points(cards: Sequence[Card]) -> int:
    """The card points in ``cards``."""
    return sum(POINTS[c] for c in cards)


def slot(card: Card, trump: Suit | None) -> int:
    """The card's place for the solver kernel: ``16 * suit + order``, order 0 for the jack."""
    return 16 * SUIT[card] + RANKS.index(card.rank_char)


def is_privileged(card: Card, trump: Suit | None) -> bool:
    """No card of 56 has a legality rule of its own."""
    return False

"""The card play of 56 as the solver needs it: legal cards, the trick's winner and its points.

These mirror :mod:`fiftysix.games.fifty_six.deal` (its tables are used directly) for a position in the
play phase; the tests cross-check them against the engine on random deals.  A hidden trump that has not
been turned up acts as no trumps here, and the reveal move (``?``) is not part of the search.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.cards import Card, Suit
from ..games.fifty_six.play import POINTS, STRENGTH, SUIT
from ..games.fifty_six.rules import RANKS


class Play56:
    """Card play of 56: follow suit if able, no duty to trump, first of two identical cards wins."""

    name = "56"
    copies = 2
    trick_bonus = 0
    """Points a trick is worth besides its cards (none in 56)."""

    def legal(self, hand: Sequence[Card], trick: Sequence[Card], trump: Suit | None) -> tuple[Card, ...]:
        """The distinct cards of ``hand`` that may be played to ``trick``, in the hand's order."""
        distinct = tuple(dict.fromkeys(hand))
        if not trick:
            return distinct
        led = SUIT[trick[0]]
        follow = tuple(c for c in distinct if SUIT[c] == led)
        return follow or distinct

    def winner(self, trick: Sequence[Card], trump: Suit | None) -> int:
        """Index in ``trick`` (a complete trick, led first) of the card that wins it."""
        led = SUIT[trick[0]]
        best_i = 0
        best = STRENGTH[trick[0]] + (32 if led == trump else 16)
        for i in range(1, len(trick)):
            c = trick[i]
            s = SUIT[c]
            key = STRENGTH[c] + (32 if s == trump else 16 if s == led else 0)
            if key > best:  # strictly: of two identical cards the first played wins
                best, best_i = key, i
        return best_i

    def card_points(self, card: Card) -> int:
        return POINTS[card]

    def trick_points(self, trick: Sequence[Card]) -> int:
        return sum(POINTS[c] for c in trick)

    def slot(self, card: Card, trump: Suit | None) -> int:
        """The card's place for the fast kernel: ``16 * suit + order``, order 0 for the highest rank."""
        return 16 * SUIT[card] + RANKS.index(card.rank_char)

    def is_privileged(self, card: Card, trump: Suit | None) -> bool:
        """Whether the card has a legality rule of its own (none in 56)."""
        return False


PLAY56 = Play56()

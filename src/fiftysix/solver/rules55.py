"""The card play of 55 as the solver needs it, taken from :mod:`fiftysix.games.fifty_five`.

Legal cards come from the 55 deal code itself (:func:`fiftysix.games.fifty_five.deal.legal_cards`: free
trumping on a plain lead, the duty to trump on a trump lead with the renege privilege of the 5, J and A♥);
the ranking and the trick's winner from :mod:`fiftysix.games.fifty_five.ranking`.  Points: 5 a trick, and 5 for the
deal's highest trump, which goes to the side of the player who holds (or played) it: the whole deal
decides it, so it is a constant of the position (:attr:`Position.bonus_team`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.cards import CARDS, Card, Suit
from ..games.fifty_five.play import EFFECTIVE_SUIT, IS_TRUMP, KEY, PRIVILEGED, legal_cards, trick_winner
from ..games.fifty_five.rules import TRICK_POINTS


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


class Play55:
    """Card play of 55 (one pack, always a trump suit)."""

    name = "55"
    copies = 1
    trick_bonus = TRICK_POINTS

    def legal(self, hand: Sequence[Card], trick: Sequence[Card], trump: Suit | None) -> tuple[Card, ...]:
        """The cards of ``hand`` that may be played to ``trick``, by the 55 deal's own rule."""
        return legal_cards(hand, trick, trump)

    def winner(self, trick: Sequence[Card], trump: Suit | None) -> int:
        assert trump is not None, "55 always has trumps"
        return trick_winner(trick, trump)

    def card_points(self, card: Card) -> int:
        return 0

    def trick_points(self, trick: Sequence[Card]) -> int:
        return 0

    def slot(self, card: Card, trump: Suit | None) -> int:
        assert trump is not None, "55 always has trumps"
        return SLOTS[trump][card]

    def is_privileged(self, card: Card, trump: Suit | None) -> bool:
        return trump is not None and card in PRIVILEGED[trump]


PLAY55 = Play55()


def highest_trump_side(deal: Any) -> int | None:
    """The side that will score the bonus for the deal's highest trump: of the trumps played in completed
    tricks, in the current trick and still in hands (all of which will be played), the highest one's
    player or holder.  ``None`` if no trump is played in the whole deal."""
    trump = deal.trump
    key, is_trump = KEY[trump], IS_TRUMP[trump]
    best: tuple[int, int] | None = None
    if deal.highest is not None:
        seat, card, _ = deal.highest
        best = (key[card], seat)
    n = deal.n
    held = [((deal.trick_leader + i) % n, c) for i, c in enumerate(deal.trick_cards)]
    held += [(seat, c) for seat, hand in enumerate(deal.hands) for c in hand]
    for seat, c in held:
        if is_trump[c] and (best is None or key[c] > best[0]):
            best = (key[c], seat)
    return None if best is None else deal.rules.side_of[best[1]]


def position_from_deal55(cls: Any, deal: Any) -> Any:
    """The :class:`~fiftysix.solver.position.Position` of a 55 deal in its play phase."""
    return cls(
        "55",
        tuple(tuple(sorted(h)) for h in deal.hands),
        tuple(deal.trick_cards),
        deal.trick_leader,
        deal.trump,
        tuple(deal.rules.side_of),
        tuple(deal.points),
        highest_trump_side(deal),
    )

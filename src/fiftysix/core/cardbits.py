"""Hands as bitmasks: one bit per distinct card of a game, in the game's display order.

A hand is an ``int``: bit ``p`` set means the card at display position ``p`` is held.  Each suit owns a
fixed run of bits (56: 8, 55: 13), so the cards of one suit are one shift and one mask away, and a mask
turns back into the cards it holds, in display order, with one table lookup per suit.  56 holds each card
twice at most: its deals keep a second mask, of the cards held twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import Card


class _SuitCards(dict[int, tuple[Card, ...]]):
    """The cards of one suit's bits, filled in as they are asked for (13-bit suits have 8,192 of them)."""

    def __init__(self, cards: Sequence[Card], eager: bool) -> None:
        super().__init__()
        self.suit_cards = tuple(cards)
        if eager:
            for key in range(1 << len(cards)):
                self[key] = self.__missing__(key)

    def __missing__(self, key: int) -> tuple[Card, ...]:
        found = tuple(c for i, c in enumerate(self.suit_cards) if key >> i & 1)
        self[key] = found
        return found


class CardBits:
    """How one game lays its cards out as bits.

    :param order: the game's cards in display order, suit by suit (each suit's cards high to low).
    :param width: bits per suit; suit ``s`` starts at bit ``s * width``.
    :ivar bit: ``bit[card]`` is the card's bit, 0 for a card that is not in the game.
    :ivar suit_mask: every bit of each suit.
    :ivar suit_cards: per suit, the cards of a suit's bits (shifted down to bit 0), in display order.
    """

    def __init__(self, order: Sequence[Card], width: int) -> None:
        bit = [0] * 52
        per_suit: list[list[Card]] = [[], [], [], []]
        for c in order:
            s = int(c.suit)
            bit[c] = 1 << (s * width + len(per_suit[s]))
            per_suit[s].append(c)
        if max(len(p) for p in per_suit) > width:
            raise ValueError(f"a suit has more than {width} cards")
        self.width = width
        self.bit: tuple[int, ...] = tuple(bit)
        self.suit_mask: tuple[int, ...] = tuple(((1 << width) - 1) << (s * width) for s in range(4))
        self.shift: tuple[int, ...] = tuple(s * width for s in range(4))
        self.chunk = (1 << width) - 1
        self.suit_cards: tuple[dict[int, tuple[Card, ...]], ...] = tuple(
            _SuitCards(p, eager=width <= 8) for p in per_suit)

    def cards(self, mask: int) -> tuple[Card, ...]:
        """The cards of ``mask`` in display order."""
        t, w, f = self.suit_cards, self.width, self.chunk
        return t[0][mask & f] + t[1][mask >> w & f] + t[2][mask >> 2 * w & f] + t[3][mask >> 3 * w]

    def masks(self, cards: Iterable[Card], copies: int) -> tuple[int, int]:
        """The masks of the cards held at least once and of those held twice.

        :raises ValueError: for a card that is not in the game, or held more than ``copies`` times.
        """
        once = twice = 0
        bit = self.bit
        try:
            for c in cards:
                b = bit[c]
                if once & b:
                    if twice & b or copies == 1:
                        raise ValueError(f"a hand holds {c} more than {'once' if copies == 1 else 'twice'}")
                    twice |= b
                elif b and c >= 0:
                    once |= b
                else:
                    raise ValueError(f"{c} is not a card of the game")
        except (IndexError, TypeError):
            raise ValueError(f"{c} is not a card of the game") from None
        return once, twice

    def hand(self, once: int, twice: int) -> list[Card]:
        """The cards held, in display order, a card held twice twice."""
        out = list(self.cards(once))
        if twice:
            for c in self.cards(twice):     # each next to its first copy
                out.insert(out.index(c), c)
        return out

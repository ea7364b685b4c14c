"""Hands as bitmasks: one bit per distinct card of a game, in the game's display order.

A hand is an ``int``: bit ``p`` set means the card at display position ``p`` is held.  Each suit owns a
fixed run of bits (56: 8, 55: 13), so the cards of one suit are one shift and one mask away, and a mask
turns back into the cards it holds, in display order, with one table lookup per suit.  56 holds each card
twice at most: its deals keep a second mask, of the cards held twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import Card


class CardBits:
    """How one game lays its cards out as bits.

    :param order: the game's cards in display order, suit by suit (each suit's cards high to low).
    :param width: bits per suit; suit ``s`` starts at bit ``s * width``.
    :ivar bit: ``bit[card]`` is the card's bit, 0 for a card that is not in the game.
    :ivar suit_cards: per suit, a list indexed by a suit's bits (shifted down to bit 0) of their cards in
        display order.  Suits of up to 8 bits are filled in whole; wider ones (13 bits: 8,192 entries) hold
        ``None`` until :meth:`cards` is first asked for an entry.  Plain lists and tuples, because indexing
        them is what the interpreter does fastest.
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
        self._per_suit = tuple(tuple(p) for p in per_suit)
        self.suit_cards: tuple[list[tuple[Card, ...] | None], ...] = tuple(
            [None] * (1 << width) for _ in range(4))
        if width <= 8:
            for s in range(4):
                for key in range(1 << width):
                    self._fill(s, key)

    def _fill(self, suit: int, key: int) -> tuple[Card, ...]:
        found = tuple(c for i, c in enumerate(self._per_suit[suit]) if key >> i & 1)
        self.suit_cards[suit][key] = found
        return found

    def suit_table(self, suit: int) -> tuple[tuple[Card, ...], ...]:
        """Suit ``suit``'s cards of each of its bit patterns, as a tuple (layouts of up to 8 bits a suit).

        :raises ValueError: for a wider layout, whose lists are filled in as they are asked for.
        """
        if self.width > 8:
            raise ValueError("only layouts of up to 8 bits a suit are filled in whole")
        return tuple(t if t is not None else self._fill(suit, k) for k, t in enumerate(self.suit_cards[suit]))

    def cards(self, mask: int) -> tuple[Card, ...]:
        """The cards of ``mask`` in display order."""
        t, w, f = self.suit_cards, self.width, self.chunk
        try:
            return t[0][mask & f] + t[1][mask >> w & f] + t[2][mask >> 2 * w & f] + t[3][mask >> 3 * w]  # type: ignore[operator]
        except TypeError:   # an entry not filled in yet (None)
            return sum((t[s][k] or self._fill(s, k) for s, k in enumerate(
                (mask & f, mask >> w & f, mask >> 2 * w & f, mask >> 3 * w))), ())

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

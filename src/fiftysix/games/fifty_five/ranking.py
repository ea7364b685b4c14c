"""How 55's cards rank: one table per trump suit ("high in red, low in black").

The A♥ is always a trump, whatever suit is trumps, and never a heart when suit is followed.  Every table
is a tuple indexed by the card's int value, so card play never builds a dict or calls a method.

==========  ============================================
trumps      high → low
==========  ============================================
♥           5 J A K Q T 9 8 7 6 4 3 2
♦           5 J A♥ A K Q T 9 8 7 6 4 3 2
♣ or ♠      5 J A♥ A K Q 2 3 4 6 7 8 9 T
==========  ============================================

==========  ============================================
plain suit  high → low
==========  ============================================
♥           K Q J T 9 8 7 6 5 4 3 2
♦           K Q J T 9 8 7 6 5 4 3 2 A
♣ or ♠      K Q J A 2 3 4 5 6 7 8 9 T
==========  ============================================
"""

from __future__ import annotations

from ...core.cards import CARDS, RANK_CHARS, Card, Suit

ACE_OF_HEARTS: Card = CARDS[Suit.HEARTS * 13 + 12]

_TRUMP_ORDER = {  # high → low, without the A♥ (added on top of the suit's own ace below)
    Suit.HEARTS: "5JAKQT9876432",
    Suit.DIAMONDS: "5J*AKQT9876432",
    Suit.CLUBS: "5J*AKQ2346789T",
    Suit.SPADES: "5J*AKQ2346789T",
}
_PLAIN_ORDER = {
    Suit.HEARTS: "KQJT98765432",
    Suit.DIAMONDS: "KQJT98765432A",
    Suit.CLUBS: "KQJA23456789T",
    Suit.SPADES: "KQJA23456789T",
}

TRUMP_BASE = 100
"""Trumps rank from ``TRUMP_BASE`` up, so any trump beats any plain card."""

SUIT: tuple[int, ...] = tuple(i // 13 for i in range(52))


def _tables(trump: Suit) -> tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...], frozenset[Card]]:
    key = [0] * 52
    eff = [0] * 52
    order = _TRUMP_ORDER[trump]
    for i, ch in enumerate(order):
        c = ACE_OF_HEARTS if ch == "*" else CARDS[trump * 13 + RANK_CHARS.index(ch)]
        key[c] = TRUMP_BASE + len(order) - i
        eff[c] = trump
    for suit in Suit:
        if suit == trump:
            continue
        plain = _PLAIN_ORDER[suit]
        for i, ch in enumerate(plain):
            c = CARDS[suit * 13 + RANK_CHARS.index(ch)]
            key[c] = len(plain) - i
            eff[c] = suit
    is_trump = tuple(eff[c] == trump for c in range(52))
    five, jack = (CARDS[trump * 13 + RANK_CHARS.index(r)] for r in "5J")
    return tuple(key), tuple(eff), is_trump, frozenset((five, jack, ACE_OF_HEARTS))


_ALL = {s: _tables(s) for s in Suit}

KEY: tuple[tuple[int, ...], ...] = tuple(_ALL[s][0] for s in Suit)
"""``KEY[trump][card]``: higher wins.  Trumps from ``TRUMP_BASE + 1`` up; plain cards 1-13 in their suit."""

EFFECTIVE_SUIT: tuple[tuple[int, ...], ...] = tuple(_ALL[s][1] for s in Suit)
"""``EFFECTIVE_SUIT[trump][card]``: the suit a card belongs to in play (the A♥ belongs to trumps)."""

IS_TRUMP: tuple[tuple[bool, ...], ...] = tuple(_ALL[s][2] for s in Suit)

PRIVILEGED: tuple[frozenset[Card], ...] = tuple(_ALL[s][3] for s in Suit)
"""The 5 and J of trumps and the A♥: the cards that need not be played to a lower trump lead."""


def trump_order(trump: Suit) -> list[Card]:
    """The trumps of ``trump``, highest first."""
    return sorted((c for c in CARDS if IS_TRUMP[trump][c]), key=lambda c: -KEY[trump][c])


def plain_order(suit: Suit, trump: Suit) -> list[Card]:
    """The plain cards of ``suit`` when ``trump`` is trumps, highest first."""
    eff, key = EFFECTIVE_SUIT[trump], KEY[trump]
    return sorted((c for c in CARDS if eff[c] == suit and not IS_TRUMP[trump][c]), key=lambda c: -key[c])

"""Cards and their notation, shared by 56 and 55.

A :class:`Card` is a small immutable value (an ``int`` underneath, so that hands and decks can also be
bitmasks) with one canonical text form, rank then suit: ``JS``, ``TH``, ``5D``.  Parsing is lenient:
``10♥``, ``jh``, ``J♥`` and ``J♥️`` (with the emoji presentation selector phone keyboards add) all read
as ``JH``.  Which ranks exist, how they rank and what they are worth
is decided by each game, not here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum

from .errors import NotationError
from .meaning import Meaning

RANK_CHARS = "23456789TJQKA"
"""Rank letters by index: ``2`` is 0, ``A`` is 12."""

VARIATION_SELECTORS = str.maketrans({"\ufe0f": None, "\ufe0e": None})
"""Emoji (U+FE0F) and text (U+FE0E) presentation selectors: phone keyboards type ``♠️`` for ``♠``.
The lenient parsers drop them; canonical text never has them."""


def plain(text: str) -> str:
    """``text`` without presentation selectors, stripped and upper-cased: what the parsers read."""
    return text.translate(VARIATION_SELECTORS).strip().upper()


class Suit(IntEnum):
    """The four suits, in the order the rules files list them."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def word(self) -> str:
        return ("spades", "hearts", "diamonds", "clubs")[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read ``S``, ``♠`` or ``spades`` (any case).

        :raises NotationError: if the text is not a suit.
        """
        t = plain(text)
        found = _SUIT_WORDS.get(t)
        if found is None:
            raise NotationError(Meaning("malformed suit {text}; suits are S H D C", {"text": repr(text)}))
        return found


SUITS: tuple[Suit, ...] = tuple(Suit)

_SUIT_WORDS: dict[str, Suit] = {}
for _s in SUITS:
    for _w in (_s.letter, _s.symbol, _s.word.upper(), _s.word.upper()[:-1]):
        _SUIT_WORDS[_w] = _s
for _w, _s in (("♤", Suit.SPADES), ("♡", Suit.HEARTS), ("♢", Suit.DIAMONDS), ("♧", Suit.CLUBS)):
    _SUIT_WORDS[_w] = _s


class Card(int):
    """One card: ``suit * 13 + rank``, with ``rank`` 0 for the 2 up to 12 for the ace.

    Cards are interned: ``Card.parse("JS") is Card.parse("js")``.  Use :data:`CARDS` or
    :meth:`Card.parse` to get one; two copies of a card in 56 are the same value.
    """

    __slots__ = ()

    @property
    def suit(self) -> Suit:
        return _SUIT_OF[self]

    @property
    def rank(self) -> int:
        return self % 13

    @property
    def rank_char(self) -> str:
        return RANK_CHARS[self % 13]

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Card({_TEXT[self]!r})"

    @property
    def pretty(self) -> str:
        """The card with its suit symbol, for people: ``J♠``, ``10♥``."""
        r = self.rank_char
        return ("10" if r == "T" else r) + self.suit.symbol

    @staticmethod
    def parse(text: str, ranks: str = RANK_CHARS) -> Card:
        """Read one card, leniently: rank then suit, ``10`` for ``T``, suit symbols, any case.

        :param ranks: the rank letters that exist in the game, for the error message and the check.
        :raises NotationError: if the text is not a card of the game.
        """
        if not isinstance(text, str):
            raise NotationError(_malformed(text, ranks))
        t = plain(text).replace(" ", "")
        if t.startswith("10"):
            t = "T" + t[2:]
        card = _PARSE.get(t)
        if card is None or RANK_CHARS[card % 13] not in ranks:
            raise NotationError(_malformed(text, ranks))
        return card


def _card_help(ranks: str) -> Meaning:
    order = " ".join(ranks)
    example = "JS, TH" if ranks.startswith("J") else "5H, TS"
    return Meaning("cards are rank then suit, ranks {order}, suits S H D C (e.g. {example})",
                   {"order": order, "example": example})


def _malformed(text: object, ranks: str) -> Meaning:
    return Meaning("malformed card {text}; {help}", {"text": repr(text), "help": _card_help(ranks)})


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
_SUIT_OF: tuple[Suit, ...] = tuple(Suit(i // 13) for i in range(52))
_TEXT: tuple[str, ...] = tuple(RANK_CHARS[i % 13] + "SHDC"[i // 13] for i in range(52))
_PARSE: dict[str, Card] = {}
for _c in CARDS:
    _PARSE[_TEXT[_c]] = _c
    _PARSE[RANK_CHARS[_c % 13] + _SUIT_OF[_c].symbol] = _c
for _alt, _s in (("♤", Suit.SPADES), ("♡", Suit.HEARTS), ("♢", Suit.DIAMONDS), ("♧", Suit.CLUBS)):
    for _r in range(13):
        _PARSE[RANK_CHARS[_r] + _alt] = CARDS[_s * 13 + _r]


def card(rank: str, suit: Suit) -> Card:
    """The card of that rank letter and suit."""
    return CARDS[suit * 13 + RANK_CHARS.index(rank)]


def parse_cards(text: str | Sequence[str], ranks: str = RANK_CHARS) -> list[Card]:
    """Read a hand: a string ``"JS 9S AH"`` or a list ``["JS", "9S", "AH"]``.

    :raises NotationError: on the first malformed card, or if the value is neither.
    """
    if isinstance(text, str):
        items: Iterable[object] = text.split()
    elif isinstance(text, (list, tuple)):
        items = text
    else:
        raise NotationError(Meaning("cards must be a string or a list of cards, not {value}", {"value": repr(text)}))
    out = []
    for item in items:
        if not isinstance(item, str):
            raise NotationError(_malformed(item, ranks))
        out.append(Card.parse(item, ranks))
    return out


def cards_text(cards: Iterable[Card]) -> str:
    """Canonical text of several cards: ``"JS 9S AH"``."""
    return " ".join(_TEXT[c] for c in cards)

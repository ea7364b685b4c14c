"""Move value types shared by both games.

A move is one of: a :class:`~fiftysix.core.cards.Card` played to a trick, a :class:`Call` in the
auction, a :class:`TrumpChoice`, a :class:`Discard` (55), :data:`REVEAL` (ask for a hidden trump, 56)
or :data:`CLAIM` (56, option ``claim``).  Every move has one canonical text form, ``str(move)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import ClassVar, Self, TypeAlias

from .cards import Card, Suit, cards_text

Strain: TypeAlias = Suit | None
"""A trump suit, or ``None`` for no-trumps."""


def strain_text(strain: Strain) -> str:
    return "NT" if strain is None else strain.letter


def strain_word(strain: Strain) -> str:
    return "no-trumps" if strain is None else strain.word


@dataclass(frozen=True, slots=True)
class Call:
    """One call of an auction: a pass, a double, a redouble, a hold (55) or a bid.

    :ivar text: canonical notation (``28H``, ``+2NOES``, ``P``).
    :ivar kind: ``"pass"``, ``"double"``, ``"redouble"``, ``"hold"`` or ``"bid"``.
    :ivar form: the written form (``"number-suit"``, ``"plus"``, ...), for bids.
    :ivar value: for bids whose value is fixed by the text alone, that value; ``None`` when it
        depends on the auction so far (``+2H`` adds to the current bid).
    :ivar step: for relative bids, how much they add.
    :ivar suit: the suit the bid names, if any.
    :ivar strain: for 56 bids, the strain they make the contract; for others ``None``.
    :ivar k: the number in forms such as ``+kH``, ``-kH``, ``kNOS``.
    """

    text: str
    kind: str
    form: str = ""
    value: int | None = None
    step: int = 0
    suit: Suit | None = None
    strain: Strain = None
    k: int = 0

    def __str__(self) -> str:
        return self.text

    @property
    def is_bid(self) -> bool:
        return self.kind == "bid"

    # The auctions tell P, X, XX and HOLD by identity: a copied or unpickled deal must keep the constants.
    def __copy__(self) -> Call:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Call:
        return self

    def __reduce__(self) -> str | tuple[object, ...]:
        if self.kind in _CONSTANT_NAMES:
            return _CONSTANT_NAMES[self.kind]
        return (Call, (self.text, self.kind, self.form, self.value, self.step, self.suit, self.strain, self.k))


PASS = Call("P", "pass")
DOUBLE = Call("X", "double")
REDOUBLE = Call("XX", "redouble")
HOLD = Call("HOLD", "hold")
_CONSTANT_NAMES = {"pass": "PASS", "double": "DOUBLE", "redouble": "REDOUBLE", "hold": "HOLD"}


@dataclass(frozen=True, slots=True)
class TrumpChoice:
    """The declarer's (56) or bidder's (55) choice of trumps after the auction."""

    strain: Strain

    def __str__(self) -> str:
        return strain_text(self.strain)


@dataclass(frozen=True, slots=True)
class Discard:
    """The 55 bidder's five discards after taking the kitty (cards in canonical order)."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return cards_text(self.cards)


_SET_CARDS: Callable[[Discard, tuple[Card, ...]], None] = vars(Discard)["cards"].__set__


def discards(choices: Iterable[tuple[Card, ...]]) -> tuple[Discard, ...]:
    """``tuple(map(Discard, choices))``, five times faster: 55's bidder has 252 discards to list, and the frozen
    dataclass's ``__init__`` is the slow part of making each."""
    new, set_cards = object.__new__, _SET_CARDS
    out = []
    for cards in choices:
        move = new(Discard)
        set_cards(move, cards)
        out.append(move)
    return tuple(out)


class _OneMove:
    """A move that is one object (:data:`REVEAL`, :data:`CLAIM`): copied and pickled as itself, by its name."""

    __slots__ = ()
    _NAME: ClassVar[str]
    """The module's name for the one object (its text too, but for ``?``)."""

    def __str__(self) -> str:
        return self._NAME

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        return self

    def __reduce__(self) -> str:
        return self._NAME


@dataclass(frozen=True, slots=True)
class Reveal(_OneMove):
    """Ask for a hidden trump to be turned up before playing (56, ``trump: hidden``)."""

    _NAME = "REVEAL"

    def __str__(self) -> str:
        return "?"


@dataclass(frozen=True, slots=True)
class Claim(_OneMove):
    """Claim the rest of the tricks once the outcome can no longer change (56, option ``claim``)."""

    _NAME = "CLAIM"


REVEAL = Reveal()
CLAIM = Claim()

Move: TypeAlias = Card | Call | TrumpChoice | Discard | Reveal | Claim

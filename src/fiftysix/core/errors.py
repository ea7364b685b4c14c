"""The exception family of the rules core.

Every error says what was wrong and, where it can, what is allowed instead.
A refused move never changes the state it was offered to.
"""

from __future__ import annotations

from collections.abc import Sequence


class FiftySixError(Exception):
    """Base class of every error raised by this package."""


class NotationError(FiftySixError, ValueError):
    """Text that is not a card, call or move of the game at all (``JSS``, ``p``)."""


class RulesError(FiftySixError, ValueError):
    """An unknown preset, an unknown option or an option value the game does not allow."""


class IllegalMoveError(FiftySixError, ValueError):
    """A well-formed move that the rules do not allow now.

    :ivar legal: the moves that are legal instead, in canonical notation.
    """

    def __init__(self, message: str, legal: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.legal: tuple[str, ...] = tuple(legal)


class NotYourTurnError(IllegalMoveError):
    """A move offered for a seat that is not the seat to move."""


class WrongPhaseError(IllegalMoveError):
    """A move of the wrong kind for the phase: a card during the auction, a call after it ended."""


class CardNotHeldError(IllegalMoveError):
    """A card that the player does not hold."""


class MustFollowError(IllegalMoveError):
    """A card that breaks the duty to follow suit (or, in 55, to trump)."""


class CallNotAllowedError(IllegalMoveError):
    """A call that the auction does not allow now (too low, a double of one's own team...)."""


class DealOverError(IllegalMoveError):
    """Any move after the deal has ended."""


class RecordError(FiftySixError, ValueError):
    """A game record that is malformed or replays an illegal move.

    :ivar field: the record field of the first bad entry (``hands``, ``auction``, ``play``...).
    :ivar index: the position of that entry in the field, or ``None`` for fields that are not lists.
    """

    def __init__(self, field: str, index: int | None, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.index = index
        self.message = message

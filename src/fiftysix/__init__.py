"""fiftysix: the South Indian card game 56 and its Irish cousin 55.

The rules core (``fiftysix.core`` and ``fiftysix.games``) is pure Python with no I/O.  Start with::

    from fiftysix import Rules56, Deal56, view, check
    deal = Deal56.from_seed(Rules56.from_json("56-6"), seed=1)
    deal.legal_moves(); deal.push("28H")
"""

from __future__ import annotations

from .core.cards import CARDS, Card, Suit
from .core.errors import (
    CallNotAllowedError,
    CardNotHeldError,
    DealOverError,
    FiftySixError,
    IllegalMoveError,
    MustFollowError,
    NotationError,
    NotYourTurnError,
    RecordError,
    RulesError,
    WrongPhaseError,
)
from .core.moves import Call, Discard, Move, TrumpChoice
from .games import GAMES, game_named, game_of_preset
from .games.fifty_five import Deal55, Match55, Rules55
from .games.fifty_six import Deal56, Match56, Rules56
from .records import check, check_text, deal_record, read_deal
from .views import view

__version__ = "0.1.0"

__all__ = [
    "CARDS", "Call", "CallNotAllowedError", "Card", "CardNotHeldError", "Deal55", "Deal56", "DealOverError",
    "Discard", "FiftySixError", "GAMES", "IllegalMoveError", "Match55", "Match56", "Move", "MustFollowError",
    "NotationError", "NotYourTurnError", "RecordError", "Rules55", "Rules56", "RulesError", "Suit", "TrumpChoice",
    "WrongPhaseError",
    "check", "check_text", "deal_record", "game_named", "game_of_preset", "read_deal", "view",
]

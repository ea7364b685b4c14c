"""55's fixed vocabulary for a fixed action space (the research adapters): every call an auction can ever
allow, the longest auction, the choices after the calls, and the range of a deal's score."""

from __future__ import annotations

from ...core.moves import HOLD, PASS, Call
from ..spec import ScoreRange
from .auction import BID_CALLS
from .deal import TRUMP_CHOICES
from .rules import BIDS, SLAM, Rules55


def call_vocabulary(rules: Rules55) -> list[Call]:
    """Every call an auction can ever allow, in a fixed order: pass, hold, then the bids from the lowest."""
    return [PASS, HOLD, *BID_CALLS]


def auction_bound(rules: Rules55) -> int:
    """The most calls an auction can hold: a round of calls, at most a bid and a hold for each bid value, and
    the closing calls."""
    return rules.players + 2 * len(BIDS) + 2


def choice_texts(rules: Rules55) -> list[str]:
    """The moves besides calls and cards (the discard is made of card moves): the bidder's trump suits."""
    return [str(t) for t in TRUMP_CHOICES]


def score_range(rules: Rules55) -> ScoreRange:
    """A side's score of one deal: within a slam made or failed; the sides' scores need not sum to zero."""
    return ScoreRange(-SLAM, SLAM, zero_sum=False)

"""56's fixed vocabulary for a fixed action space (the research adapters): every call an auction can ever
allow, the longest auction, the choices after the calls, and the range of a deal's score."""

from __future__ import annotations

from ...core.moves import CLAIM, DOUBLE, PASS, REDOUBLE, REVEAL, Call
from ..spec import ScoreRange
from .calls import MAX_BID, MIN_BID, legal_bids
from .deal import TRUMP_CHOICES
from .rules import Rules56
from .scoring import payment

_MOST_MULTIPLIED = 4
"""A redoubled contract pays four times."""


def call_vocabulary(rules: Rules56) -> list[Call]:
    """Every call an auction under ``rules`` can ever allow, in a fixed order: pass, double, redouble, then the
    bids as :func:`~.calls.legal_bids` lists them."""
    out: dict[str, Call] = {c.text: c for c in (PASS, DOUBLE, REDOUBLE)}
    suit_size = rules.deck_size // 4
    # the absolute forms are all allowed before any bid; the relative forms over the lowest bid reach
    # every step to 56; a "k-th last suit" form is bounded by the number of bids an auction can hold
    for current, first in ((MIN_BID - 1, True), (MIN_BID, False)):
        for call in legal_bids(rules.bidding, current, first, MAX_BID - MIN_BID + 1, suit_size)[0]:
            out.setdefault(call.text, call)
    return list(out.values())


def auction_bound(rules: Rules56) -> int:
    """The most calls an auction can hold: each bid raises (at most 29 bids, 28 to 56), and between two bids
    at most a double, a redouble and the passes of one round each."""
    n = rules.players
    bids = MAX_BID - MIN_BID + 1
    return (n - 1) + bids * (2 * n + 1) + 1


def choice_texts(rules: Rules56) -> list[str]:
    """The moves besides calls and cards, in a fixed order: the trump choices (unless the contract's strain is
    trumps), ``?`` with a hidden trump, ``CLAIM`` when claims are allowed."""
    out = [str(t) for t in TRUMP_CHOICES] if rules.trump != "bid" else []
    if rules.trump == "hidden":
        out.append(str(REVEAL))
    if rules.claim:
        out.append(str(CLAIM))
    return out


def score_range(rules: Rules56) -> ScoreRange:
    """A team's score of one deal: at most a failed 56 redoubled, paid to (or by) each other team; in tables
    what one team gains the others lose, in points nobody loses."""
    most = payment(MAX_BID)[1] * _MOST_MULTIPLIED * (rules.n_teams - 1)
    if rules.scoring == "tables":
        return ScoreRange(-most, most, zero_sum=True)
    return ScoreRange(0, most, zero_sum=False)

"""What each 56 bid form promises, in one table: the words of the auction's meanings and the claims the
deal sampler (and the bots' card reading) use both come from :data:`FORMS`, so they cannot drift apart.

``docs/spec/rules-56.md``: ``28H`` holds the J of hearts, ``H28`` does not, ``+kH`` holds exactly the k
top hearts and no other heart, ``NOES`` is void in the suit named; the announcement forms of ``bidding:
announcements`` show top cards (counted from the first not yet announced) and a length.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Protocol

from ...core.cards import Card, Suit, card
from ...core.meaning import N_, Meaning, suit_word
from ...core.moves import Call
from ..sampling import Claim
from .calls import MIN_BID, resulting_value
from .rules import RANKS, Rules56


def _zero(call: Call, raised: int) -> int:
    return 0


def _one(call: Call, raised: int) -> int:
    return 1


def _k(call: Call, raised: int) -> int:
    return call.k


def _raised(call: Call, raised: int) -> int:
    return raised


def _k_at_least_one(call: Call, raised: int) -> int:
    return max(call.k, 1)


Length = Callable[[Call, int], tuple[int, int | None]]
"""``(call, top cards shown) → (at least, at most)`` cards of the suit (``None``: no upper bound)."""


@dataclass(frozen=True)
class Form:
    """What one bid form says about the bidder's hand as dealt.

    :ivar words: the meaning's template (``{v}`` value, ``{w}``/``{one}`` suit word, ``{sym}`` symbol,
        ``{top}`` the top cards shown, ``{k}``, ``{plus}`` the relative step, ``{void}``/``{which}``).
    :ivar tops: how many top cards of the suit it shows held (``raised``: the value the bid adds).
    :ivar from_top: the top cards count from the suit's highest card (else from the first not yet announced).
    :ivar only: the top cards shown are all the bidder's cards of the suit.
    :ivar lacks: ``"J"``: lacks the suit's jack; ``"next"``: lacks the first top card not yet announced.
    :ivar length: the length of the suit it shows, given the top cards shown.
    :ivar void: the k-th last suit named by a bid (``k`` from this function) is a void.
    :ivar likely: a length the bid suggests without promising it (a weaker inference, tried last).
    """

    words: str
    tops: Callable[[Call, int], int] = _zero
    from_top: bool = False
    only: bool = False
    lacks: str | None = None
    length: Length | None = None
    void: Callable[[Call, int], int] | None = None
    likely: int | None = None


_NOES = N_("{plus}{v} no-trumps: void in {void}, the suit of {which}")

FORMS: dict[str, Form] = {
    "number-suit": Form(N_("{v} in {w}: holds the top {one} (J{sym})"), tops=_one, from_top=True, likely=2),
    "suit-number": Form(N_("{v} in {w}: strong in {w} without the top card (J{sym})"), lacks="J", likely=3),
    "plus-suit": Form(N_("{plus}{v} in {w}: holds the {k} top {w} and no other {w}"), tops=_k, from_top=True,
                      only=True, length=lambda c, t: (c.k, c.k)),
    "raise-to": Form(N_("{v} in {w}: the top {w} ({top}) and many others"), tops=_raised,
                     length=lambda c, t: (t + 1, None)),
    "plus": Form(N_("{plus}{v} in {w}: holds {top} and at least two other {w}"), tops=_one,
                 length=lambda c, t: (t + 2, None)),
    "one-plus": Form(N_("{plus}{v} in {w}: holds {top} and exactly one other {one}"), tops=_one,
                     length=lambda c, t: (2, 2)),
    "plus-one": Form(N_("{plus}{v} in {w}: holds {top} and no other {w}"), tops=_one, length=lambda c, t: (1, 1)),
    "k-plus": Form(N_("{plus}{v} in {w}: holds {top} and exactly one other {one}"), tops=_k,
                   length=lambda c, t: (c.k + 1, c.k + 1)),
    "minus": Form(N_("{plus}{v} in {w}: three or four {w}, not the highest"), lacks="next",
                  length=lambda c, t: (3, 4)),
    "minus-k": Form(N_("{plus}{v} in {w}: exactly {k} {w}, not the highest"), lacks="next",
                    length=lambda c, t: (c.k, c.k)),
    "number-nt": Form(N_("{v} no-trumps: a strong hand with no single suit")),
    "number-noes": Form(_NOES, void=_one),
    "plus-noes": Form(_NOES, void=_one),
    "nos": Form(_NOES, void=_one),
    "k-nos": Form(_NOES, void=_k_at_least_one),
    "plus-pass": Form(N_("{plus}{v}: Plus Pass, raises without showing a suit; everyone gets a new turn")),
    "nt": Form(N_("{plus}{v} no-trumps")),
}


class AuctionSoFar(Protocol):
    """The part of the auction before a bid that its meaning depends on (the 56 auction is one)."""

    rules: Rules56
    value: int
    suit_bids: list[Suit]
    announced_top: list[int]


@cache
def _order_of(deck_size: int) -> tuple[str, ...]:
    return tuple(r for r in RANKS[: deck_size // 8] for _ in range(2))


def _order(rules: Rules56) -> tuple[str, ...]:
    """The rank letters of the deck high to low, each as often as it is in the pack (twice)."""
    return _order_of(rules.deck_size)


@cache
def _tops(deck_size: int, suit: Suit, start: int, count: int) -> tuple[tuple[Card, int], ...]:
    """The ``count`` top cards of ``suit`` from the ``start``-th (copies counted), with how often each is among them."""
    if not count:
        return ()
    return tuple(Counter(card(r, suit) for r in _order_of(deck_size)[start:start + count]).items())


def _ordinal(k: int) -> Meaning:
    if k == 2:
        return Meaning("2nd")
    if k == 3:
        return Meaning("3rd")
    return Meaning("{k}th", {"k": k})


def describe(call: Call, auction: AuctionSoFar, counted_as_pass: bool = False) -> str:
    """What a bid tells the table, in words, given the auction before it (a :class:`Meaning`: English as a
    ``str``, translatable at the edges)."""
    v = resulting_value(call, auction.value)
    if counted_as_pass:
        return Meaning("{v} no-trumps: first hand's first pass counts as Plus Pass (no suit shown)", {"v": v})
    form = FORMS.get(call.form)
    if form is None:
        return call.text
    s = call.suit
    plus = f"+{call.step} → " if call.value is None else ""
    if form.void is not None:
        k = form.void(call, 0)
        bids = auction.suit_bids
        which = (Meaning("the last bid that named one") if k == 1
                 else Meaning("the {nth} last bid that named one", {"nth": _ordinal(k)}))
        void: str = suit_word(bids[-k].word) if len(bids) >= k else "?"
        return Meaning(form.words, {"plus": plus, "v": v, "void": void, "which": which})
    if s is None:
        return Meaning(form.words, {"plus": plus, "v": v})
    top: str = ""
    if "{top}" in form.words:
        raised = v - max(auction.value, MIN_BID - 1)
        start = auction.announced_top[s]
        shown = _order(auction.rules)[start:start + form.tops(call, raised)]
        top = ", ".join(("10" if r == "T" else r) + s.symbol for r in shown) or Meaning("no card")
    return Meaning(form.words, {"plus": plus, "v": v, "w": suit_word(s.word), "one": suit_word(s.word[:-1]),
                                "sym": s.symbol, "top": top, "k": call.k})


def claim(call: Call, seat: int, auction: AuctionSoFar, mine: Counter[Card]) -> Claim | None:
    """What a bid claims about the hand of ``seat`` as dealt, as a soft claim for the sampler (``mine``: the
    copies of each card its own earlier bids showed); ``None`` if it claims nothing."""
    form = FORMS.get(call.form)
    if form is None:
        return None
    why = f"seat {seat} bid {call.text}"
    if form.void is not None:
        k = form.void(call, 0)
        if len(auction.suit_bids) < k:
            return None
        return Claim(seat, why, False, True, suit_hi=((int(auction.suit_bids[-k]), 0),))
    s = call.suit
    if s is None:
        return None
    deck_size = auction.rules.deck_size
    raised = resulting_value(call, auction.value) - auction.value
    t = form.tops(call, raised)
    start = 0 if form.from_top else auction.announced_top[s]
    tops = _tops(deck_size, s, start, t)
    lo = tops if form.from_top else tuple((c, mine[c] + k) for c, k in tops)
    hi: tuple[tuple[Card, int], ...] = tops if form.only else ()
    if form.lacks == "J":
        hi = ((card("J", s), 0),)
    elif form.lacks == "next":
        order = _order_of(deck_size)
        if start < len(order):
            top = card(order[start], s)
            hi = ((top, mine[top]),)
    suit_lo: tuple[tuple[int, int], ...] = ()
    suit_hi: tuple[tuple[int, int], ...] = ()
    if form.length is not None:
        least, most = form.length(call, t)
        suit_lo = ((s, least),)
        suit_hi = ((s, most),) if most is not None else ()
    return Claim(seat, why, False, True, lo=lo, hi=hi, suit_lo=suit_lo, suit_hi=suit_hi)

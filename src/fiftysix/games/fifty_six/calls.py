"""56 calls: the written bid forms of both bidding systems, their parsing and their legal lists.

``standard`` (seeds 000/001): ``28H`` ``H28`` ``28NT`` ``29NOES`` ``+2H`` ``+2NOES``.
``announcements`` (seed 004): ``30H`` ``+H`` ``1+H`` ``+1H`` ``2+H`` ``-H`` ``-2H`` ``NOS`` ``2NOS``
``PP`` ``NT`` ``40NT``; a relative announcement may carry its resulting number in front (``29+H``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ...core.cards import SUITS, Suit
from ...core.errors import NotationError
from ...core.meaning import N_, Meaning
from ...core.moves import DOUBLE, PASS, REDOUBLE, Call

MIN_BID = 28
MAX_BID = 56

_SYMBOLS = str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C",
                          "\ufe0f": None, "\ufe0e": None})   # presentation selectors: ♠️ is ♠
_WORDS = {"PASS": PASS, "P": PASS, "X": DOUBLE, "DOUBLE": DOUBLE, "DBL": DOUBLE,
          "XX": REDOUBLE, "REDOUBLE": REDOUBLE, "RDBL": REDOUBLE}


def _normal(text: str) -> str:
    return text.strip().upper().translate(_SYMBOLS)


# ---- standard -----------------------------------------------------------------------------------

@lru_cache(maxsize=4096)     # legal_bids builds the same few hundred bids again and again
def _std(form: str, text: str, *, value: int | None = None, step: int = 0,
         suit: Suit | None = None, k: int = 0) -> Call:
    return Call(text, "bid", form, value, step, suit, suit, k)


def number_suit(v: int, s: Suit) -> Call:
    return _std("number-suit", f"{v}{s.letter}", value=v, suit=s)


def suit_number(v: int, s: Suit) -> Call:
    return _std("suit-number", f"{s.letter}{v}", value=v, suit=s)


def number_nt(v: int) -> Call:
    return _std("number-nt", f"{v}NT", value=v)


def number_noes(v: int) -> Call:
    return _std("number-noes", f"{v}NOES", value=v)


def plus_suit(k: int, s: Suit) -> Call:
    return _std("plus-suit", f"+{k}{s.letter}", step=k, suit=s, k=k)


def plus_noes(k: int) -> Call:
    return _std("plus-noes", f"+{k}NOES", step=k, k=k)


_STD_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^(\d+)([SHDC])$"), "number-suit"),
    (re.compile(r"^([SHDC])(\d+)$"), "suit-number"),
    (re.compile(r"^(\d+)NT$"), "number-nt"),
    (re.compile(r"^(\d+)NOES$"), "number-noes"),
    (re.compile(r"^\+(\d+)([SHDC])$"), "plus-suit"),
    (re.compile(r"^\+(\d+)NOES$"), "plus-noes"),
]

STANDARD_HELP = N_("calls are P, X, XX or bids such as 28H, H28, 28NT, 29NOES, +2H, +2NOES")


def _parse_standard(t: str, original: str) -> Call:
    for pattern, form in _STD_PATTERNS:
        m = pattern.match(t)
        if not m:
            continue
        g = m.groups()
        if form == "number-suit":
            return number_suit(int(g[0]), Suit.parse(g[1]))
        if form == "suit-number":
            return suit_number(int(g[1]), Suit.parse(g[0]))
        if form == "number-nt":
            return number_nt(int(g[0]))
        if form == "number-noes":
            return number_noes(int(g[0]))
        if form == "plus-suit" and int(g[0]) >= 1:
            return plus_suit(int(g[0]), Suit.parse(g[1]))
        if form == "plus-noes" and int(g[0]) >= 1:
            return plus_noes(int(g[0]))
    raise NotationError(_malformed(original, STANDARD_HELP))


# ---- announcements ------------------------------------------------------------------------------

@lru_cache(maxsize=4096)
def _ann(form: str, text: str, *, value: int | None = None, step: int = 1,
         suit: Suit | None = None, k: int = 0) -> Call:
    return Call(text, "bid", form, value, 0 if value is not None else step, suit, suit, k)


def raise_to(v: int, s: Suit | None) -> Call:
    if s is None:
        return _ann("number-nt", f"{v}NT", value=v)
    return _ann("raise-to", f"{v}{s.letter}", value=v, suit=s)


def plus(s: Suit) -> Call:
    return _ann("plus", f"+{s.letter}", suit=s)


def one_plus(s: Suit) -> Call:
    return _ann("one-plus", f"1+{s.letter}", suit=s)


def plus_one(s: Suit) -> Call:
    return _ann("plus-one", f"+1{s.letter}", suit=s)


def k_plus(k: int, s: Suit) -> Call:
    return _ann("k-plus", f"{k}+{s.letter}", step=k, suit=s, k=k)


def minus(s: Suit) -> Call:
    return _ann("minus", f"-{s.letter}", suit=s)


def minus_k(k: int, s: Suit) -> Call:
    return _ann("minus-k", f"-{k}{s.letter}", suit=s, k=k)


def nos(k: int = 1) -> Call:
    return _ann("nos" if k == 1 else "k-nos", "NOS" if k == 1 else f"{k}NOS", k=k)


PLUS_PASS = _ann("plus-pass", "PP")
NT_RAISE = _ann("nt", "NT")

ANNOUNCEMENT_HELP = N_("calls are P, X, XX or announcements such as 30H, +H, 1+H, +1H, 2+H, -H, -2H, "
                       "NOS, 2NOS, PP, NT, 40NT (a raise may carry its resulting number: 29+H)")


def _parse_body(t: str) -> Call | None:
    if t == "PP":
        return PLUS_PASS
    if t == "NT":
        return NT_RAISE
    if t == "NOS":
        return nos()
    m = re.match(r"^(\d+)NOS$", t)
    if m and int(m.group(1)) >= 1:
        return nos(int(m.group(1)))
    m = re.match(r"^(\d*)\+(1?)([SHDC])$", t)
    if m:
        pre, post, s = m.group(1), m.group(2), Suit.parse(m.group(3))
        if (pre and post) or (pre and int(pre) >= MIN_BID):
            return None
        if post:
            return plus_one(s)
        if not pre:
            return plus(s)
        k = int(pre)
        if k == 1:
            return one_plus(s)
        return k_plus(k, s) if k >= 2 else None
    m = re.match(r"^-(\d*)([SHDC])$", t)
    if m:
        s = Suit.parse(m.group(2))
        if not m.group(1):
            return minus(s)
        k = int(m.group(1))
        return minus_k(k, s) if k >= 1 else None
    return None


def _parse_announcement(t: str, original: str) -> tuple[Call, int | None]:
    """The call and the resulting number written in front of it, if any."""
    m = re.match(r"^(\d+)(NT|[SHDC])$", t)
    if m:
        s = None if m.group(2) == "NT" else Suit.parse(m.group(2))
        return raise_to(int(m.group(1)), s), None
    body = _parse_body(t)
    if body is not None:
        return body, None
    m = re.match(r"^(\d+)\s*(.+)$", t)
    if m and int(m.group(1)) >= MIN_BID:
        body = _parse_body(m.group(2).strip())
        if body is not None:
            return body, int(m.group(1))
    raise NotationError(_malformed(original, ANNOUNCEMENT_HELP))


# ---- shared -------------------------------------------------------------------------------------

def parse_call(text: object, bidding: str) -> tuple[Call, int | None]:
    """Read a call leniently (any case, suit symbols, ``PASS``/``DOUBLE`` words).

    :returns: the call and, for an announcement written with its resulting number, that number
        (which the auction must check); otherwise ``None``.
    :raises NotationError: if the text is no call of the bidding system.
    """
    help_text = STANDARD_HELP if bidding == "standard" else ANNOUNCEMENT_HELP
    if not isinstance(text, str):
        raise NotationError(_malformed(text, help_text))
    t = _normal(text)
    if t in _WORDS:
        return _WORDS[t], None
    if bidding == "standard":
        return _parse_standard(t.replace(" ", ""), text), None
    t = re.sub(r"\s+", " ", t)
    if " " in t:
        head, _, rest = t.partition(" ")
        if head.isascii() and head.isdigit() and int(head) >= MIN_BID:     # not "²": int() refuses it
            body = _parse_body(rest.replace(" ", ""))
            if body is not None:
                return body, int(head)
        t = t.replace(" ", "")
    return _parse_announcement(t, text)


def resulting_value(call: Call, current: int) -> int:
    """The value a bid makes when the highest bid so far is ``current``."""
    return call.value if call.value is not None else current + call.step


@lru_cache(maxsize=4096)
def legal_bids(bidding: str, current: int, first_bid: bool, suit_bids: int,
               suit_size: int) -> tuple[tuple[Call, ...], frozenset[str]]:
    """Every bid allowed over ``current``, in a stable order (by value, then by form), and their texts.

    :param first_bid: no bid has been made yet (relative forms of ``standard`` are not allowed).
    :param suit_bids: how many bids so far named a suit (``NOES`` and ``kNOS`` need them).
    :param suit_size: cards of one suit in the deck (bounds ``-kH``).
    """
    by_value: dict[int, list[Call]] = {v: [] for v in range(current + 1, MAX_BID + 1)}
    lo = max(current + 1, MIN_BID)
    if bidding == "standard":
        for v in range(lo, MAX_BID + 1):
            by_value[v] += [number_suit(v, s) for s in SUITS] + [number_nt(v)]
            by_value[v] += [suit_number(v, s) for s in SUITS]
            if suit_bids:
                by_value[v].append(number_noes(v))
        if not first_bid:
            for k in range(1, MAX_BID - current + 1):
                by_value[current + k] += [plus_suit(k, s) for s in SUITS]
                if suit_bids:
                    by_value[current + k].append(plus_noes(k))
    else:
        for v in range(lo, MAX_BID + 1):
            by_value[v] += [raise_to(v, s) for s in SUITS] + [raise_to(v, None)]
        if current + 1 <= MAX_BID:
            one = by_value[current + 1]
            for make in (plus, one_plus, plus_one, minus):
                one += [make(s) for s in SUITS]
            one += [minus_k(k, s) for k in range(1, suit_size + 1) for s in SUITS]
            if suit_bids:
                one += [nos(k) for k in range(1, suit_bids + 1)]
            one += [PLUS_PASS, NT_RAISE]
        # k highest cards plus exactly one other: k is below the suit's size (and so below 28,
        # which keeps "29+H" with its resulting number unambiguous)
        for k in range(2, min(suit_size - 1, MAX_BID - current) + 1):
            by_value[current + k] += [k_plus(k, s) for s in SUITS]
    bids = tuple(c for v in sorted(by_value) for c in by_value[v])
    return bids, frozenset(c.text for c in bids)


FORM_GLOSSARY: dict[str, tuple[tuple[str, str], ...]] = {
    "standard": (
        ("28H", "holds the top card (J) of hearts"),
        ("H28", "strong in hearts without its top card"),
        ("28NT", "a strong hand with no single suit"),
        ("29NOES", "void in the suit of the most recent bid that named a suit"),
        ("+2H", "adds 2 to the bid: holds the 2 top hearts and no other hearts"),
        ("+2NOES", "adds 2 to the bid: void, as NOES"),
        ("X", "double: another team's bid will fail"),
        ("XX", "redouble: the doubled team will make it"),
    ),
    "announcements": (
        ("30H", "a raise to a number: the top heart(s) and many others"),
        ("+H", "Plus: the highest unannounced heart and at least two others (+1)"),
        ("1+H", "One Plus: the highest unannounced heart and exactly one other (+1)"),
        ("+1H", "Plus One: the highest unannounced heart and no other (+1)"),
        ("2+H", "k-Plus: the k highest unannounced hearts and exactly one other (+k)"),
        ("-H", "Minus: three or four hearts, not the highest (+1)"),
        ("-2H", "Minus-k: exactly k hearts, not the highest (+1)"),
        ("NOS", "void in the suit of the last announcement that named one (+1)"),
        ("2NOS", "void in the suit of the k-th last announcement that named one (+1)"),
        ("PP", "Plus Pass: raises without showing a suit; everyone gets a new turn (+1)"),
        ("NT", "no-trumps (+1); 40NT raises to the number"),
        ("X", "double: another team's bid will fail"),
        ("XX", "redouble: the doubled team will make it"),
    ),
}
"""One example and its meaning per written form, for help screens and newcomers."""


def _malformed(text: object, help_text: str) -> Meaning:
    """``malformed call 'ZZ'; calls are ...`` (the bidding system's help)."""
    return Meaning("malformed call {text}; {help}", {"text": repr(text), "help": Meaning(help_text)})

"""The solver API over the numba kernel: :func:`solve`, :func:`card_values`, :func:`can_reach`.

The transposition table lives in a :class:`Tables` object that is kept between calls (its entries are
exact facts about positions, keyed by the game, trumps, teams and the maximising team, so later searches
may reuse them).  One default table is made on first use in each thread: the kernel runs without the GIL
(``nogil``), so the server's computer players think on both cores and the event loop runs meanwhile, and two
searches at once must not share a table (an entry is two words, written one after the other).
"""

from __future__ import annotations

import threading

import numpy as np

from ..core.cards import Card
from . import kernel as k
from .encode import ZA, ZB, Encoded, encode
from .position import Position

DEFAULT_BITS = 21


class Tables:
    """A transposition table of ``2**bits`` entries and the search statistics.

    :ivar stats: nodes, table hits and table stores, summed over the searches.
    :raises ValueError: for a size outside ``2**4`` to ``2**30`` entries.
    """

    def __init__(self, bits: int = DEFAULT_BITS) -> None:
        if not 4 <= bits <= 30:
            raise ValueError(f"table bits must be 4-30, not {bits}")
        self.table = np.zeros((1 << bits, 2), dtype=np.int64)  # per entry: key, lower | upper << 8 | cards left << 16
        self.stats = np.zeros(4, dtype=np.int64)

    def clear(self) -> None:
        self.table[:] = 0
        self.stats[:] = 0

    @property
    def nodes(self) -> int:
        return int(self.stats[k.S_NODES])


_DEFAULT = threading.local()


def default_tables() -> Tables:
    """This thread's table (made on its first search)."""
    made: Tables | None = getattr(_DEFAULT, "tables", None)
    if made is None:
        made = _DEFAULT.tables = Tables()
    return made


def _mtdf(e: Encoded, t: Tables, guess: int = -1) -> int:
    return int(k.mtdf(e.one, e.two, e.team, e.ctx, e.pts, e.priv, ZA, ZB, t.table, t.stats, e.leader,
                      e.ntrick, e.led_slot, e.best_slot, e.best_seat, e.tpts, guess))


def _search(e: Encoded, t: Tables, alpha: int, beta: int) -> int:
    return int(k.search(e.one, e.two, e.team, e.ctx, e.pts, e.priv, ZA, ZB, t.table, t.stats, e.leader,
                        e.ntrick, e.led_slot, e.best_slot, e.best_seat, e.tpts, alpha, beta))


def solve(position: Position, tables: Tables | None = None) -> int:
    """The points the side to move can force from the remaining cards (current trick included)."""
    if position.is_over:
        return 0
    if position.must_trump:  # a root restriction the kernel does not know: take the best allowed card
        return max(card_values(position, tables).values())
    team = position.team_to_move
    e = encode(position, team)
    return e.fixed + _mtdf(e, tables or default_tables())


def _root_values(position: Position, e: Encoded, t: Tables) -> dict[int, int]:
    """The exact value (for the encoded maximising team) after each allowed card of the seat to move,
    by slot, one representative of each group of equivalent cards; and ``rep`` maps slots to them."""
    seat = position.to_move
    legal = int(k.legal_mask(e.one, seat, e.ntrick, e.led_slot, e.ctx[k.C_TRUMP], e.ctx[k.C_MODE], e.priv))
    if position.must_trump and position.trump is not None:
        trumps = legal & (0xFFFF << (16 * int(position.trump)))
        legal = trumps or legal
    rep = np.full(k.SLOTS, -1, dtype=np.int64)
    reps = k.representatives(e.one, position.n, seat, legal, e.best_slot, e.pts, e.priv, rep)
    values: dict[int, int] = {}
    guess = -1
    x = int(reps)
    while x:
        slot = (x & -x).bit_length() - 1
        x &= x - 1
        v = int(k.value_after(e.one, e.two, e.team, e.ctx, e.pts, e.priv, ZA, ZB, t.table, t.stats, e.leader,
                              e.ntrick, e.led_slot, e.best_slot, e.best_seat, e.tpts, slot, guess))
        values[slot] = v
        guess = v
    return {slot: values[int(rep[slot])] for slot in _bits(legal)}


def _bits(x: int) -> list[int]:
    out = []
    while x:
        out.append((x & -x).bit_length() - 1)
        x &= x - 1
    return out


def card_values(position: Position, tables: Tables | None = None) -> dict[Card, int]:
    """For each legal card, the points the side to move can force after playing it."""
    if position.is_over:
        return {}
    e = encode(position, position.team_to_move)
    values = _root_values(position, e, tables or default_tables())
    return {card: e.fixed + values[e.slot_of[card]] for card in position.legal()}


def can_reach(position: Position, team: int, target: int, tables: Tables | None = None) -> bool:
    """Whether ``team`` can still reach ``target`` points in the whole deal (points taken count).

    :raises ValueError: if ``team`` is not a team of the position.
    """
    need = position.still_needed(team, target)
    if need is None or need == 0:
        return need == 0        # out of reach, or reached already
    e = encode(position, team)
    need -= e.fixed
    if need <= 0:
        return True
    t = tables or default_tables()
    if position.must_trump:
        values = _root_values(position, e, t).values()
        best = max(values) if position.team_to_move == team else min(values)
        return best >= need
    return _search(e, t, need - 1, need) >= need

"""55's kitty and discard in the vector env (:mod:`.vector`): the bidder takes the kitty, then discards one card at
a time (in increasing kind order, as the single-table adapters do), the five pushed on the engine as one checked
discard with the last; and the highest trump of the completed tricks."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.deal import DISCARD
from ..core.moves import Discard
from .vector_base import FloatArray, IntArray, Tables


class KittyTables:
    """55's kitty, discard and highest trump at every table: the discard made (shown as the rules say), the cards
    chosen so far of one being made, and the kinds the bidder holds while it discards (as bits); the tables'
    hands and public pieces are written in :class:`~.vector_base.Tables`."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        N, k, o = tables.num_tables, tables.k, tables.layout.offsets
        self.size = tables.kitty
        self.discard_code = tables.phase_code[DISCARD]
        self.discards_open = getattr(tables.rules, "discards", "open") == "open"
        self.discard_cards: FloatArray = np.zeros((N, k), np.float32)
        self.pending: FloatArray = np.zeros((N, k), np.float32)
        self.bidder: IntArray = np.full(N, -1, np.int64)
        self.pending_kinds: list[list[int]] = [[] for _ in range(N)]
        self._discard_held: list[int] = [0] * N     # the bidder's kinds while it discards, as bits
        self._place_kind = [0] * 64       # a place of the deal's card bits -> the bit of its card's kind
        for j, place in enumerate(tables.kind_shift.tolist()):
            self._place_kind[place] = 1 << j
        self._o_kitty, self._o_high_seat, self._o_high_card = (o["kitty_size"], o["highest_trump_seat"],
                                                               o["highest_trump_card"])
        self._sl_discard, self._sl_pending = tables.layout.slice("discard"), tables.layout.slice("pending_discard")
        self._sl_high = slice(o["highest_trump_seat"], o["highest_trump_card"] + k)

    def start(self, tables: list[int]) -> None:
        """Tables just dealt: the kitty on the table, no discard."""
        self.tables.pub[tables, self._o_kitty] = self.size
        self.discard_cards[tables] = self.pending[tables] = 0.0
        self.bidder[tables] = -1
        for i in tables:
            self.pending_kinds[i] = []

    def clear_pending(self, i: int) -> None:
        """No discard being made at table ``i`` (its arrays rebuilt from its deal)."""
        self.pending_kinds[i] = []
        self.pending[i] = 0.0

    def begin_discard(self, i: int) -> int:
        """Table ``i``'s bidder begins its discard: the kinds it holds (its hand and the kitty); returns the card
        bits of the first card."""
        deal: Any = self.tables.deal_list[i]
        held = deal._once[deal.bidder]      # (core.deal: the cards held, as the game's bits; one pack)
        kinds, place_kind = 0, self._place_kind
        while held:
            low = held & -held
            kinds |= place_kind[low.bit_length() - 1]
            held ^= low
        self._discard_held[i] = kinds
        self.clear_pending(i)
        return self._next_discard_bits(i, 0)

    def _next_discard_bits(self, i: int, chosen: int) -> int:
        """The kinds the next card of the discard may be, the discard being chosen in increasing kind order.
        The engine's rule (``Deal55.legal_moves``): any ``kitty`` of the bidder's cards, so the next card is a
        kind held above the ``chosen`` ones that leaves enough held kinds above it to complete the discard."""
        above = self._discard_held[i] & ~((1 << chosen.bit_length()) - 1)
        for _ in range(self.size - chosen.bit_count() - 1):      # the highest ones could not be followed
            above ^= 1 << (above.bit_length() - 1)
        return above

    def discard_card(self, i: int, action: int) -> int | None:
        """One card of table ``i``'s discard: the card bits of the next one, or None once this one completes the
        discard, pushed on the deal (its cards in the hand's order, as the engine's legal discards list them)."""
        kind = action - self.tables.first_card
        pending = self.pending_kinds[i]
        pending.append(kind)
        self.pending[i, kind] = 1.0
        chosen = sum(1 << k for k in pending)
        if len(pending) < self.size:
            return self._next_discard_bits(i, chosen)
        deal: Any = self.tables.deal_list[i]      # (not in compiled play: nothing to catch up)
        bit = self.tables.kind_bit
        deal.push(Discard(tuple(c for c in deal.hands[deal.bidder] if bit[c] & chosen)))   # (checked)
        self.clear_pending(i)
        return None

    def sync(self, i: int) -> None:
        """Table ``i``'s kitty, hands (the bidder's grows by the kitty, then loses the discard), discard made and
        highest trump; its deal is up to date (``deal_list``: ``env.deals`` would catch up every table)."""
        t = self.tables
        deal: Any = t.deal_list[i]
        kind = t.kind
        t.pub[i, self._o_kitty] = 0 if deal.kitty_taken else self.size
        self.bidder[i] = -1 if deal.bidder is None else deal.bidder
        discard = self.discard_cards[i]
        discard.fill(0.0)
        for c in deal.discard or ():
            discard[kind[c]] = 1.0
        # the hands from the deal's own masks (core.deal: _once the cards held; 55 has one pack, _twice empty)
        t.hands[i] = (np.array(deal._once, np.int64)[:, None] >> t.kind_shift) & 1
        self.sync_highest(i)

    def sync_highest(self, i: int) -> None:
        """The highest trump of the completed tricks at table ``i`` (its deal up to date)."""
        deal: Any = self.tables.deal_list[i]
        pub = self.tables.pub[i]
        pub[self._sl_high] = 0.0
        if deal.highest is not None:
            seat, card, _ = deal.highest
            pub[self._o_high_seat + seat] = 1.0
            pub[self._o_high_card + self.tables.kind[card]] = 1.0

    def observe(self, out: FloatArray, S: IntArray) -> None:
        """An observation's discard and pending discard, for the seats that may see them."""
        t = self.tables
        sees = (self.bidder == S) | self.discards_open
        out[:, self._sl_discard] = self.discard_cards * sees[:, None]
        making = (t.to_move == S) & (t.phase == self.discard_code)
        out[:, self._sl_pending] = self.pending * making[:, None]

"""55's kitty and discard in the vector env (:mod:`.vector`): the bidder takes the kitty, then discards one card at
a time (in increasing kind order, as the single-table adapters do), the five pushed on the engine as one checked
discard with the last; and the highest trump of the completed tricks."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.deal import DISCARD
from ..core.moves import Discard
from .vector_base import FloatArray, IntArray, VectorTables


class KittyTables(VectorTables):
    """55's kitty, discard and highest trump at every table."""

    def _init_kitty(self) -> None:
        """The arrays of 55's kitty and discard: the discard made (shown as the rules say), the cards chosen so
        far of one being made, and the kinds the bidder holds while it discards (as bits)."""
        N, k, o = self.num_tables, self.k, self.layout.offsets
        self._discard_code = self._phase_code[DISCARD]
        self._discards_open = getattr(self.rules, "discards", "open") == "open"
        self._discard_cards: FloatArray = np.zeros((N, k), np.float32)
        self._pending: FloatArray = np.zeros((N, k), np.float32)
        self._bidder: IntArray = np.full(N, -1, np.int64)
        self._pending_kinds: list[list[int]] = [[] for _ in range(N)]
        self._discard_held: list[int] = [0] * N     # the bidder's kinds while it discards, as bits
        self._place_kind = [0] * 64       # a place of the deal's card bits -> the bit of its card's kind
        for j, place in enumerate(self._kind_shift.tolist()):
            self._place_kind[place] = 1 << j
        self._o_kitty, self._o_high_seat, self._o_high_card = (o["kitty_size"], o["highest_trump_seat"],
                                                               o["highest_trump_card"])
        self._sl_discard, self._sl_pending = self.layout.slice("discard"), self.layout.slice("pending_discard")
        self._sl_high = slice(o["highest_trump_seat"], o["highest_trump_card"] + k)

    def _begin_discard(self, i: int) -> int:
        """Table ``i``'s bidder begins its discard: the kinds it holds (its hand and the kitty); returns the card
        bits of the first card."""
        deal: Any = self._deal_list[i]
        held = deal._once[deal.bidder]      # (core.deal: the cards held, as the game's bits; one pack)
        kinds, place_kind = 0, self._place_kind
        while held:
            low = held & -held
            kinds |= place_kind[low.bit_length() - 1]
            held ^= low
        self._discard_held[i] = kinds
        self._pending_kinds[i] = []
        self._pending[i] = 0.0
        return self._next_discard_bits(i, 0)

    def _next_discard_bits(self, i: int, chosen: int) -> int:
        """The kinds the next card of the discard may be, the discard being chosen in increasing kind order.
        The engine's rule (``Deal55.legal_moves``): any ``kitty`` of the bidder's cards, so the next card is a
        kind held above the ``chosen`` ones that leaves enough held kinds above it to complete the discard."""
        above = self._discard_held[i] & ~((1 << chosen.bit_length()) - 1)
        for _ in range(self.kitty - chosen.bit_count() - 1):      # the highest ones could not be followed
            above ^= 1 << (above.bit_length() - 1)
        return above

    def _discard_step(self, i: int, action: int) -> tuple[int, int, int]:
        """One card of table ``i``'s discard; the whole discard is pushed on the deal with its last card (its
        cards in the hand's order, as the engine's legal discards list them).
        Returns the seat to move, the bank row and the card bits after it."""
        kind = action - self.first_card
        pending = self._pending_kinds[i]
        pending.append(kind)
        self._pending[i, kind] = 1.0
        deal: Any = self._deal_list[i]      # (not in compiled play: nothing to catch up)
        chosen = sum(1 << k for k in pending)
        if len(pending) < self.kitty:
            return deal.to_move, 0, self._next_discard_bits(i, chosen)
        bit = self._kind_bit
        deal.push(Discard(tuple(c for c in deal.hands[deal.bidder] if bit[c] & chosen)))   # (checked)
        self._pending_kinds[i] = []
        self._pending[i] = 0.0
        self._sync_public(i)
        row, bits = self._legal_code(deal.legal_moves())
        return deal.to_move, row, bits

    def _sync_kitty(self, i: int) -> None:
        """Table ``i``'s kitty, hands (the bidder's grows by the kitty, then loses the discard), discard made and
        highest trump (55); its deal is up to date (``_deal_list``: ``deals`` would catch up every table)."""
        deal: Any = self._deal_list[i]
        kind = self._kind
        self._pub[i, self._o_kitty] = 0 if deal.kitty_taken else self.kitty
        self._bidder[i] = -1 if deal.bidder is None else deal.bidder
        discard = self._discard_cards[i]
        discard.fill(0.0)
        for c in deal.discard or ():
            discard[kind[c]] = 1.0
        # the hands from the deal's own masks (core.deal: _once the cards held; 55 has one pack, _twice empty)
        self._hands[i] = (np.array(deal._once, np.int64)[:, None] >> self._kind_shift) & 1
        self._sync_highest(i)

    def _sync_highest(self, i: int) -> None:
        """55's highest trump of the completed tricks at table ``i`` (its deal up to date)."""
        deal: Any = self._deal_list[i]
        pub = self._pub[i]
        pub[self._sl_high] = 0.0
        if deal.highest is not None:
            seat, card, _ = deal.highest
            pub[self._o_high_seat + seat] = 1.0
            pub[self._o_high_card + self._kind[card]] = 1.0

    def _observe_kitty(self, out: FloatArray, S: IntArray) -> FloatArray:
        """An observation's discard and pending discard (55), for the seats that may see them."""
        if self.kitty:
            sees = (self._bidder == S) | self._discards_open
            out[:, self._sl_discard] = self._discard_cards * sees[:, None]
            making = (self._to_move == S) & (self._phase == self._discard_code)
            out[:, self._sl_pending] = self._pending * making[:, None]
        return out

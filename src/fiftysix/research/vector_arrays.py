"""The vector env's arrays (:mod:`.vector`): dealing a table (from its seed, or a chosen deal or record), rebuilding
its arrays from its deal, the standing bid's bank, and the compact observation of any seat read from them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.cards import Card
from ..core.deal import AUCTION, PLAY, Deal
from ..core.moves import Call
from .compact import auction_fields, trump_fields
from .vector_base import FloatArray, IntArray, VectorTables


class TableArrays(VectorTables):
    """Each table's observation arrays: dealt, rebuilt, observed."""

    def _init_bids(self) -> None:
        """The standing bid's pieces (``bid_value`` to ``multiplier``) as rows of a bank, and each call's row."""
        o, layout = self.layout.offsets, self.layout
        names = [p.name for p in layout.pieces]
        assert names[names.index("bid_value"):names.index("multiplier") + 1] == [
            "bid_value", "bidder", "strain", "multiplier"]
        self._sl_bid = slice(o["bid_value"], o["multiplier"] + 3)
        self._bid_ids = {}
        self._bid_bank = np.zeros((64, 1 + self.n + 5 + 3), np.float32)
        self._arw = np.arange(layout.call_width)
        calls = self.enc.game.call_vocabulary(self.enc.rules)
        self._ncalls = len(calls)
        self._call_rows = np.zeros((len(calls), layout.call_width), np.float32)
        for j, call in enumerate(calls):
            self._call_rows[j] = layout.call_features(call)

    def _calls_made(self, ia: IntArray, seats: IntArray, actions: IntArray) -> None:
        """The last call, the number of calls and the standing bid of tables where a call was just made."""
        pub, layout = self._pub, self.layout
        cols = (layout.offsets["last_call"] + seats * layout.call_width)[:, None] + self._arw
        pub[ia[:, None], cols] = self._call_rows[actions]
        pub[ia, layout.offsets["calls"]] += 1.0
        ids = self._bid_ids
        deals = self._deal_list
        rows = [ids.get(key) or self._bid_id(key) for key in [auction_fields(deals[i]) for i in ia.tolist()]]
        pub[ia, self._sl_bid] = self._bid_bank[rows]

    def _write_moves(self, acts: IntArray, ends: list[int], resync: list[int]) -> None:
        """The arrays after the engine's moves of a step: cards, tricks that ended, calls, other moves."""
        deals, first_card, ncalls = self._deal_list, self.first_card, self._ncalls
        pub = self._pub
        seats = self._to_move      # the seats that moved
        ia = np.flatnonzero(acts >= first_card)
        if len(ia):
            sa, ka = seats[ia], acts[ia] - first_card
            k = self.k
            pub[ia, self._o_played + sa * k + ka] += 1.0
            pub[ia, self._o_trick + sa * k + ka] = 1.0
            self._hands[ia, sa, ka] -= 1.0
        if ends:
            pub[ends, self._sl_trick] = 0.0
            pub[ends, self._sl_points] = [deals[i].points for i in ends]
            self._leader[ends] = [deals[i].trick_leader for i in ends]
            if self.kitty:
                for i in ends:
                    self._sync_highest(i)
        calls = np.flatnonzero((acts >= 0) & (acts < ncalls))
        if len(calls):
            self._calls_made(calls, seats[calls], acts[calls])
        for i in resync:
            self._sync_public(i)

    def _sync(self, i: int) -> None:
        """Rebuild table ``i``'s arrays from its deal (a new deal, or one loaded at any position)."""
        deal = self._deal_at(i)
        k, n, kind = self.k, self.n, self._kind
        pub = self._pub[i]
        pub.fill(0.0)
        hands = self._hands[i]
        hands.fill(0.0)
        for s, hand in enumerate(deal.hands):
            for c in hand:
                hands[s, kind[c]] += 1.0
        played = pub[self.layout.slice("played")].reshape(n, k)
        for seat, move in deal.history:
            if isinstance(move, Card):
                played[seat, kind[move]] += 1.0
        if deal.phase == PLAY:
            trick = pub[self._sl_trick].reshape(n, k)
            seat = deal.trick_leader
            for c in deal.trick_cards:
                trick[seat, kind[c]] = 1.0
                seat = (seat + 1) % n
        pub[self._sl_points] = deal.points
        self._leader[i] = deal.trick_leader
        if self.kitty:
            self._pending_kinds[i] = []
            self._pending[i] = 0.0
        self._sync_public(i, calls_too=True)
        self._set_legal(i)
        self._to_move[i] = -1 if deal.to_move is None else deal.to_move
        if self.compiled:
            self._enter_play(i)

    def _sync_public(self, i: int, calls_too: bool = False) -> None:
        """Table ``i``'s phase, standing bid, trump and points after any move but a card (the last calls are
        kept up to date by :meth:`_calls_made`); with ``calls_too`` the last calls afresh as well."""
        deal = self._deal_list[i]
        layout, pub = self.layout, self._pub[i]
        o = layout.offsets
        self._phase[i] = self._phase_code[deal.phase]
        if deal.phase != PLAY:
            self._leader[i] = -1
        elif self._leader[i] < 0:
            self._leader[i] = deal.trick_leader
        calls: list[Call] = deal.auction.calls   # type: ignore[attr-defined]
        width = layout.call_width
        if calls_too:     # each seat's latest call (in 55 the dealer's hold can make a seat call twice running)
            last = pub[layout.slices["last_call"]]
            last.fill(0.0)
            for seat, move in deal.history:
                if isinstance(move, Call):
                    last[seat * width:(seat + 1) * width] = layout.call_features(move)
        pub[o["calls"]] = len(calls)
        fields = auction_fields(deal)
        row = self._bid_ids.get(fields) or self._bid_id(fields)
        pub[self._sl_bid] = self._bid_bank[row]
        code, public, declarer, hidden = trump_fields(deal)
        self._trump[i], self._trump_public[i], self._declarer[i] = code, public, declarer
        pub[o["trump_hidden"]] = 1.0 if hidden else 0.0
        pub[self._sl_points] = deal.points
        if self.kitty:
            self._sync_kitty(i)

    def _bid_id(self, fields: tuple[int, int, int, int]) -> int:
        """The row of :attr:`_bid_bank` of a standing bid: the pieces ``bid_value`` to ``multiplier``."""
        value, bidder, strain, doubled = fields
        n = self.n
        row = np.zeros(1 + n + 5 + 3, np.float32)
        row[0] = value
        if bidder >= 0:
            row[1 + bidder] = row[1 + n + strain] = row[1 + n + 5 + doubled] = 1.0
        at = self._bid_ids[fields] = len(self._bid_ids) + 1     # 0 is the row of no bid
        if at >= len(self._bid_bank):
            self._bid_bank = np.concatenate([self._bid_bank, np.zeros_like(self._bid_bank)])
        self._bid_bank[at] = row
        return at

    def load(self, i: int, deal: Deal, deal_seed: int = -1) -> None:
        """Put ``deal`` (at any position; a copy is kept) at table ``i`` (reset to a chosen deal); the table's
        next deals follow from its seed as before.  ``info["deal_seed"]`` shows ``deal_seed`` (-1: not known).

        :raises ValueError: for a deal of other rules or another dealer, or one that is over.
        :raises RuntimeError: before :meth:`reset`.
        """
        if not self._ready:
            raise RuntimeError("call reset() before load()")
        if not 0 <= i < self.num_tables:
            raise ValueError(f"table must be 0-{self.num_tables - 1}, not {i}")
        if deal.rules != self.rules or deal.dealer != self.dealer:
            raise ValueError(f"table {i}: the deal is of other rules or another dealer than this env's "
                             f"({self.enc.preset}, dealer {self.dealer})")
        if deal.is_over:
            raise ValueError(f"table {i}: the deal is over")
        self.deals[i] = deal.copy()
        self.deal_seeds[i] = self._seed_array[i] = deal_seed
        self._due[i] = False
        self._sync(i)

    def _start(self, tables: list[int]) -> None:
        """The arrays of tables whose deals were just dealt (nothing played yet), together."""
        n, deals = self.n, self._deal_list
        if self.compiled:
            self._leave_play(tables)
        # the hands from the deal's own masks (core.deal: _once the cards held, _twice those held twice), each
        # kind's bit picked out of the game's bit layout
        masks = np.array([d._once + d._twice for d in (deals[i] for i in tables)], np.int64)
        held = (masks[:, :, None] >> self._kind_shift) & 1
        self._hands[tables] = held[:, :n] + held[:, n:]
        self._pub[tables] = 0.0
        self._phase[tables] = self._phase_code[AUCTION]
        self._leader[tables] = -1
        self._trump[tables] = -1
        self._trump_public[tables] = True
        self._declarer[tables] = -1
        if self.kitty:
            self._pub[tables, self._o_kitty] = self.kitty
            self._discard_cards[tables] = self._pending[tables] = 0.0
            self._bidder[tables] = -1
            for i in tables:
                self._pending_kinds[i] = []
        for i in tables:
            deal = deals[i]
            self._rows[i], self._bits[i] = self._legal_code(deal.legal_moves())
            self._bits_version = object()

    def record(self, i: int) -> dict[str, Any]:
        """Table ``i``'s deal as it stands, as a deal record (``records.md``: JSON, portable).

        :raises ValueError: in the middle of a 55 discard made card by card (a record holds whole moves; the
            cards chosen so far would be lost).
        """
        from ..records import deal_record

        if self.kitty and self._pending_kinds[i]:
            chosen = [str(self.enc.kinds[k]) for k in self._pending_kinds[i]]
            raise ValueError(f"table {i}: a discard is being made card by card ({' '.join(chosen)} chosen so "
                             f"far): a record holds whole moves only; record the table once the discard is made")

        return deal_record(self._deal_at(i))

    def load_record(self, i: int, record: dict[str, Any]) -> None:
        """Put the deal of a deal record (at the position it leaves the deal) at table ``i``.

        :raises RecordError: for a record that does not replay.
        :raises ValueError: for a deal of other rules or another dealer, or one that is over.
        """
        from ..records import read_deal

        self.load(i, read_deal(record))

    def _observe_movers(self) -> FloatArray:
        """Each table's seat to move, or at a deal's end the seat that moved last."""
        return self.observe_seats(np.where(self._to_move >= 0, self._to_move, self._observer))

    def observe_seats(self, seats: Sequence[int] | IntArray) -> FloatArray:
        """(N, D): the compact observation of table ``i`` for seat ``seats[i]``."""
        S = np.asarray(seats, dtype=np.int64)
        if self._jit is not None and S.min() >= 0:     # (a seat of -1: the numpy path, as before)
            out = self._pub.copy()
            self._jit.observe(self._hands, S, self._to_move, self._phase, self._leader, self._trump,
                              self._trump_public, self._declarer, self._o_seat, self._o_phase, self._o_to_move,
                              self._o_leader, self._o_trump, self._sl_hand.start, out)
            return self._observe_kitty(out, S)
        ar = self._ar
        out = self._pub.copy()
        base = self._row_base     # each table's row start in the flat array
        tm, lead, tc = self._to_move, self._leader, self._trump
        known = (tc >= 0) & (self._trump_public | (self._declarer == S))
        # the one-hot pieces in one scatter: seat and phase always, to_move, trick_leader and trump when set
        at = np.concatenate([base + self._o_seat + S, base + self._o_phase + self._phase,
                             np.where(tm >= 0, base + self._o_to_move + tm, -1),
                             np.where(lead >= 0, base + self._o_leader + lead, -1),
                             np.where(known, base + self._o_trump + tc, -1)])
        out.reshape(-1)[at[at >= 0]] = 1.0
        out[:, self._sl_hand] = self._hands[ar, S]
        return self._observe_kitty(out, S)

    def observe(self, i: int, seat: int) -> FloatArray:
        """The compact observation of table ``i`` for ``seat``, shape (D,)."""
        seats = np.array(self._to_move.clip(0))
        seats[i] = seat
        out: FloatArray = self.observe_seats(seats)[i]
        return out

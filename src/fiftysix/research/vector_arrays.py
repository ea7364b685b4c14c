"""The vector env's observation arrays (:mod:`.vector`): a table's arrays rebuilt from its deal (a new deal, or one
loaded at any position) or written after the engine's moves of a step, the standing bid's bank, and the compact
observation of any seat read from them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.cards import Card
from ..core.deal import AUCTION, DISCARD, PLAY, Deal
from ..core.moves import Call
from .compact import auction_fields, trump_fields
from .vector_bank import LegalBank
from .vector_base import FloatArray, IntArray, Tables
from .vector_kitty import KittyTables


class TableArrays:
    """Each table's observation arrays (in :class:`~.vector_base.Tables`): dealt, rebuilt, written, observed.

    :param bank: the legal moves' bank, which codes a deal's legal moves.
    :param kitty: 55's kitty and discard (None in 56).
    :param jit: the compiled observations (:mod:`.vector_jit_arrays`), or None: numpy's.
    """

    def __init__(self, tables: Tables, bank: LegalBank, kitty: KittyTables | None, jit: Any) -> None:
        self.tables, self.bank, self.kitty, self.jit = tables, bank, kitty, jit
        layout, n = tables.layout, tables.n
        o = layout.offsets
        names = [p.name for p in layout.pieces]
        assert names[names.index("bid_value"):names.index("multiplier") + 1] == [
            "bid_value", "bidder", "strain", "multiplier"]
        # the standing bid's pieces (``bid_value`` to ``multiplier``) as rows of a bank, and each call's row
        self.sl_bid = slice(o["bid_value"], o["multiplier"] + 3)
        self.bid_ids: dict[tuple[int, int, int, int], int] = {}
        self._bid_bank: FloatArray = np.zeros((64, 1 + n + 5 + 3), np.float32)
        self._arw = np.arange(layout.call_width)      # the columns of one call's row
        calls = tables.game.call_vocabulary(tables.rules)
        self.ncalls = len(calls)                       # actions below this are calls
        self.call_rows: FloatArray = np.zeros((len(calls), layout.call_width), np.float32)
        for j, call in enumerate(calls):
            self.call_rows[j] = layout.call_features(call)
        self._ar = np.arange(tables.num_tables)
        self._row_base = self._ar * layout.size      # each table's row start in the flat array

    def _calls_made(self, ia: IntArray, seats: IntArray, actions: IntArray) -> None:
        """The last call, the number of calls and the standing bid of tables where a call was just made."""
        t = self.tables
        pub, layout = t.pub, t.layout
        cols = (layout.offsets["last_call"] + seats * layout.call_width)[:, None] + self._arw
        pub[ia[:, None], cols] = self.call_rows[actions]
        pub[ia, layout.offsets["calls"]] += 1.0
        ids = self.bid_ids
        deals = t.deal_list
        rows = [ids.get(key) or self._bid_id(key) for key in [auction_fields(deals[i]) for i in ia.tolist()]]
        pub[ia, self.sl_bid] = self._bid_bank[rows]

    def write_moves(self, acts: IntArray, ends: list[int], resync: list[int]) -> None:
        """The arrays after the engine's moves of a step: cards, tricks that ended, calls, other moves."""
        t = self.tables
        deals, first_card, ncalls = t.deal_list, t.first_card, self.ncalls
        pub = t.pub
        seats = t.to_move      # the seats that moved
        ia = np.flatnonzero(acts >= first_card)
        if len(ia):
            sa, ka = seats[ia], acts[ia] - first_card
            k = t.k
            pub[ia, t.o_played + sa * k + ka] += 1.0
            pub[ia, t.o_trick + sa * k + ka] = 1.0
            t.hands[ia, sa, ka] -= 1.0
        if ends:
            pub[ends, t.sl_trick] = 0.0
            pub[ends, t.sl_points] = [deals[i].points for i in ends]
            t.leader[ends] = [deals[i].trick_leader for i in ends]
            if self.kitty is not None:
                for i in ends:
                    self.kitty.sync_highest(i)
        calls = np.flatnonzero((acts >= 0) & (acts < ncalls))
        if len(calls):
            self._calls_made(calls, seats[calls], acts[calls])
        for i in resync:
            self.sync_public(i)

    def rebuild(self, i: int, deal: Deal) -> None:
        """Rebuild table ``i``'s arrays from ``deal``, its deal caught up (a new deal, or one loaded at any
        position): the pieces, the legal moves and the seat to move."""
        t = self.tables
        k, n, kind = t.k, t.n, t.kind
        pub = t.pub[i]
        pub.fill(0.0)
        hands = t.hands[i]
        hands.fill(0.0)
        for s, hand in enumerate(deal.hands):
            for c in hand:
                hands[s, kind[c]] += 1.0
        played = pub[t.layout.slice("played")].reshape(n, k)
        for seat, move in deal.history:
            if isinstance(move, Card):
                played[seat, kind[move]] += 1.0
        if deal.phase == PLAY:
            trick = pub[t.sl_trick].reshape(n, k)
            seat = deal.trick_leader
            for c in deal.trick_cards:
                trick[seat, kind[c]] = 1.0
                seat = (seat + 1) % n
        pub[t.sl_points] = deal.points
        t.leader[i] = deal.trick_leader
        if self.kitty is not None:
            self.kitty.clear_pending(i)
        self.sync_public(i, calls_too=True)
        self._set_legal(i, deal)
        t.to_move[i] = -1 if deal.to_move is None else deal.to_move

    def _set_legal(self, i: int, deal: Deal) -> None:
        t = self.tables
        if deal.is_over:
            t.rows[i], t.bits[i] = 0, 0
        elif deal.phase == DISCARD:
            assert self.kitty is not None
            t.rows[i], t.bits[i] = 0, self.kitty.begin_discard(i)
        else:
            t.rows[i], t.bits[i] = self.bank.legal_code(deal.legal_moves())
        t.bits_changed()

    def sync_public(self, i: int, calls_too: bool = False) -> None:
        """Table ``i``'s phase, standing bid, trump and points after any move but a card (the last calls are
        kept up to date by :meth:`_calls_made`); with ``calls_too`` the last calls afresh as well."""
        t = self.tables
        deal = t.deal_list[i]
        layout, pub = t.layout, t.pub[i]
        o = layout.offsets
        t.phase[i] = t.phase_code[deal.phase]
        if deal.phase != PLAY:
            t.leader[i] = -1
        elif t.leader[i] < 0:
            t.leader[i] = deal.trick_leader
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
        row = self.bid_ids.get(fields) or self._bid_id(fields)
        pub[self.sl_bid] = self._bid_bank[row]
        code, public, declarer, hidden = trump_fields(deal)
        t.trump[i], t.trump_public[i], t.declarer[i] = code, public, declarer
        pub[o["trump_hidden"]] = 1.0 if hidden else 0.0
        pub[t.sl_points] = deal.points
        if self.kitty is not None:
            self.kitty.sync(i)

    def _bid_id(self, fields: tuple[int, int, int, int]) -> int:
        """The row of the bid bank of a standing bid: the pieces ``bid_value`` to ``multiplier``."""
        value, bidder, strain, doubled = fields
        n = self.tables.n
        row = np.zeros(1 + n + 5 + 3, np.float32)
        row[0] = value
        if bidder >= 0:
            row[1 + bidder] = row[1 + n + strain] = row[1 + n + 5 + doubled] = 1.0
        at = self.bid_ids[fields] = len(self.bid_ids) + 1     # 0 is the row of no bid
        if at >= len(self._bid_bank):
            self._bid_bank = np.concatenate([self._bid_bank, np.zeros_like(self._bid_bank)])
        self._bid_bank[at] = row
        return at

    def discard_step(self, i: int, action: int) -> tuple[int, int, int]:
        """One card of 55's discard at table ``i`` (:meth:`.vector_kitty.KittyTables.discard_card`); once the
        discard is pushed, the table's public pieces after it.  Returns the seat to move, the bank row and the card
        bits after it."""
        assert self.kitty is not None
        deal: Any = self.tables.deal_list[i]
        bits = self.kitty.discard_card(i, action)
        if bits is not None:
            return deal.to_move, 0, bits
        self.sync_public(i)
        row, bits = self.bank.legal_code(deal.legal_moves())
        return deal.to_move, row, bits

    def start(self, tables: list[int]) -> None:
        """The arrays of tables whose deals were just dealt (nothing played yet), together."""
        t = self.tables
        n, deals = t.n, t.deal_list
        # the hands from the deal's own masks (core.deal: _once the cards held, _twice those held twice), each
        # kind's bit picked out of the game's bit layout
        masks = np.array([d._once + d._twice for d in (deals[i] for i in tables)], np.int64)
        held = (masks[:, :, None] >> t.kind_shift) & 1
        t.hands[tables] = held[:, :n] + held[:, n:]
        t.pub[tables] = 0.0
        t.phase[tables] = t.phase_code[AUCTION]
        t.leader[tables] = -1
        t.trump[tables] = -1
        t.trump_public[tables] = True
        t.declarer[tables] = -1
        if self.kitty is not None:
            self.kitty.start(tables)
        legal_code = self.bank.legal_code
        for i in tables:
            deal = deals[i]
            t.rows[i], t.bits[i] = legal_code(deal.legal_moves())
            t.bits_changed()

    def observe_seats(self, seats: Sequence[int] | IntArray) -> FloatArray:
        """(N, D): the compact observation of table ``i`` for seat ``seats[i]``."""
        t = self.tables
        S = np.asarray(seats, dtype=np.int64)
        if self.jit is not None and S.min() >= 0:     # (a seat of -1: the numpy path, as before)
            out = t.pub.copy()
            self.jit.observe(t.hands, S, t.to_move, t.phase, t.leader, t.trump, t.trump_public, t.declarer,
                             t.o_seat, t.o_phase, t.o_to_move, t.o_leader, t.o_trump, t.sl_hand.start, out)
        else:
            out = t.pub.copy()
            base = self._row_base     # each table's row start in the flat array
            tm, lead, tc = t.to_move, t.leader, t.trump
            known = (tc >= 0) & (t.trump_public | (t.declarer == S))
            # the one-hot pieces in one scatter: seat and phase always, to_move, trick_leader and trump when set
            at = np.concatenate([base + t.o_seat + S, base + t.o_phase + t.phase,
                                 np.where(tm >= 0, base + t.o_to_move + tm, -1),
                                 np.where(lead >= 0, base + t.o_leader + lead, -1),
                                 np.where(known, base + t.o_trump + tc, -1)])
            out.reshape(-1)[at[at >= 0]] = 1.0
            out[:, t.sl_hand] = t.hands[self._ar, S]
        if self.kitty is not None:
            self.kitty.observe(out, S)
        return out

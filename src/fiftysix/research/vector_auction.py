"""The vector env's compiled 56 auction (:mod:`.vector`): tables dealt by the compiled dealing make their calls in
the numba kernel of :mod:`.vector_jit` and go on to the compiled card play (:mod:`.vector_play`) without an
engine deal: the deal is made from its seed and caught up (its calls and cards pushed, validated) only when
something reads it (``env.deals``, ``record``, an error message).

Used where the compiled play is and the auction is standard bidding with the trump the contract's strain (the
presets 56-4, 56-6, 56-8, 56-pairs-6 and 56-pairs-8); a deal put at a table with ``load`` makes its calls with the
engine until its next deal.  The kernel's tables come from the game's own rules: the calls' forms, values and
strains from its call vocabulary, the legal calls of each auction state from ``calls.legal_bids``, the scores of
each contract from ``deal_score``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.deal import AUCTION, PLAY
from ..core.moves import Call
from ..games.fifty_six import Auction56, Contract, deal_score
from ..games.fifty_six import auction as auction56
from ..games.fifty_six import calls as calls56
from ..games.fifty_six import play as play56
from .vector_arrays import TableArrays
from .vector_bank import LegalBank
from .vector_base import AUCTION_STATE, CALLS_MADE, BoolArray, IntArray, Tables
from .vector_deal import Dealing
from .vector_play import CompiledPlay
from .vector_support import compiled_auction as auction_rules

MIN_BID, MAX_BID = calls56.MIN_BID, calls56.MAX_BID
_KINDS = {"pass": 0, "double": 1, "redouble": 2}


def _kernel() -> Any:
    try:
        from .vector_jit import make_calls
    except ImportError:
        return None
    return make_calls


def compiled_auction(tables: Tables, play: CompiledPlay | None, bank: LegalBank, arrays: TableArrays,
                     dealing: Dealing) -> CompiledAuction | None:
    """The compiled 56 auction of ``tables`` where the rules allow it (its card play compiled, numba's dealing): else
    None, the engine makes the calls."""
    usable = play is not None and tables.game.play is play56 and auction_rules(tables.rules)   # (.vector_support)
    kernel = _kernel() if usable and dealing.jit is not None else None
    return None if kernel is None or play is None else CompiledAuction(tables, play, bank, arrays, dealing, kernel)


class CompiledAuction:
    """The calls of the tables dealt by the compiled dealing, compiled: each table's auction state and calls, the
    tables with no engine deal made yet, and the auction's rules as the kernel's tables.  An auction that ends
    starts the compiled play (the kernel writes the contract into ``play``'s arrays).

    :param bank: codes the legal calls of each auction state as bank rows.
    :param arrays: its rows of each call and the place of the standing bid, the observation's.
    :param dealing: draws each table's next seed and deals it (its deck as the compiled dealing reads it).
    """

    def __init__(self, tables: Tables, play: CompiledPlay, bank: LegalBank, arrays: TableArrays, dealing: Dealing,
                 kernel: Any) -> None:
        self.tables, self.play, self.dealing, self._kernel = tables, play, dealing, kernel
        self._call_rows, self._o_bid = arrays.call_rows, arrays.sl_bid.start
        rules: Any = tables.rules
        N, n = tables.num_tables, tables.n
        self.in_auction = np.zeros(N, np.bool_)      # the tables whose calls the kernel makes
        self.lazy = np.zeros(N, np.bool_)            # the tables with no engine deal made yet
        self.auction = np.zeros((N, AUCTION_STATE), np.int64)
        self.history = np.zeros((N, max(tables.enc.max_calls, 1)), np.int64)
        self._calls_pushed = np.zeros(N, np.int64)
        calls: list[Call] = list(tables.game.call_vocabulary(rules))
        assert [tables.enc.move_action(c) for c in calls] == list(range(len(calls)))
        self._moves_of_calls = calls
        self._call_kind = np.array([_KINDS.get(c.kind, 3) for c in calls], np.int64)
        self._call_value = np.array([-1 if c.value is None else c.value for c in calls], np.int64)
        self._call_step = np.array([c.step or 0 for c in calls], np.int64)
        self._call_strain = np.array([4 if c.strain is None else int(c.strain) for c in calls], np.int64)
        self._call_suit = np.array([-1 if c.suit is None else int(c.suit) for c in calls], np.int64)
        self.first_hand = (tables.dealer + 1) % n
        self._team_arr = np.array(tables.team_of, np.int64)
        self._closes = rules.double == "closes"
        self._legal_rows(rules, bank)
        self._score_table = self._contract_scores(rules)
        self._auction_start = np.array([MIN_BID - 1, -1, 0, 0, 0, 0, 0], np.int64)   # VALUE, BIDDER, ... CALLS

    def _legal_rows(self, rules: Any, bank: LegalBank) -> None:
        """The bank row of the legal calls of each auction state, as the game's ``auction.legal_calls`` lists them:
        [the standing value, the specials (bits: pass, double, redouble), no bid yet, a suit named] (the states an
        auction reaches: before any bid the value is ``MIN_BID - 1``, no suit named); the specials alone (after a
        double that closes); the first call's, from a new ``Auction56``."""
        rows = np.zeros((MAX_BID - MIN_BID + 2, 8, 2, 2), np.int64)
        states = [(MIN_BID - 1, 1, 0)] + [(v, 0, named) for v in range(MIN_BID, MAX_BID + 1) for named in (0, 1)]
        suit_size = rules.deck_size // 4
        for v, first, named in states:
            for sp in range(8):
                calls = auction56.legal_calls(sp, "standard", v, bool(first), named, suit_size)
                rows[v - MIN_BID + 1, sp, first, named] = bank.legal_code(calls[0])[0]
        self._state_rows = rows
        self._closed_rows = np.array([bank.legal_code(auction56.legal_calls(sp, "standard", MAX_BID, False, 0,
                                                                            suit_size)[1])[0] for sp in range(8)],
                                     np.int64)
        self._specials_over_bid = np.array(auction56.SPECIALS_OVER_BID, np.int64)
        self._first_row = bank.legal_code(Auction56(rules, self.first_hand).legal())[0]

    def _contract_scores(self, rules: Any) -> IntArray:
        """Every contract's scores per seat, by the game's ``deal_score``: [team, value, doubled, made 0 / failed 1,
        seat] (the score depends on no other field of the contract)."""
        n, team_of = self.tables.n, self.tables.team_of
        table = np.zeros((rules.n_teams, MAX_BID - MIN_BID + 1, 3, 2, n), np.int64)
        for t in range(rules.n_teams):
            for v in range(MIN_BID, MAX_BID + 1):
                for d, m in enumerate((1, 2, 4)):
                    c = Contract(declarer=team_of.index(t), team=t, value=v, strain=None, multiplier=m)
                    for made in (0, 1):
                        score = deal_score(rules, c, made == 0)
                        table[t, v - MIN_BID, d, made] = [score[team_of[s]] for s in range(n)]
        return table

    def call(self, acts: IntArray, in_place: bool = False) -> tuple[BoolArray, IntArray, IntArray, IntArray]:
        """The calls of the tables in compiled auction: (those tables, their next seats, bank rows and card bits;
        the tables' own arrays ``in_place``, else copies)."""
        t, play = self.tables, self.play
        if in_place:        # (a step where every table has a move: the tables that called are not asked for)
            called, to_move, rows, bits = self.in_auction, t.to_move, t.rows, t.bits
        else:
            called = self.in_auction & (acts >= 0)
            to_move, rows, bits = t.to_move.copy(), t.rows.copy(), t.bits.copy()
        o = t.layout.offsets
        self._kernel(
            acts, self.in_auction, self.auction, self.history, self._call_kind, self._call_value,
            self._call_step, self._call_strain, self._call_suit, self._call_rows, t.pub, o["last_call"],
            t.layout.call_width, o["calls"], self._o_bid, self.first_hand, self._team_arr, self._closes, MIN_BID,
            self._state_rows, self._closed_rows, self._specials_over_bid,
            to_move, rows, bits, t.phase, t.phase_code[PLAY], play.live, t.hands, play.in_trick,
            t.leader, play.team_points, play.tricks_won, play.trump_at, t.trump, t.declarer,
            play.team, play.value, play.scores, self._score_table, play.n_played)
        return called, to_move, rows, bits

    def calls_done(self, called: tuple[BoolArray, IntArray, IntArray, IntArray]) -> None:
        """The kernel's next seats and legal moves of the tables that called (the step's engine pass wrote 0)."""
        t = self.tables
        at, to_move, rows, bits = called
        t.to_move[at] = to_move[at]
        t.rows[at] = rows[at]
        t.bits[at] = bits[at]

    def holds_every_table(self, due: BoolArray) -> bool:
        """Whether the kernels hold every table (each in its compiled auction or play, or due its next deal: its
        action is ignored)."""
        return self.play.holds_every_table(self.in_auction, due)

    def leave(self, tables: list[int]) -> None:
        """Tables dealt by the engine (or loaded): the engine makes their calls."""
        self.in_auction[tables] = False

    def deal(self, tables: list[int]) -> None:
        """The next deals of ``tables`` (their seeds drawn and kept) by the compiled dealing, straight into the
        arrays, no engine deal made."""
        t, play = self.tables, self.play
        assert self.dealing.deck_places is not None
        drawn = self.dealing.draw_seeds(tables)
        self.dealing.jit.deal_tables(
            np.array(tables, np.int64), np.array(drawn, np.int64), *self.dealing.deck_places,
            t.rules.hand_size, t.kind_shift, t.hands,
            t.pub, t.phase, t.phase_code[AUCTION], t.leader, t.trump, t.trump_public, t.declarer, play.live,
            play.n_played, play.n_pushed, self.in_auction, self.lazy, self.auction, self._auction_start,
            self._calls_pushed, t.rows, self._first_row, t.bits, t.to_move, self.first_hand)
        t.bits_changed()
        deals: list[Any] = t.deal_list
        for i in tables:
            deals[i] = None

    def behind(self) -> BoolArray:
        """The tables whose engine deal is not made, or lacks calls the kernel made."""
        return self.lazy | (self.auction[:, CALLS_MADE] > self._calls_pushed)

    def catch_up(self, i: int) -> None:
        """Table ``i``'s engine deal made from its seed if it was not, and the kernel's calls pushed on it."""
        t = self.tables
        if self.lazy[i]:
            t.deal_list[i] = t.game.new_deal(t.rules, seed=self.dealing.deal_seeds[i], dealer=t.dealer)
            self.lazy[i] = False
            self._calls_pushed[i] = 0
        deal, moves = t.deal_list[i], self._moves_of_calls
        for at in range(int(self._calls_pushed[i]), int(self.auction[i, CALLS_MADE])):
            deal.push(moves[int(self.history[i, at])])
        self._calls_pushed[i] = self.auction[i, CALLS_MADE]

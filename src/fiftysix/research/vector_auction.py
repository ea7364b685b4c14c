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
from .vector_base import AUCTION_STATE, CALLS_MADE, BoolArray, FloatArray, IntArray
from .vector_play import CompiledPlay
from .vector_support import compiled_auction

MIN_BID, MAX_BID = calls56.MIN_BID, calls56.MAX_BID
_KINDS = {"pass": 0, "double": 1, "redouble": 2}


def _kernel() -> Any:
    try:
        from .vector_jit import make_calls
    except ImportError:
        return None
    return make_calls


class CompiledAuction(CompiledPlay):
    """The calls of the tables dealt by the compiled dealing, compiled."""

    def _init_auction(self) -> None:
        """The kernel's tables, where the rules allow it (else ``_call_kernel`` is None)."""
        rules: Any = self.rules
        self._call_kernel: Any = None
        usable = self.compiled and self.game.play is play56 and compiled_auction(rules)    # (.vector_support)
        kernel = _kernel() if usable and self._jit is not None else None
        N, n = self.num_tables, self.n
        self._in_auction = np.zeros(N, np.bool_)      # the tables whose calls the kernel makes
        self._lazy = np.zeros(N, np.bool_)            # the tables with no engine deal made yet
        self._auction = np.zeros((N, AUCTION_STATE), np.int64)
        self._history = np.zeros((N, max(self.enc.max_calls, 1)), np.int64)
        self._calls_pushed = np.zeros(N, np.int64)
        self._engine_may_hold = True
        self._moves_of_calls: list[Call] = []
        if kernel is None:
            return
        calls: list[Call] = list(self.game.call_vocabulary(rules))
        assert [self.enc.move_action(c) for c in calls] == list(range(len(calls)))
        self._moves_of_calls = calls
        self._call_kind = np.array([_KINDS.get(c.kind, 3) for c in calls], np.int64)
        self._call_value = np.array([-1 if c.value is None else c.value for c in calls], np.int64)
        self._call_step = np.array([c.step or 0 for c in calls], np.int64)
        self._call_strain = np.array([4 if c.strain is None else int(c.strain) for c in calls], np.int64)
        self._call_suit = np.array([-1 if c.suit is None else int(c.suit) for c in calls], np.int64)
        self._first_hand = (self.dealer + 1) % n
        self._legal_rows(rules)
        self._score_table = self._contract_scores(rules)
        self._auction_start = np.array([MIN_BID - 1, -1, 0, 0, 0, 0, 0], np.int64)   # VALUE, BIDDER, ... CALLS
        self._call_kernel = kernel

    def _legal_rows(self, rules: Any) -> None:
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
                rows[v - MIN_BID + 1, sp, first, named] = self._legal_code(calls[0])[0]
        self._state_rows = rows
        self._closed_rows = np.array([self._legal_code(auction56.legal_calls(sp, "standard", MAX_BID, False, 0,
                                                                             suit_size)[1])[0] for sp in range(8)],
                                     np.int64)
        self._specials_over_bid = np.array(auction56.SPECIALS_OVER_BID, np.int64)
        self._first_row = self._legal_code(Auction56(rules, self._first_hand).legal())[0]

    def _contract_scores(self, rules: Any) -> IntArray:
        """Every contract's scores per seat, by the game's ``deal_score``: [team, value, doubled, made 0 / failed 1,
        seat] (the score depends on no other field of the contract)."""
        n = self.n
        table = np.zeros((rules.n_teams, MAX_BID - MIN_BID + 1, 3, 2, n), np.int64)
        for t in range(rules.n_teams):
            for v in range(MIN_BID, MAX_BID + 1):
                for d, m in enumerate((1, 2, 4)):
                    c = Contract(declarer=self._team_of.index(t), team=t, value=v, strain=None, multiplier=m)
                    for made in (0, 1):
                        score = deal_score(rules, c, made == 0)
                        table[t, v - MIN_BID, d, made] = [score[self._team_of[s]] for s in range(n)]
        return table

    def _call_compiled(self, acts: IntArray, in_place: bool = False) -> tuple[BoolArray, IntArray, IntArray,
                                                                                IntArray]:
        """The calls of the tables in compiled auction: (those tables, their next seats, bank rows and card bits;
        the env's own arrays ``in_place``, else copies)."""
        if in_place:        # (a step where every table has a move: the tables that called are not asked for)
            called, to_move, rows, bits = self._in_auction, self._to_move, self._rows, self._bits
        else:
            called = self._in_auction & (acts >= 0)
            to_move, rows, bits = self._to_move.copy(), self._rows.copy(), self._bits.copy()
        o = self.layout.offsets
        self._call_kernel(
            acts, self._in_auction, self._auction, self._history, self._call_kind, self._call_value,
            self._call_step, self._call_strain, self._call_suit, self._call_rows, self._pub, o["last_call"],
            self.layout.call_width, o["calls"], self._sl_bid.start, self._first_hand, self._team_arr,
            self.rules.double == "closes", MIN_BID, self._state_rows, self._closed_rows,   # type: ignore[attr-defined]
            self._specials_over_bid,
            to_move, rows, bits, self._phase, self._phase_code[PLAY], self._live, self._hands, self._in_trick,
            self._leader, self._team_points, self._tricks_won, self._trump_at, self._trump, self._declarer,
            self._team, self._value, self._scores, self._score_table, self._n_played)
        return called, to_move, rows, bits

    def _holds_every_table(self) -> bool:
        """Whether the kernels hold every table (each in its compiled auction or play, a next deal dealt when one
        ends): then a step is :meth:`_step_held`.  Looked at again only after a table may have left them
        (``_engine_may_hold``, set where a table goes to the engine: :meth:`_leave_play`, :meth:`_enter_play`)."""
        if self._call_kernel is None or not self.autoreset:
            return False
        if self._engine_may_hold:     # (a table due its next deal is held too: its action is ignored)
            self._engine_may_hold = not bool((self._in_auction | self._live | self._due).all())
        return not self._engine_may_hold

    def _step_held(self, acts: IntArray, rewards: FloatArray) -> BoolArray:
        """A step where the kernels hold every table: the cards, then the calls (a table whose auction ends plays
        at the next step), written straight into the env's arrays, and the next deals of the deals that ended.
        Returns those tables."""
        over = self._play_compiled(acts, rewards, in_place=True)[3]
        self._call_compiled(acts, in_place=True)
        ended = np.flatnonzero(over).tolist()
        if ended and not self._same_step:     # NEXT_STEP: the deal's end, its next deal at the next step
            self._deals_ended(ended, rewards, self._to_move, frozenset(ended))
        elif ended:
            for i in ended:
                self.episodes[i] += 1
            self._episode_array[ended] += 1
            self._deal_compiled(ended)
        self._bits_version = object()
        return over

    def _calls_done(self, called: tuple[BoolArray, IntArray, IntArray, IntArray]) -> None:
        """The kernel's next seats and legal moves of the tables that called (the step's engine pass wrote 0)."""
        at, to_move, rows, bits = called
        self._to_move[at] = to_move[at]
        self._rows[at] = rows[at]
        self._bits[at] = bits[at]

    def _deal_compiled(self, tables: list[int]) -> None:
        """The next deals of ``tables`` (their seeds drawn and kept) by the compiled dealing, straight into the
        arrays, no engine deal made."""
        assert self._deck_places is not None
        drawn = self._draw_seeds(tables)
        self._jit.deal_tables(np.array(tables, np.int64), np.array(drawn, np.int64), *self._deck_places,
                              self.rules.hand_size, self._kind_shift, self._hands,
                              self._pub, self._phase, self._phase_code[AUCTION], self._leader, self._trump,
                              self._trump_public, self._declarer, self._live, self._n_played, self._n_pushed,
                              self._in_auction, self._lazy, self._auction, self._auction_start, self._calls_pushed,
                              self._rows, self._first_row, self._bits, self._to_move, self._first_hand)
        self._bits_version = object()
        deals: list[Any] = self._deal_list
        for i in tables:
            deals[i] = None

    def _catch_up_calls(self, i: int) -> None:
        """Table ``i``'s engine deal made from its seed if it was not, and the kernel's calls pushed on it."""
        if self._lazy[i]:
            self._deal_list[i] = self.game.new_deal(self.rules, seed=self.deal_seeds[i], dealer=self.dealer)
            self._lazy[i] = False
            self._calls_pushed[i] = 0
        deal, moves = self._deal_list[i], self._moves_of_calls
        for at in range(int(self._calls_pushed[i]), int(self._auction[i, CALLS_MADE])):
            deal.push(moves[int(self._history[i, at])])
        self._calls_pushed[i] = self._auction[i, CALLS_MADE]

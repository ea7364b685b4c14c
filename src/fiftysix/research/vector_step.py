"""What a step of the vector env (:mod:`.vector`) does at every table: the compiled kernels' cards and calls, the
engine's moves and the arrays after them, the deals that end and the next deals; and each table's engine deal,
caught up with the kernels' moves when something reads it."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode

from ..core.cards import Card
from ..core.deal import AUCTION, DISCARD, OVER, Deal
from .vector_arrays import TableArrays
from .vector_auction import CompiledAuction
from .vector_bank import LegalBank
from .vector_base import BoolArray, FloatArray, IntArray, Tables
from .vector_deal import Dealing
from .vector_play import CompiledPlay


class Steps:
    """The moves of a step at every table, by the parts the env is made of (each handed in).

    :param play: the compiled card play (None: the engine plays every card).
    :param auction: the compiled 56 auction (None: the engine makes the calls).
    :param mode: the env's autoreset mode: whether a table deals its next deal by itself, and in which step.
    """

    def __init__(self, tables: Tables, bank: LegalBank, arrays: TableArrays, dealing: Dealing,
                 play: CompiledPlay | None, auction: CompiledAuction | None, mode: AutoresetMode) -> None:
        self.tables, self.bank, self.arrays, self.dealing = tables, bank, arrays, dealing
        self.play, self.auction = play, auction
        self.autoreset = mode != AutoresetMode.DISABLED
        self.same_step = mode == AutoresetMode.SAME_STEP     # the next deal in the step that ended the last one

    # -- the engine deals ---------------------------------------------------------------------------------------
    def deal_at(self, i: int) -> Deal:
        """Table ``i``'s engine deal, caught up (made from its seed, the compiled calls and cards pushed)."""
        if self.play is not None:
            if self.auction is not None:
                self.auction.catch_up(i)
            self.play.catch_up(i)
        return self.tables.deal_list[i]

    def deals(self) -> list[Deal]:
        """Every table's engine deal, caught up."""
        if self.play is not None:
            behind = self.play.behind() if self.auction is None else self.auction.behind() | self.play.behind()
            for i in np.flatnonzero(behind).tolist():
                self.deal_at(i)
        return self.tables.deal_list

    def deal_all(self) -> None:
        """A first deal at every table (its seed drawn from its generator)."""
        t = self.tables
        tables = list(range(t.num_tables))
        if self.auction is not None:
            t.deal_list = [None] * t.num_tables    # type: ignore[list-item]
            self.auction.deal(tables)
        else:
            t.deal_list = self.dealing.fresh_deals(tables)
            self.start(tables)
            t.to_move[:] = [-1 if d.to_move is None else d.to_move for d in t.deal_list]

    def sync(self, i: int) -> None:
        """Rebuild table ``i``'s arrays from its deal (a new deal, or one loaded at any position): the engine makes
        its calls until its next deal, the kernel plays its cards once its play has begun."""
        self.arrays.rebuild(i, self.deal_at(i))
        if self.auction is not None:    # (a table loaded while in the compiled auction: not the kernel's any more)
            self.auction.leave([i])
        if self.play is not None:
            self._enter_play(i)

    def start(self, tables: list[int]) -> None:
        """The arrays of tables whose deals were just dealt by the engine (nothing played yet)."""
        if self.play is not None:
            self._leave_play(tables)
        self.arrays.start(tables)

    def _enter_play(self, i: int) -> None:
        assert self.play is not None
        if not self.play.enter(i):
            self._leave_play([i])

    def _leave_play(self, tables: list[int]) -> None:
        assert self.play is not None
        self.play.leave(tables)
        if self.auction is not None:
            self.auction.leave(tables)

    # -- a step -------------------------------------------------------------------------------------------------
    def holds_every_table(self, due: BoolArray) -> bool:
        """Whether the kernels hold every table (each in its compiled auction or play, a next deal dealt when one
        ends, or ``due`` its next deal): then a step is :meth:`step_held`."""
        if self.auction is None or not self.autoreset:
            return False
        return self.auction.holds_every_table(due)

    def step_held(self, acts: IntArray, rewards: FloatArray) -> BoolArray:
        """A step where the kernels hold every table: the cards, then the calls (a table whose auction ends plays
        at the next step), written straight into the arrays, and the next deals of the deals that ended.
        Returns those tables."""
        assert self.play is not None and self.auction is not None
        t = self.tables
        over = self.play.play(acts, rewards, in_place=True)[3]
        self.auction.call(acts, in_place=True)
        ended = np.flatnonzero(over).tolist()
        if ended and not self.same_step:     # NEXT_STEP: the deal's end, its next deal at the next step
            self.deals_ended(ended, rewards, t.to_move, frozenset(ended))
        elif ended:
            self.dealing.count(ended)
            self.auction.deal(ended)
        t.bits_changed()
        return over

    def move(self, acts: IntArray, rewards: FloatArray) -> BoolArray:
        """Every table's move of a step (where the kernels do not hold every table): the kernels' cards and calls,
        then the engine's moves.  Returns the terminations."""
        t, play, auction, kitty = self.tables, self.play, self.auction, self.arrays.kitty
        N = t.num_tables
        terminations = np.zeros(N, np.bool_)
        compiled = play.play(acts, rewards) if play is not None else None
        if compiled is not None:
            acts = np.where(compiled[0], -1, acts)      # the engine's moves: the others are played
        called = auction.call(acts) if auction is not None else None
        if called is not None:
            acts = np.where(called[0], -1, acts)        # (after the cards: a table whose auction ends plays next)
        deals, moves, first_card, ncalls = t.deal_list, self.bank.moves, t.first_card, self.arrays.ncalls
        ends: list[int] = []        # tables whose trick ended
        resync: list[int] = []      # other moves (trump choice, ?, CLAIM) and auctions that ended
        over: list[int] = []
        rows = np.zeros(N, np.int64)
        bits = np.zeros(N, np.int64)
        to_move = np.full(N, -1, np.int64)     # (a deal not over has a seat to move)
        legal_code, kind_bit = self.bank.legal_code, t.kind_bit
        if kitty is not None:   # 55 discards, one card at a time: not card play (these tables skip the pass below)
            for i in np.flatnonzero((t.phase == kitty.discard_code) & (acts >= 0)).tolist():
                to_move[i], rows[i], bits[i] = self.arrays.discard_step(i, int(acts[i]))
                acts[i] = -1
        # one pass over the engine's tables (not over: autoreset=False leaves -1): the move, then the next seat's
        # legal moves as (bank row, card bits)
        engine = np.flatnonzero(acts >= 0).tolist()
        for i, a in zip(engine, acts[engine].tolist(), strict=True):
            deal = deals[i]
            deal.push(moves[a])   # the validating push (the mask said legal)
            if a >= first_card:
                if not deal.trick_cards:
                    ends.append(i)
                    if deal.is_over:
                        over.append(i)
                        continue
            elif a >= ncalls or deal.phase != AUCTION:
                resync.append(i)
                if deal.is_over:
                    over.append(i)
                    continue
                if deal.phase == DISCARD:   # 55: the auction ended; the bidder took the kitty
                    assert kitty is not None
                    to_move[i], bits[i] = deal.to_move, kitty.begin_discard(i)  # type: ignore[assignment]
                    continue
            to_move[i] = deal.to_move     # type: ignore[assignment]
            legal: Any = deal.legal_moves()
            if legal[-1].__class__ is Card:      # the play's legal cards (other moves come after any cards)
                b = 0
                for c in legal:
                    b |= kind_bit[c]
                bits[i] = b
            else:
                rows[i], bits[i] = legal_code(legal)
        if engine:
            self.arrays.write_moves(acts, ends, resync)
        t.rows[:] = rows
        t.bits[:] = bits
        t.bits_changed()
        if compiled is not None:
            self._compiled_done(compiled, resync, over, rewards, terminations, to_move)
        elif over:
            self.deals_ended(over, rewards, to_move)
            terminations[over] = True
        t.to_move[:] = to_move
        if called is not None:
            assert auction is not None
            auction.calls_done(called)
        return terminations

    def _compiled_done(self, compiled: tuple[BoolArray, IntArray, IntArray, BoolArray], resync: list[int],
                       over: list[int], rewards: FloatArray, terminations: BoolArray, to_move: IntArray) -> None:
        """The end of a step with compiled play: the kernel's next seats and legal cards, every deal that ended
        (the engine's and the kernel's, the kernel's already scored), and the tables whose play begins."""
        live, next_seat, bits, ended = compiled
        self.tables.bits[live] = bits[live]
        to_move[live] = next_seat[live]
        done = np.flatnonzero(ended).tolist()
        if over or done:
            self.deals_ended(over + done, rewards, to_move, frozenset(done))
            terminations[over + done] = True
        for i in resync:
            self._enter_play(i)

    # -- a deal's end -------------------------------------------------------------------------------------------
    def deals_ended(self, over: list[int], rewards: FloatArray, to_move: IntArray,
                    scored: frozenset[int] = frozenset()) -> None:
        """The rewards of tables whose deal just ended (but those ``scored`` already: the compiled play's), and
        their next deals (``SAME_STEP``) or their final arrays."""
        t = self.tables
        deals, team_of = t.deal_list, t.team_of
        over_code = t.phase_code[OVER]
        for i in over:
            if i not in scored:
                score: Any = deals[i].score()   # type: ignore[attr-defined]
                if score:
                    rewards[i] = [score[s] for s in team_of]
            if i in scored:     # the kernel's deal: its arrays are the end's but for these (no engine catch-up)
                t.phase[i], t.leader[i] = over_code, -1
            elif not self.same_step:
                self.arrays.sync_public(i)
        self.dealing.count(over)
        if self.same_step:
            self.deal_next(over, to_move)
        elif self.play is not None:
            self.play.live[over] = False     # (no card of theirs for the kernel until their next deal)

    def deal_next(self, tables: list[int], to_move: IntArray) -> None:
        """The next deals of ``tables`` (their seats to move written in ``to_move``)."""
        if self.auction is not None:
            self.auction.deal(tables)
            to_move[tables] = self.auction.first_hand
            return
        deals = self.tables.deal_list
        for i, deal in zip(tables, self.dealing.fresh_deals(tables), strict=True):
            deals[i] = deal
            to_move[i] = deal.to_move   # type: ignore[assignment]
        self.start(tables)

    def deal_ended_by_bot(self, i: int) -> None:
        """A seated bot's move ended table ``i``'s deal (its rewards are written): the next deal, or the arrays
        of the deal's end (the bots' moves were pushed on the deal, not stepped through the arrays)."""
        self.dealing.count([i])
        if self.same_step:
            self.deals()[i] = self.dealing.fresh_deal(i)
            self.start([i])
            to_move = self.deals()[i].to_move
            self.tables.to_move[i] = -1 if to_move is None else to_move
        else:
            self.sync(i)

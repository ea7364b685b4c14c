"""The vector env's legal moves (:mod:`.vector`): each table's legal moves other than cards as a row of a bank of
masks (the engine's tuples of calls and trump choices are few and met again and again), its legal cards as bits of
card kinds; the masks, the random policy and the check of the actions against them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.cards import Card
from ..core.deal import DISCARD
from ..core.moves import Move
from .vector_base import BoolArray, IntArray, VectorTables

_ROW_IDS_KEPT = 4096     # legal tuples remembered by identity (55 builds fresh ones every call: see _legal_code)


class LegalBank(VectorTables):
    """The legal moves of every table, as masks."""

    def _init_bank(self) -> None:
        """The mask bank: one row per distinct tuple of legal moves met (row 0: none, a deal whose legal moves
        are all cards), and the action of each move met."""
        self._row_of = {(): 0}
        self._row_of_id = {}
        self._bank = np.zeros((64, self.num_actions), np.bool_)
        self._starts = np.zeros(64, np.int64)
        self._counts = np.zeros(64, np.int64)
        self._flat = np.zeros(1024, np.int64)
        self._flat_used = 0
        self._moves = [None] * self.num_actions
        self._action_of = {}
        for c in self.enc.kinds:
            self.action_of(c)

    def _check(self, actions: Sequence[int] | npt.NDArray[Any]) -> IntArray:
        acts = np.asarray(actions)
        if acts.shape != (self.num_tables,) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(f"actions must be {self.num_tables} integers (one a table), not an array of shape "
                             f"{acts.shape} and type {acts.dtype}")
        acts = acts.astype(np.int64, copy=False)    # (not changed: the answer is a new array)
        if self._jit is not None:
            out = np.empty_like(acts)
            bad = self._jit.check_actions(acts, self.num_actions, self.first_card, self._bits, self._bank,
                                          self._rows, self._to_move, out)
            if bad >= 0:
                raise ValueError(self._refusal(bad, int(acts[bad])))
            return out
        inside = (acts >= 0) & (acts < self.num_actions)
        safe = np.where(inside, acts, 0)
        card = safe - self.first_card
        in_bits = (card >= 0) & ((self._bits >> card.clip(0)) & 1).astype(np.bool_)
        ok = inside & (self._bank[self._rows, safe] | in_bits) | (self._to_move < 0)   # (a finished table: ignored)
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            raise ValueError(self._refusal(i, int(acts[i])))
        return np.where(self._to_move < 0, -1, acts)

    def _refusal(self, i: int, action: int) -> str:
        deal = self._deal_at(i)
        discarding = deal.phase == DISCARD
        legal = [f"{a} ({self.enc.action_text(a, discarding)})" for a in self.legal_actions(i)]
        what = (f"{action} ({self.enc.action_text(action, discarding)})" if 0 <= action < self.num_actions
                else f"{action} (not an action: actions are 0-{self.num_actions - 1})")
        return (f"table {i}: action {what} is not legal for seat {deal.to_move} now ({deal.phase}); "
                f"legal: {', '.join(legal)}; no table was changed")

    def legal_actions(self, i: int) -> list[int]:
        """The legal actions at table ``i``, in increasing order."""
        row = int(self._rows[i])
        start, count = int(self._starts[row]), int(self._counts[row])
        b = int(self._bits[i])
        cards = [self.first_card + c for c in range(self.k) if b >> c & 1]
        return sorted([int(a) for a in self._flat[start:start + count]] + cards)

    def _card_bits(self) -> BoolArray:
        """(N, kinds): the legal cards of each table, unpacked (once a step: kept until the bits change)."""
        cached = self._unpacked
        if cached is None or cached[0] is not self._bits_version:
            cached = self._unpacked = (self._bits_version, ((self._bits[:, None] >> self._ark) & 1).astype(np.bool_))
        return cached[1]

    def action_masks(self) -> BoolArray:
        """(N, actions): True for each legal action of each table's seat to move."""
        if self._jit is not None:
            out = np.empty((self.num_tables, self.num_actions), np.bool_)
            self._jit.masks(self._bank, self._rows, self._bits, self.first_card, self.k, out)
            return out
        mask = self._bank[self._rows]
        mask[:, self.first_card:] |= self._card_bits()
        return mask

    def sample_legal(self, rng: np.random.Generator) -> IntArray:
        """One uniformly drawn legal action per table (the random policy, without an (N, actions) draw); 0 at a
        table with no legal action (a deal's end: the action is ignored)."""
        rows = self._rows
        in_row = self._counts[rows]
        cards = self._card_bits()
        running = cards.cumsum(axis=1)
        total = in_row + running[:, -1]
        pick = (rng.random(self.num_tables) * total).astype(np.int64)
        from_row = pick < in_row
        kind = (running <= (pick - in_row)[:, None]).sum(axis=1)
        row_action = self._flat[self._starts[rows] + np.where(from_row, pick, 0)]
        return np.where(from_row, row_action, np.where(total > 0, self.first_card + kind, 0))

    def action_of(self, move: Move) -> int:
        """The action number of an engine move."""
        a = self._action_of.get(move)
        if a is None:
            a = self.enc.move_action(move)
            self._action_of[move] = a
            self._moves[a] = move
        return a

    def _legal_code(self, legal: tuple[Move, ...]) -> tuple[int, int]:
        """A tuple of legal moves as (a bank row of its moves other than cards, a bit mask of its card kinds)."""
        hit = self._row_of_id.get(id(legal))
        if hit is not None and hit[0] is legal:
            return hit[1], 0
        cards = [m for m in legal if isinstance(m, Card)]
        b = 0
        for c in cards:
            self.action_of(c)
            b |= self._kind_bit[c]
        rest = legal[len(cards):] if cards else legal
        row = self._row_of.get(rest)
        if row is None:
            row = self._new_row(rest)
        if not cards:
            # calls and trump choices come from the engine's own tables of them: kept alive here (so the id
            # cannot be reused) and looked up by id; 55 builds a fresh tuple at each call, so the memo is
            # bounded (forgetting costs one lookup by value)
            if len(self._row_of_id) >= _ROW_IDS_KEPT:
                self._row_of_id.clear()
            self._row_of_id[id(legal)] = (legal, row)
        return row, b

    def _new_row(self, legal: tuple[Move, ...]) -> int:
        actions = sorted(self.action_of(m) for m in legal)
        row = len(self._row_of)
        if row >= len(self._bank):
            self._bank = np.concatenate([self._bank, np.zeros_like(self._bank)])
            self._starts = np.concatenate([self._starts, np.zeros_like(self._starts)])
            self._counts = np.concatenate([self._counts, np.zeros_like(self._counts)])
        need = self._flat_used + len(actions)
        while need > len(self._flat):
            self._flat = np.concatenate([self._flat, np.zeros_like(self._flat)])
        self._flat[self._flat_used:need] = actions
        self._starts[row], self._counts[row] = self._flat_used, len(actions)
        self._flat_used = need
        self._bank[row, actions] = True
        self._row_of[legal] = row
        return row

    def _set_legal(self, i: int) -> None:
        deal = self._deal_at(i)
        if deal.is_over:
            self._rows[i], self._bits[i] = 0, 0
            self._bits_version = object()
            return
        if deal.phase == DISCARD:
            self._rows[i], self._bits[i] = 0, self._begin_discard(i)
        else:
            self._rows[i], self._bits[i] = self._legal_code(deal.legal_moves())
        self._bits_version = object()

"""The vector env's legal moves (:mod:`.vector`): each table's legal moves other than cards as a row of a bank of
masks (the engine's tuples of calls and trump choices are few and met again and again), its legal cards as bits of
card kinds; the masks, the random policy and the check of the actions against them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.cards import Card
from ..core.moves import Move
from .vector_base import BoolArray, IntArray, Tables

_ROW_IDS_KEPT = 4096     # legal tuples remembered by identity (55 builds fresh ones every call: see legal_code)


class LegalBank:
    """The legal moves of every table, as masks: the bank of rows met, and the tables' rows and card bits read
    from :class:`~.vector_base.Tables`.

    :param jit: the compiled check and masks (:mod:`.vector_jit_arrays`), or None: numpy's.
    """

    def __init__(self, tables: Tables, jit: Any) -> None:
        self.tables, self.jit = tables, jit
        self.row_of: dict[tuple[Move, ...], int] = {(): 0}     # row 0: none (a deal's legal moves all cards)
        self.row_of_id: dict[int, tuple[tuple[Move, ...], int]] = {}
        self.bank: BoolArray = np.zeros((64, tables.num_actions), np.bool_)
        self.starts: IntArray = np.zeros(64, np.int64)      # each row's actions in ``flat``
        self.counts: IntArray = np.zeros(64, np.int64)
        self.flat: IntArray = np.zeros(1024, np.int64)
        self.flat_used = 0
        self.moves: list[Move | None] = [None] * tables.num_actions    # each action's move, once met
        self._action_of: dict[Move, int] = {}
        self._ark = np.arange(tables.k, dtype=np.int64)
        self._unpacked: tuple[object, BoolArray] | None = None
        for c in tables.enc.kinds:
            self.action_of(c)

    def check(self, actions: Sequence[int] | npt.NDArray[Any], refusal: Callable[[int, int], str]) -> IntArray:
        """The actions checked against the masks: each table's (-1 at a finished table, its action ignored).

        :raises ValueError: for actions that are not one integer a table, or ``refusal(table, action)`` for the
            first table whose action is not legal.
        """
        t = self.tables
        acts = np.asarray(actions)
        if acts.shape != (t.num_tables,) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(f"actions must be {t.num_tables} integers (one a table), not an array of shape "
                             f"{acts.shape} and type {acts.dtype}")
        acts = acts.astype(np.int64, copy=False)    # (not changed: the answer is a new array)
        if self.jit is not None:
            out = np.empty_like(acts)
            bad = self.jit.check_actions(acts, t.num_actions, t.first_card, t.bits, self.bank, t.rows, t.to_move,
                                         out)
            if bad >= 0:
                raise ValueError(refusal(bad, int(acts[bad])))
            return out
        inside = (acts >= 0) & (acts < t.num_actions)
        safe = np.where(inside, acts, 0)
        card = safe - t.first_card
        in_bits = (card >= 0) & ((t.bits >> card.clip(0)) & 1).astype(np.bool_)
        ok = inside & (self.bank[t.rows, safe] | in_bits) | (t.to_move < 0)   # (a finished table: ignored)
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            raise ValueError(refusal(i, int(acts[i])))
        return np.where(t.to_move < 0, -1, acts)

    def legal_actions(self, i: int) -> list[int]:
        """The legal actions at table ``i``, in increasing order."""
        t = self.tables
        row = int(t.rows[i])
        start, count = int(self.starts[row]), int(self.counts[row])
        b = int(t.bits[i])
        cards = [t.first_card + c for c in range(t.k) if b >> c & 1]
        return sorted([int(a) for a in self.flat[start:start + count]] + cards)

    def _card_bits(self) -> BoolArray:
        """(N, kinds): the legal cards of each table, unpacked (once a step: kept until the bits change)."""
        t = self.tables
        cached = self._unpacked
        if cached is None or cached[0] is not t.bits_version:
            cached = self._unpacked = (t.bits_version, ((t.bits[:, None] >> self._ark) & 1).astype(np.bool_))
        return cached[1]

    def action_masks(self) -> BoolArray:
        """(N, actions): True for each legal action of each table's seat to move."""
        t = self.tables
        if self.jit is not None:
            out = np.empty((t.num_tables, t.num_actions), np.bool_)
            self.jit.masks(self.bank, t.rows, t.bits, t.first_card, t.k, out)
            return out
        mask = self.bank[t.rows]
        mask[:, t.first_card:] |= self._card_bits()
        return mask

    def sample_legal(self, rng: np.random.Generator) -> IntArray:
        """One uniformly drawn legal action per table (the random policy, without an (N, actions) draw); 0 at a
        table with no legal action (a deal's end: the action is ignored)."""
        t = self.tables
        rows = t.rows
        in_row = self.counts[rows]
        cards = self._card_bits()
        running = cards.cumsum(axis=1)
        total = in_row + running[:, -1]
        pick = (rng.random(t.num_tables) * total).astype(np.int64)
        from_row = pick < in_row
        kind = (running <= (pick - in_row)[:, None]).sum(axis=1)
        row_action = self.flat[self.starts[rows] + np.where(from_row, pick, 0)]
        return np.where(from_row, row_action, np.where(total > 0, t.first_card + kind, 0))

    def action_of(self, move: Move) -> int:
        """The action number of an engine move."""
        a = self._action_of.get(move)
        if a is None:
            a = self.tables.enc.move_action(move)
            self._action_of[move] = a
            self.moves[a] = move
        return a

    def legal_code(self, legal: tuple[Move, ...]) -> tuple[int, int]:
        """A tuple of legal moves as (a bank row of its moves other than cards, a bit mask of its card kinds)."""
        hit = self.row_of_id.get(id(legal))
        if hit is not None and hit[0] is legal:
            return hit[1], 0
        cards = [m for m in legal if isinstance(m, Card)]
        b = 0
        kind_bit = self.tables.kind_bit
        for c in cards:
            self.action_of(c)
            b |= kind_bit[c]
        rest = legal[len(cards):] if cards else legal
        row = self.row_of.get(rest)
        if row is None:
            row = self._new_row(rest)
        if not cards:
            # calls and trump choices come from the engine's own tables of them: kept alive here (so the id
            # cannot be reused) and looked up by id; 55 builds a fresh tuple at each call, so the memo is
            # bounded (forgetting costs one lookup by value)
            if len(self.row_of_id) >= _ROW_IDS_KEPT:
                self.row_of_id.clear()
            self.row_of_id[id(legal)] = (legal, row)
        return row, b

    def _new_row(self, legal: tuple[Move, ...]) -> int:
        actions = sorted(self.action_of(m) for m in legal)
        row = len(self.row_of)
        if row >= len(self.bank):
            self.bank = np.concatenate([self.bank, np.zeros_like(self.bank)])
            self.starts = np.concatenate([self.starts, np.zeros_like(self.starts)])
            self.counts = np.concatenate([self.counts, np.zeros_like(self.counts)])
        need = self.flat_used + len(actions)
        while need > len(self.flat):
            self.flat = np.concatenate([self.flat, np.zeros_like(self.flat)])
        self.flat[self.flat_used:need] = actions
        self.starts[row], self.counts[row] = self.flat_used, len(actions)
        self.flat_used = need
        self.bank[row, actions] = True
        self.row_of[legal] = row
        return row

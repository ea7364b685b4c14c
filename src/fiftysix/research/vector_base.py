"""The state of N tables that the vector env's parts share (:class:`.vector.VectorEnv`), and the array types.

The env is composed of parts along its seams, each holding its own state and handed what it reads in its
constructor: the tables' shared arrays here (:class:`Tables`), the legal moves as a mask bank (:mod:`.vector_bank`),
the observation arrays rebuilt from a deal and observed (:mod:`.vector_arrays`), 55's kitty and discard
(:mod:`.vector_kitty`), the seeds and the dealing (:mod:`.vector_deal`), the compiled card play (:mod:`.vector_play`)
and 56 auction (:mod:`.vector_auction`), a step's moves at every table (:mod:`.vector_step`), and the env itself, its
Gymnasium API (:mod:`.vector`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..core.deal import Deal
from .compact import Layout
from .table import Encoding

AUCTION_STATE, CALLS_MADE = 7, 6
"""The compiled auction's state of a table: 7 columns (:mod:`.vector_jit`: ``VALUE`` ... ``CALLS``), the calls made
so far in column 6."""

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


class Tables:
    """N tables of one ruleset: the constants their arrays are read with, each table's engine deal, the pieces of
    its compact observation kept up to date move by move, and its legal moves (a bank row of the moves other than
    cards, :mod:`.vector_bank`, and the legal card kinds as bits)."""

    def __init__(self, enc: Encoding, num_tables: int) -> None:
        self.enc = enc
        self.game = enc.game
        self.rules = enc.rules
        self.dealer = enc.dealer
        self.num_tables = N = num_tables
        self.layout = layout = Layout(enc)
        self.n = n = enc.n                      # seats
        self.k = k = len(enc.kinds)             # card kinds
        self.kitty = enc.kitty                  # 55's kitty size (0 in 56)
        self.num_actions = enc.num_actions
        self.first_card = enc.first_card        # actions from this one on are cards
        self.kind = [-1] * 52                   # card -> its kind
        self.kind_bit = [0] * 52                # card -> its kind's bit
        for j, c in enumerate(enc.kinds):
            self.kind[int(c)] = j
            self.kind_bit[int(c)] = 1 << j
        bits_of = type(self.game.new_deal(self.rules, seed=0)).BITS.bit
        self.kind_shift = np.array([bits_of[c].bit_length() - 1 for c in enc.kinds], np.int64)   # a deal's bits
        self.team_of = tuple(enc.team_of)
        self.phase_code = {p: i for i, p in enumerate(layout.phases)}
        o = layout.offsets
        self.o_seat, self.o_to_move, self.o_phase = o["seat"], o["to_move"], o["phase"]
        self.o_played, self.o_trick, self.o_leader = o["played"], o["trick"], o["trick_leader"]
        self.sl_trick, self.sl_points, self.sl_hand = (layout.slice(p) for p in ("trick", "points", "hand"))
        self.o_trump = o["trump"]
        self.deal_list: list[Deal] = []         # each table's engine deal (``env.deals``: caught up)
        self.pub: FloatArray = np.zeros((N, layout.size), np.float32)     # every piece but the private ones
        self.hands: FloatArray = np.zeros((N, n, k), np.float32)
        self.phase: IntArray = np.zeros(N, np.int64)
        self.leader: IntArray = np.full(N, -1, np.int64)
        self.to_move: IntArray = np.zeros(N, np.int64)
        self.trump: IntArray = np.full(N, -1, np.int64)
        self.trump_public: BoolArray = np.ones(N, np.bool_)
        self.declarer: IntArray = np.full(N, -1, np.int64)
        self.rows: IntArray = np.zeros(N, np.int64)     # each table's bank row of legal moves other than cards
        self.bits: IntArray = np.zeros(N, np.int64)     # and its legal card kinds, bit i for kind i
        self.bits_version = object()                    # a new object whenever ``bits`` changes

    def bits_changed(self) -> None:
        """Some table's legal card bits changed (the bank's unpacked copy is stale)."""
        self.bits_version = object()

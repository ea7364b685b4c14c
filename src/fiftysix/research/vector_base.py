"""What every part of the vector env (:class:`.vector.VectorEnv`) holds: its arrays and tables, declared once.

The env is composed of parts along its seams, each in its own file: the legal moves as a mask bank
(:mod:`.vector_bank`), the arrays of the compact observation, dealing and observing (:mod:`.vector_arrays`), 55's
kitty and discard (:mod:`.vector_kitty`), the compiled card play (:mod:`.vector_play`) and 56 auction
(:mod:`.vector_auction`), dealing (:mod:`.vector_deal`), and the env itself, its Gymnasium API and its step
(:mod:`.vector`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode

from ..core.deal import Deal
from ..core.moves import Move
from ..core.options import Rules
from ..games.spec import GameSpec
from .compact import Layout
from .table import Encoding

AUCTION_STATE, CALLS_MADE = 7, 6
"""The compiled auction's state of a table: 7 columns (:mod:`.vector_jit`: ``VALUE`` ... ``CALLS``), the calls made
so far in column 6."""

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


class VectorTables:
    """The state of N tables, shared by the env's parts (set in :meth:`.vector.VectorEnv.__init__`)."""

    enc: Encoding
    game: GameSpec
    rules: Rules
    dealer: int
    num_tables: int
    layout: Layout
    n: int                      # seats
    k: int                      # card kinds
    kitty: int                  # 55's kitty size (0 in 56)
    num_actions: int
    first_card: int             # actions from this one on are cards
    autoreset: bool             # a table deals its next deal by itself (NEXT_STEP or SAME_STEP)
    autoreset_mode: AutoresetMode
    _same_step: bool            # ... in the step that ended the last one
    _due: BoolArray             # NEXT_STEP: the tables whose deal ended at the last step
    _observer: IntArray         # each table's seat that moved last
    _live: BoolArray            # the tables in compiled play (.vector_play)
    _ready: bool                # reset() was called
    _deal_list: list[Deal]      # each table's engine deal (``deals``: caught up with the compiled play)
    compiled: bool              # the cards past the auction are played by the compiled kernel (.vector_play)
    _jit: Any                   # with it, the compiled check, masks and observations (.vector_jit_arrays)
    deal_seeds: list[int]
    episodes: list[int]
    _rngs: list[random.Random]
    _seed_array: IntArray
    _episode_array: IntArray
    # each table's observation pieces, kept up to date move by move
    _pub: FloatArray            # every piece but the private ones
    _hands: FloatArray          # (N, seats, kinds)
    _phase: IntArray
    _leader: IntArray
    _to_move: IntArray
    _trump: IntArray
    _trump_public: BoolArray
    _declarer: IntArray
    _phase_code: dict[str, int]
    _kind: list[int]            # card -> its kind
    _kind_bit: list[int]        # card -> its kind's bit
    _kind_shift: IntArray
    _team_of: tuple[int, ...]
    _ar: IntArray
    _row_base: IntArray
    _o_seat: int
    _o_to_move: int
    _o_phase: int
    _o_played: int
    _o_trick: int
    _o_leader: int
    _o_trump: int
    _sl_trick: slice
    _sl_points: slice
    _sl_hand: slice
    # the compiled auction (.vector_auction): its tables, those without an engine deal yet, the calls' state
    _in_auction: BoolArray
    _lazy: BoolArray
    _auction: IntArray
    _calls_pushed: IntArray
    _call_kernel: Any           # None where the engine makes the calls
    _engine_may_hold: bool      # a table may have gone to the engine since the kernels last held every one
    _deck_places: tuple[Any, Any] | None    # the deck as the compiled dealing reads it (.vector_deal)
    _first_hand: int
    # the legal moves: a bank row of moves other than cards, and the legal card kinds as bits
    _rows: IntArray
    _bits: IntArray
    _bits_version: object       # a new object whenever _bits changes
    _unpacked: tuple[object, BoolArray] | None
    _ark: IntArray
    _row_of: dict[tuple[Move, ...], int]
    _row_of_id: dict[int, tuple[tuple[Move, ...], int]]
    _bank: BoolArray
    _starts: IntArray
    _counts: IntArray
    _flat: IntArray
    _flat_used: int
    _moves: list[Move | None]
    _action_of: dict[Move, int]
    # the standing bid
    _sl_bid: slice
    _bid_ids: dict[tuple[int, int, int, int], int]
    _bid_bank: FloatArray
    _ncalls: int                # actions below this are calls
    _call_rows: FloatArray
    _arw: IntArray              # the columns of one call's row
    # 55's kitty and discard
    _discard_code: int
    _discards_open: bool
    _discard_cards: FloatArray
    _pending: FloatArray
    _bidder: IntArray
    _pending_kinds: list[list[int]]
    _discard_held: list[int]
    _place_kind: list[int]
    _o_kitty: int
    _o_high_seat: int
    _o_high_card: int
    _sl_discard: slice
    _sl_pending: slice
    _sl_high: slice

    @property
    def deals(self) -> list[Deal]:
        """Each table's engine deal (with the cards of the compiled play pushed on it)."""
        if self.compiled:
            self._catch_up_all()
        return self._deal_list

    def _deal_at(self, i: int) -> Deal:
        """Table ``i``'s engine deal, caught up (made from its seed, the compiled calls and cards pushed): ``deals[i]``
        without catching up every other table."""
        if self.compiled:
            self._catch_up(i)
        return self._deal_list[i]

    if TYPE_CHECKING:       # each part's methods that the others call
        def _catch_up_all(self) -> None: ...

        def _enter_play(self, i: int) -> None: ...

        def _fresh_deal(self, i: int) -> Deal: ...

        def _init_dealing(self) -> None: ...

        def _fresh_deals(self, tables: list[int]) -> list[Deal]: ...

        def _deal_next(self, tables: list[int], to_move: IntArray) -> None: ...

        def _leave_play(self, tables: list[int]) -> None: ...

        def _catch_up(self, i: int) -> None: ...

        def _catch_up_calls(self, i: int) -> None: ...

        def _deal_compiled(self, tables: list[int]) -> None: ...

        def _start(self, tables: list[int]) -> None: ...

        def _sync(self, i: int) -> None: ...

        def _deal_masks(self, tables: list[int]) -> tuple[IntArray, IntArray]: ...

        def _draw_seeds(self, tables: list[int]) -> list[int]: ...

        def _deals_ended(self, over: list[int], rewards: FloatArray, to_move: IntArray,
                         scored: frozenset[int] = frozenset()) -> None: ...

        def action_of(self, move: Move) -> int: ...

        def legal_actions(self, i: int) -> list[int]: ...

        def _legal_code(self, legal: tuple[Move, ...]) -> tuple[int, int]: ...

        def _set_legal(self, i: int) -> None: ...

        def _sync_public(self, i: int, calls_too: bool = False) -> None: ...

        def _begin_discard(self, i: int) -> int: ...

        def _sync_kitty(self, i: int) -> None: ...

        def _sync_highest(self, i: int) -> None: ...

        def _observe_kitty(self, out: FloatArray, S: IntArray) -> FloatArray: ...

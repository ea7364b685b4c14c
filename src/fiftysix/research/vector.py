"""N tables of 56 or 55 stepped at once, straight from the engine: numpy observations, masks, rewards.

    from fiftysix.research.vector import VectorEnv
    env = VectorEnv("56-6", num_tables=256)
    obs, info = env.reset(seed=1)            # obs (N, D) float32: each table's seat to move
    rng = np.random.default_rng(0)
    for _ in range(1000):
        actions = env.sample_legal(rng)      # or your policy, masked by info["action_mask"]
        obs, rewards, terminations, truncations, info = env.step(actions)

No JSON view is built: each table is a :class:`~fiftysix.core.deal.Deal` of the engine (or, where numba kernels
play the whole deal, arrays from which that deal is made only when read), its legal moves become a row of a cached
mask bank, and the observation is kept as numpy arrays updated by each move.  The
observation is the **compact observation** of :class:`Layout` (``docs/research.md`` has the table): only what
the observing seat may know.  :func:`encode_view` builds the same vector from a seat's JSON view (slowly); the
tests check that the two agree at every step, which shows that the fast path reads nothing a view would not
show.

The action numbers are those of the OpenSpiel game and the PettingZoo environment
(:class:`fiftysix.research.table.Encoding`).  Each table plays its deals one after another (**auto-reset**,
Gymnasium's ``NEXT_STEP`` by default): the step that ends a deal returns its rewards and ``terminations[i] = True``,
the table's next step ignores its action and returns the first observation of the next deal.  Dealing is the
explicit seeded chance step: deal ``j`` of table ``i`` is ``game.new_deal(rules, seed=info["deal_seed"][i],
dealer=env.dealer)``, its seed drawn from the ``reset`` seed and ``i`` alone, so a seed plus the actions replays
every table exactly.

55 plays as in the single-table adapters: the bidder takes the kitty, then discards one card at a time (a
card action in the discard phase means "discard this card", in increasing action order); the compact
observation then has the pieces ``kitty_size``, ``discard``, ``pending_discard`` and the highest trump.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as GymVectorEnv

from ..core.cards import Card
from ..core.deal import AUCTION, DISCARD
from .compact import PHASES, PHASES_WITH_KITTY, Layout, Piece, encode_view
from .seated import BotSeats, SeatedBot, check_bots
from .table import Encoding
from .vector_arrays import TableArrays
from .vector_auction import CompiledAuction
from .vector_bank import LegalBank
from .vector_base import BoolArray, FloatArray, IntArray
from .vector_deal import Dealing
from .vector_kitty import KittyTables
from .vector_modes import autoreset_mode
from .vector_modes import reward_seat as resolve_reward_seat
from .vector_rules56 import RulesSeats, rules_bots


class VectorEnv(TableArrays, LegalBank, KittyTables, CompiledAuction, Dealing, GymVectorEnv):
    """``num_tables`` tables of one ruleset of 56 or 55, stepped together: a ``gymnasium.vector.VectorEnv``.

    ``num_envs`` is ``num_tables``; ``single_observation_space`` is a ``Box`` of the compact observation,
    ``single_action_space`` a ``Discrete`` of the actions, ``observation_space`` and ``action_space`` their
    batches.  ``metadata["autoreset_mode"]`` is the ``autoreset`` mode (:mod:`.vector_modes`).

    :param rules: a preset name (``"56-6"``) or a rules object (``{"preset": "56-6", "deck": ...}``).
    :param dealer: the dealer of every deal (default: the last seat, so that seat 0 calls and leads first).
    :param autoreset: ``True`` (default) or ``AutoresetMode.NEXT_STEP``: Gymnasium's own mode, the one its
        wrappers accept: the step that ends a table's deal returns its rewards, ``terminations[i] = True`` and the
        observation of the deal's end (by the seat that moved; no seat to move, no legal action); the table's next
        step ignores its action, deals the next deal and returns its first observation with reward 0.
        ``AutoresetMode.SAME_STEP``: the step that ends a deal returns already the first observation of the next
        (no ``final_obs``).  ``False`` or ``AutoresetMode.DISABLED``: the table stays at its deal's end (``to_move``
        -1, no legal action, its actions ignored) until :meth:`reset`.
    :param reward_seat: whose rewards ``step`` returns: ``None`` (default): the learner's lowest seat (seat 0
        without bots), rewards (N,) as Gymnasium's vector wrappers expect; a seat: that seat's, (N,); ``"all"``:
        every seat's team score, (N, seats).
    :param bots: seats played by our bots, by name (``{1: "rules", 3: "rules"}``) or as bot objects (copied for
        every table): the learner acts for the
        other seats only (:mod:`fiftysix.research.seated`).
    :param compiled: play the cards after the auction (56) or after the discard and the trump choice (55) with a
        numba kernel where it can (:mod:`.vector_play`; ``env.compiled`` says if it does), and 56's calls too with
        standard bidding and the contract's strain as trumps (:mod:`.vector_auction`); ``False``: every move is the
        engine's ``Deal.push``, the reference.
    :raises ValueError: for a number of tables below 1, a dealer or reward seat that is not a seat (nor
        ``"all"``), an autoreset that is not a mode, a bot seat or name that is not one, or bots in every seat.
    :raises RulesError: for an unknown preset or option.
    """

    def __init__(self, rules: object = "56-4", num_tables: int = 64, dealer: int | None = None,
                 autoreset: bool | str | AutoresetMode = True, reward_seat: int | str | None = None,
                 bots: Mapping[int, SeatedBot] | None = None, compiled: bool = True) -> None:
        if not isinstance(num_tables, int) or isinstance(num_tables, bool) or num_tables < 1:
            raise ValueError(f"num_tables must be an int of at least 1, not {num_tables!r}")
        self.enc = enc = Encoding(rules, dealer)   # type: ignore[arg-type]
        self.autoreset_mode = mode = autoreset_mode(autoreset)
        seated = check_bots(bots, enc.n, enc.game.name) if bots else {}
        self.reward_seat = resolve_reward_seat(reward_seat, enc.n, seated)
        self.game = enc.game
        self.rules = enc.rules
        self.dealer = enc.dealer
        self.num_tables = num_tables
        self.layout = layout = Layout(enc)
        self.n = n = enc.n
        self.k = k = len(enc.kinds)
        self.num_actions = enc.num_actions
        self.observation_size = layout.size
        self.first_card = enc.first_card
        self._kind = [-1] * 52
        for i, c in enumerate(enc.kinds):
            self._kind[int(c)] = i
        self._team_of = tuple(enc.team_of)
        N = num_tables
        self._pub = np.zeros((N, layout.size), np.float32)     # every piece but the private ones
        self._hands = np.zeros((N, n, k), np.float32)
        self._phase = np.zeros(N, np.int64)
        self._leader = np.full(N, -1, np.int64)
        self._to_move = np.zeros(N, np.int64)
        self._trump = np.full(N, -1, np.int64)
        self._trump_public = np.ones(N, np.bool_)
        self._declarer = np.full(N, -1, np.int64)
        self._rows = np.zeros(N, np.int64)      # each table's bank row of legal moves other than cards
        self._bits = np.zeros(N, np.int64)      # and its legal card kinds, bit i for kind i
        self._ark = np.arange(k, dtype=np.int64)
        self._bits_version = object()     # a new object whenever _bits changes
        self._unpacked = None
        self._kind_bit = [0] * 52
        for j, c in enumerate(enc.kinds):
            self._kind_bit[int(c)] = 1 << j
        self._deal_list = []
        self.compiled = False
        self.deal_seeds = [-1] * N
        self.episodes = [0] * N
        self._seed_array = np.full(N, -1, np.int64)     # (the two lists as arrays, for the info)
        self._episode_array = np.zeros(N, np.int64)
        self._rngs = []
        self._init_bank()
        self._phase_code = {p: i for i, p in enumerate(layout.phases)}
        self.kitty = enc.kitty
        o = layout.offsets
        self._o_seat, self._o_to_move, self._o_phase = o["seat"], o["to_move"], o["phase"]
        self._o_played, self._o_trick, self._o_leader = o["played"], o["trick"], o["trick_leader"]
        self._sl_trick, self._sl_points, self._sl_hand = (layout.slice(p) for p in ("trick", "points", "hand"))
        self._o_trump = o["trump"]
        self._init_bids()
        bits_of = type(self.game.new_deal(self.rules, seed=0)).BITS.bit
        self._kind_shift = np.array([bits_of[c].bit_length() - 1 for c in enc.kinds], np.int64)
        self._kind_bits = np.zeros(52, np.int64)   # card -> its kind's bit
        for j, c in enumerate(enc.kinds):
            self._kind_bits[int(c)] = 1 << j
        if enc.kitty:
            self._init_kitty()      # (after the kinds' places)
        self._ar = np.arange(N)
        self._row_base = self._ar * layout.size
        self._ready = False
        self.autoreset = mode != AutoresetMode.DISABLED
        self._same_step = mode == AutoresetMode.SAME_STEP
        self._due = np.zeros(N, np.bool_)           # NEXT_STEP: the tables whose deal ended at the last step
        self._observer = np.zeros(N, np.int64)      # the seat that moved last: it observes a deal's end
        self._init_spaces()
        self.bot_seats = BotSeats(seated, self.game.name, num_tables) if seated else None
        compiled_bots = rules_bots(seated, self.rules) if compiled and seated else None   # (.vector_rules56)
        self._init_play(compiled, bool(seated) and compiled_bots is None)
        self._init_auction()
        self.rules_seats = RulesSeats(self, compiled_bots) if compiled_bots and self._call_kernel else None

    def _init_spaces(self) -> None:
        """The Gymnasium attributes: the spaces of one table and of the batch, the autoreset mode."""
        self.num_envs = self.num_tables
        lows = [np.full(p.size, p.low, np.float32) for p in self.layout.pieces]
        highs = [np.full(p.size, p.high, np.float32) for p in self.layout.pieces]
        self.single_observation_space = spaces.Box(np.concatenate(lows), np.concatenate(highs),
                                                   dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.observation_space = spaces.Box(np.tile(self.single_observation_space.low, (self.num_tables, 1)),
                                            np.tile(self.single_observation_space.high, (self.num_tables, 1)),
                                            dtype=np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(self.num_tables, self.num_actions))
        self.metadata = {"autoreset_mode": self.autoreset_mode}

    # -- the Gymnasium-style API -----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[FloatArray,
                                                                                                dict[str, Any]]:
        """Deal a new deal at every table.  Returns the observation of each table's seat to move and the info
        (``action_mask``, ``to_move``, ``deal_seed``).

        :param seed: table ``i`` draws its deal seeds from ``random.Random(f"{seed}:{i}")`` (``None``: fresh
            entropy).
        """
        if options:
            raise ValueError(f"reset takes no options; got {sorted(options)}")
        base = seed if seed is not None else random.SystemRandom().getrandbits(62)
        self._rngs = [random.Random(f"{base}:{i}") for i in range(self.num_tables)]
        self.episodes = [0] * self.num_tables
        self._episode_array[:] = 0
        self._due[:] = False
        tables = list(range(self.num_tables))
        if self._call_kernel is not None:
            self._deal_list = [None] * self.num_tables    # type: ignore[list-item]
            self._deal_compiled(tables)
        else:
            self._deal_list = self._fresh_deals(tables)
            self._start(tables)
            self._to_move[:] = [-1 if d.to_move is None else d.to_move for d in self._deal_list]
        self._ready = True
        if self.bot_seats is not None:    # the bots call until a learner's seat is to move (no deal ends so)
            self.bot_seats.reset(base)
            self._bots_play(np.zeros((self.num_tables, self.n), np.float32), np.zeros(self.num_tables, np.bool_))
        return self._observe_movers(), self._info()

    def step(self, actions: Sequence[int] | npt.NDArray[Any]) -> tuple[
            FloatArray, FloatArray, BoolArray, BoolArray, dict[str, Any]]:
        """Apply one action at every table (for its seat to move).

        :returns: ``obs`` (N, D) of each table's seat to move next (at a deal's end: the seat that moved, or with
            ``SAME_STEP`` the next deal's first), ``rewards`` (N,): the team score of ``reward_seat`` of the deal
            that ended at this step, 0 elsewhere ((N, seats) with ``reward_seat="all"``), ``terminations`` (N,),
            ``truncations`` (N,, always False), ``info``.
        :raises ValueError: for an action that is not legal at its table (naming the table, the action and
            what is allowed); then no table changes.
        """
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        acts = self._check(actions)
        np.copyto(self._observer, self._to_move, where=self._to_move >= 0)
        rewards = np.zeros((self.num_tables, self.n), np.float32)
        due = np.flatnonzero(self._due).tolist()     # (NEXT_STEP: their actions were ignored by _check)
        terminations = self._step_held(acts, rewards) if self._holds_every_table() else self._move(acts, rewards)
        if due:
            self._deal_next(due, self._to_move)
        return self._answer(rewards, terminations)

    def _move(self, acts: IntArray, rewards: FloatArray) -> BoolArray:
        """Every table's move of a step (where the kernels do not hold every table): the kernels' cards and calls,
        then the engine's moves.  Returns the terminations."""
        N = self.num_tables
        terminations = np.zeros(N, np.bool_)
        compiled = self._play_compiled(acts, rewards) if self.compiled else None
        if compiled is not None:
            acts = np.where(compiled[0], -1, acts)      # the engine's moves: the others are played
        called = self._call_compiled(acts) if self._call_kernel is not None else None
        if called is not None:
            acts = np.where(called[0], -1, acts)        # (after the cards: a table whose auction ends plays next)
        deals, moves, first_card, ncalls = self._deal_list, self._moves, self.first_card, self._ncalls
        ends: list[int] = []        # tables whose trick ended
        resync: list[int] = []      # other moves (trump choice, ?, CLAIM) and auctions that ended
        over: list[int] = []
        rows = np.zeros(N, np.int64)
        bits = np.zeros(N, np.int64)
        to_move = np.full(N, -1, np.int64)     # (a deal not over has a seat to move)
        legal_code, kind_bit = self._legal_code, self._kind_bit
        if self.kitty:      # 55 discards, one card at a time: not card play (these tables skip the pass below)
            for i in np.flatnonzero((self._phase == self._discard_code) & (acts >= 0)).tolist():
                to_move[i], rows[i], bits[i] = self._discard_step(i, int(acts[i]))
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
                    to_move[i], bits[i] = deal.to_move, self._begin_discard(i)  # type: ignore[assignment]
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
            self._write_moves(acts, ends, resync)
        self._rows[:] = rows
        self._bits[:] = bits
        self._bits_version = object()
        if compiled is not None:
            self._compiled_done(compiled, resync, over, rewards, terminations, to_move)
        elif over:
            self._deals_ended(over, rewards, to_move)
            terminations[over] = True
        self._to_move[:] = to_move
        if called is not None:
            self._calls_done(called)
        return terminations

    def _answer(self, rewards: FloatArray, terminations: BoolArray) -> tuple[
            FloatArray, FloatArray, BoolArray, BoolArray, dict[str, Any]]:
        """``step``'s answer, once the bots (if any) have played up to a learner's turn."""
        if self.bot_seats is not None:
            self._bots_play(rewards, terminations)
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            self._due[:] = terminations
        seat = self.reward_seat
        out = rewards[:, seat] if isinstance(seat, int) else rewards     # (else "all")
        return (self._observe_movers(), out, terminations, np.zeros(self.num_tables, np.bool_), self._info())

    def _bots_play(self, rewards: FloatArray, terminations: BoolArray) -> None:
        assert self.bot_seats is not None
        if self.rules_seats is not None:    # the compiled rules bots (.vector_rules56)
            self.rules_seats.play(self, rewards, terminations)
            return
        self.bot_seats.play(self.deals, self._to_move.tolist(), self._team_of, rewards, terminations,
                            self._deal_ended_by_bot, self._sync)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "to_move": self._to_move.copy(),
                "deal_seed": self._seed_array.copy(), "deals_done": self._episode_array.copy()}



__all__ = ["PHASES", "PHASES_WITH_KITTY", "Layout", "Piece", "VectorEnv", "encode_view"]

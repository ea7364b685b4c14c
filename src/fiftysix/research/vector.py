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

from ..core.deal import DISCARD, Deal
from ..core.moves import Move
from .compact import PHASES, PHASES_WITH_KITTY, Layout, Piece, encode_view
from .seated import BotSeats, SeatedBot, check_bots
from .table import Encoding
from .vector_arrays import TableArrays
from .vector_auction import compiled_auction
from .vector_bank import LegalBank
from .vector_base import BoolArray, FloatArray, IntArray, Tables
from .vector_deal import Dealing
from .vector_kitty import KittyTables
from .vector_modes import autoreset_mode
from .vector_modes import reward_seat as resolve_reward_seat
from .vector_play import arrays_kernel, compiled_play
from .vector_rules56 import RulesSeats, rules_bots
from .vector_step import Steps


class VectorEnv(GymVectorEnv):
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
        self.game, self.rules, self.dealer, self.num_tables = enc.game, enc.rules, enc.dealer, num_tables
        self.n, self.k, self.kitty = enc.n, len(enc.kinds), enc.kitty
        self.num_actions, self.first_card = enc.num_actions, enc.first_card
        # the parts, each with its own state, handed the parts it reads
        self.tables = t = Tables(enc, num_tables)
        self.layout = t.layout
        self.observation_size = t.layout.size
        compiled_bots = rules_bots(seated, self.rules) if compiled and seated else None   # (.vector_rules56)
        self.play = compiled_play(t, compiled, bool(seated) and compiled_bots is None)
        self.compiled = self.play is not None
        jit = arrays_kernel() if self.compiled else None
        self.bank = LegalBank(t, jit)
        self.kitty_tables = KittyTables(t) if enc.kitty else None
        self.arrays = TableArrays(t, self.bank, self.kitty_tables, jit)
        self.dealing = Dealing(t, jit)
        self.auction = compiled_auction(t, self.play, self.bank, self.arrays, self.dealing)
        self.steps = Steps(t, self.bank, self.arrays, self.dealing, self.play, self.auction, mode)
        self.autoreset = self.steps.autoreset
        self._ready = False     # reset() was called
        self._due = np.zeros(num_tables, np.bool_)           # NEXT_STEP: the tables whose deal ended at the last step
        self._observer = np.zeros(num_tables, np.int64)      # the seat that moved last: it observes a deal's end
        self._init_spaces()
        self.bot_seats = BotSeats(seated, self.game.name, num_tables) if seated else None
        self.rules_seats = RulesSeats(self, compiled_bots) if compiled_bots and self.auction is not None else None

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
        self.dealing.reseed(base)
        self._due[:] = False
        self.steps.deal_all()
        self._ready = True
        if self.bot_seats is not None:    # the bots call until a learner's seat is to move (no deal ends so)
            self.bot_seats.reset(base)
            self._opponents_play(np.zeros((self.num_tables, self.n), np.float32),
                                 np.zeros(self.num_tables, np.bool_))
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
        steps, to_move = self.steps, self.tables.to_move
        acts = self.bank.check(actions, self._refusal)
        np.copyto(self._observer, to_move, where=to_move >= 0)
        rewards = np.zeros((self.num_tables, self.n), np.float32)
        due = np.flatnonzero(self._due).tolist()     # (NEXT_STEP: their actions were ignored by the check)
        held = steps.holds_every_table(self._due)
        terminations = steps.step_held(acts, rewards) if held else steps.move(acts, rewards)
        if due:
            steps.deal_next(due, to_move)
        if self.bot_seats is not None:
            self._opponents_play(rewards, terminations)
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            self._due[:] = terminations
        seat = self.reward_seat
        out = rewards[:, seat] if isinstance(seat, int) else rewards     # (else "all")
        return (self._observe_movers(), out, terminations, np.zeros(self.num_tables, np.bool_), self._info())

    def _opponents_play(self, rewards: FloatArray, terminations: BoolArray) -> None:
        """The seam where the opponents' decisions are taken: after the learner's moves (and after ``reset``), the
        seated bots move at every table until a learner's seat is to move, a deal they end writing its
        ``rewards`` and ``terminations``."""
        assert self.bot_seats is not None
        if self.rules_seats is not None:    # the compiled rules bots (.vector_rules56)
            self.rules_seats.play(self, rewards, terminations)
            return
        steps = self.steps
        self.bot_seats.play(steps.deals(), self.tables.to_move.tolist(), self.tables.team_of, rewards, terminations,
                            steps.deal_ended_by_bot, steps.sync)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.bank.action_masks(), "to_move": self.tables.to_move.copy(),
                "deal_seed": self.dealing.seed_array.copy(), "deals_done": self.dealing.episode_array.copy()}

    def _refusal(self, i: int, action: int) -> str:
        """What :meth:`step` says of an action that is not legal at table ``i``."""
        deal = self.steps.deal_at(i)
        discarding = deal.phase == DISCARD
        legal = [f"{a} ({self.enc.action_text(a, discarding)})" for a in self.legal_actions(i)]
        what = (f"{action} ({self.enc.action_text(action, discarding)})" if 0 <= action < self.num_actions
                else f"{action} (not an action: actions are 0-{self.num_actions - 1})")
        return (f"table {i}: action {what} is not legal for seat {deal.to_move} now ({deal.phase}); "
                f"legal: {', '.join(legal)}; no table was changed")

    # -- reading the tables ----------------------------------------------------------------------------
    @property
    def deals(self) -> list[Deal]:
        """Each table's engine deal (with the calls and cards of the compiled auction and play pushed on it)."""
        return self.steps.deals()

    @property
    def deal_seeds(self) -> list[int]:
        """Each table's current deal's seed (-1: not known)."""
        return self.dealing.deal_seeds

    @property
    def episodes(self) -> list[int]:
        """The deals each table has finished since :meth:`reset`."""
        return self.dealing.episodes

    def action_masks(self) -> BoolArray:
        """(N, actions): True for each legal action of each table's seat to move."""
        return self.bank.action_masks()

    def sample_legal(self, rng: np.random.Generator) -> IntArray:
        """One uniformly drawn legal action per table (the random policy, without an (N, actions) draw); 0 at a
        table with no legal action (a deal's end: the action is ignored)."""
        return self.bank.sample_legal(rng)

    def legal_actions(self, i: int) -> list[int]:
        """The legal actions at table ``i``, in increasing order."""
        return self.bank.legal_actions(i)

    def action_of(self, move: Move) -> int:
        """The action number of an engine move."""
        return self.bank.action_of(move)

    def observe_seats(self, seats: Sequence[int] | IntArray) -> FloatArray:
        """(N, D): the compact observation of table ``i`` for seat ``seats[i]``."""
        return self.arrays.observe_seats(seats)

    def observe(self, i: int, seat: int) -> FloatArray:
        """The compact observation of table ``i`` for ``seat``, shape (D,)."""
        seats = np.array(self.tables.to_move.clip(0))
        seats[i] = seat
        out: FloatArray = self.observe_seats(seats)[i]
        return out

    def _observe_movers(self) -> FloatArray:
        """Each table's seat to move, or at a deal's end the seat that moved last."""
        to_move = self.tables.to_move
        return self.observe_seats(np.where(to_move >= 0, to_move, self._observer))

    # -- putting a chosen deal at a table ----------------------------------------------------------------
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
        self.dealing.deal_seeds[i] = self.dealing.seed_array[i] = deal_seed
        self._due[i] = False
        self.steps.sync(i)

    def record(self, i: int) -> dict[str, Any]:
        """Table ``i``'s deal as it stands, as a deal record (``records.md``: JSON, portable).

        :raises ValueError: in the middle of a 55 discard made card by card (a record holds whole moves; the
            cards chosen so far would be lost).
        """
        from ..records import deal_record

        if self.kitty_tables is not None and self.kitty_tables.pending_kinds[i]:
            chosen = [str(self.enc.kinds[k]) for k in self.kitty_tables.pending_kinds[i]]
            raise ValueError(f"table {i}: a discard is being made card by card ({' '.join(chosen)} chosen so "
                             f"far): a record holds whole moves only; record the table once the discard is made")
        return deal_record(self.steps.deal_at(i))

    def load_record(self, i: int, record: dict[str, Any]) -> None:
        """Put the deal of a deal record (at the position it leaves the deal) at table ``i``.

        :raises RecordError: for a record that does not replay.
        :raises ValueError: for a deal of other rules or another dealer, or one that is over.
        """
        from ..records import read_deal

        self.load(i, read_deal(record))


__all__ = ["PHASES", "PHASES_WITH_KITTY", "Layout", "Piece", "VectorEnv", "encode_view"]

"""N tables of 56 or 55 stepped at once, straight from the engine: numpy observations, masks, rewards.

    from fiftysix.research.vector import VectorEnv
    env = VectorEnv("56-6", num_tables=256)
    obs, info = env.reset(seed=1)            # obs (N, D) float32: each table's seat to move
    rng = np.random.default_rng(0)
    for _ in range(1000):
        actions = env.sample_legal(rng)      # or your policy, masked by info["action_mask"]
        obs, rewards, terminations, truncations, info = env.step(actions)

No JSON view is built: each table is a :class:`~fiftysix.core.deal.Deal` of the engine, its legal moves
become a row of a cached mask bank, and the observation is kept as numpy arrays updated by each move.  The
observation is the **compact observation** of :class:`Layout` (``docs/research.md`` has the table): only what
the observing seat may know.  :func:`encode_view` builds the same vector from a seat's JSON view (slowly); the
tests check that the two agree at every step, which shows that the fast path reads nothing a view would not
show.

The action numbers are those of the OpenSpiel game and the PettingZoo environment
(:class:`fiftysix.research.table.Encoding`).  Each table plays its deals one after another (**auto-reset**):
when a deal ends, ``step`` returns its rewards and ``terminations[i] = True`` with the first observation of the
next deal.  Dealing is the explicit seeded chance step: deal ``j`` of table ``i`` is
``game.new_deal(rules, seed=info["deal_seed"][i], dealer=env.dealer)``, its seed drawn from the ``reset``
seed and ``i`` alone, so a seed plus the actions replays every table exactly.

55 plays as in the single-table adapters: the bidder takes the kitty, then discards one card at a time (a
card action in the discard phase means "discard this card", in increasing action order); the compact
observation then has the pieces ``kitty_size``, ``discard``, ``pending_discard`` and the highest trump.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as GymVectorEnv

from ..core.cards import Card
from ..core.deal import AUCTION, DISCARD, OVER, PLAY, TRUMP, Deal
from ..core.moves import Call, Move
from ..games.spec import GameSpec
from .seated import BotSeats, check_bots
from .table import Encoding

PHASES = (AUCTION, TRUMP, PLAY, OVER)
PHASES_WITH_KITTY = (AUCTION, DISCARD, TRUMP, PLAY, OVER)
STRAINS = ("S", "H", "D", "C", "NT")
SUITS_OR_NONE = ("S", "H", "D", "C", "none")

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Piece:
    """One piece of the compact observation: its name, shape, range and meaning."""

    name: str
    shape: tuple[int, ...]
    low: float
    high: float
    meaning: str
    private: bool = False

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


class Layout:
    """The compact observation of one ruleset: pieces laid end to end in one float32 vector."""

    def __init__(self, enc: Encoding) -> None:
        n, k, teams = enc.n, len(enc.kinds), enc.n_teams
        self.phases = phases = PHASES_WITH_KITTY if enc.kitty else PHASES
        calls = enc.game.call_vocabulary(enc.rules)
        self.forms: list[str] = list(dict.fromkeys(f"{c.kind}:{c.form}" for c in calls))
        width = len(self.forms) + 1 + 5
        top_bid = max((c.value for c in calls if c.value is not None), default=0)    # (55 bids reach 60)
        self.call_width = width
        self.pieces: list[Piece] = [
            Piece("seat", (n,), 0, 1, "one-hot: the observing seat", private=True),
            Piece("to_move", (n,), 0, 1, "one-hot: the seat to move (all 0 once the deal is over)"),
            Piece("phase", (len(phases),), 0, 1, "one-hot: " + ", ".join(
                {TRUMP: "trump (the declarer chooses)", DISCARD: "discard (the bidder's, after taking the kitty)"}
                .get(p, p) for p in phases)),
            Piece("hand", (k,), 0, enc.game.copies,
                  "copies of each card kind the observing seat holds (kinds in `Encoding.kinds` order)",
                  private=True),
            Piece("played", (n, k), 0, 2, "copies of each card kind each seat has played so far (current trick "
                                          "included)"),
            Piece("trick", (n, k), 0, 1, "the current trick: 1 at (seat, kind) for the card the seat put on it"),
            Piece("trick_leader", (n,), 0, 1, "one-hot: the seat that led the current trick (during the play)"),
            Piece("points", (teams,), 0, 56, "card points taken so far by each team"),
            Piece("last_call", (n, width), 0, 60,
                  f"each seat's most recent call: one-hot of its form ({len(self.forms)}: "
                  + ", ".join(self.forms) + "), then its number (the bid's value, or k of +k/-k forms; 0 for "
                  "pass, double, redouble), then one-hot of the suit it names (S H D C none); all 0 before the "
                  "seat's first call"),
            Piece("calls", (1,), 0, enc.max_calls, "how many calls the auction holds so far"),
            Piece("bid_value", (1,), 0, top_bid, "the standing bid's value (the contract's once the auction "
                                                 "is over); 0 while nothing is bid"),
            Piece("bidder", (n,), 0, 1, "one-hot: the seat of the standing bid (the declarer)"),
            Piece("strain", (5,), 0, 1, "one-hot: the standing bid's strain S H D C NT (NT also for a bid "
                                        "naming no suit)"),
            Piece("multiplier", (3,), 0, 1, "one-hot: the standing bid undoubled, doubled, redoubled"),
            Piece("trump", (5,), 0, 1, "one-hot: the trump as the observing seat knows it, S H D C NT; all 0 "
                                       "while not chosen or hidden from the seat", private=True),
            Piece("trump_hidden", (1,), 0, 1, "1 while a hidden trump is chosen and not yet turned up"),
        ]
        if enc.kitty:     # 55: the kitty, the discard, the highest trump
            self.pieces += [
                Piece("kitty_size", (1,), 0, enc.kitty, "cards in the kitty (0 once the bidder has taken it)"),
                Piece("discard", (k,), 0, 1, "the bidder's discard, once made, to the seats that may see it "
                                            "(everyone with `discards: open`, else the bidder alone)",
                      private=True),
                Piece("pending_discard", (k,), 0, 1, "the cards the bidder has chosen so far of the discard it is "
                                                    "making (to the bidder alone; the discard is made one card "
                                                    "at a time, in increasing action order)", private=True),
                Piece("highest_trump_seat", (n,), 0, 1, "one-hot: the seat that played the highest trump of the "
                                                       "completed tricks (its side scores the bonus)"),
                Piece("highest_trump_card", (k,), 0, 1, "one-hot: that trump"),
            ]
        self.size = sum(p.size for p in self.pieces)
        self.offsets: dict[str, int] = {}
        self.slices: dict[str, slice] = {}
        at = 0
        for p in self.pieces:
            self.offsets[p.name] = at
            self.slices[p.name] = slice(at, at + p.size)
            at += p.size
        self._features: dict[str, FloatArray] = {}

    def slice(self, name: str) -> slice:
        return self.slices[name]

    def views(self, vector: FloatArray) -> dict[str, FloatArray]:
        """Each piece of one observation vector, shaped (views into it)."""
        return {p.name: vector[self.slice(p.name)].reshape(p.shape) for p in self.pieces}

    def call_features(self, call: Call) -> FloatArray:
        """The ``last_call`` row of one call."""
        out = self._features.get(call.text)
        if out is not None:
            return out
        out = self._features[call.text] = np.zeros(self.call_width, np.float32)
        out[self.forms.index(f"{call.kind}:{call.form}")] = 1.0
        number = call.value if call.value is not None else call.k
        out[len(self.forms)] = float(number or 0)
        out[len(self.forms) + 1 + (int(call.suit) if call.suit is not None else 4)] = 1.0
        return out


def _auction_fields(deal: Deal) -> tuple[int, int, int, int]:
    """The standing bid (value, bidder, strain index, doubled), or (0, -1, -1, 0) while nothing is bid."""
    auction: Any = deal.auction  # type: ignore[attr-defined]
    if auction.bidder is None:
        return 0, -1, -1, 0
    strain = getattr(auction, "strain", None)      # (55's bids name no suit and are never doubled)
    return (int(auction.value), int(auction.bidder), 4 if strain is None else int(strain),
            int(getattr(auction, "doubled", 0)))


def _trump_fields(deal: Any) -> tuple[int, bool, int, bool]:
    """(trump index or -1, known to every seat, declarer or -1, hidden and not turned up), as the game's
    ``view_extra`` decides who knows the trump."""
    mode = getattr(deal.rules, "trump", None)
    if mode is None:        # 55: the bidder names trumps after the discard, for all to see
        return (-1 if deal.trump is None else int(deal.trump)), True, -1, False
    contract = deal.contract
    declarer = -1 if contract is None else int(contract.declarer)
    if mode == "bid":
        if contract is None:
            return -1, True, declarer, False
        return (4 if deal.trump is None else int(deal.trump)), True, declarer, False
    if not deal.trump_chosen:
        return -1, True, declarer, False
    code = 4 if deal.trump is None else int(deal.trump)
    hidden = deal.rules.trump == "hidden" and not deal.revealed
    return code, not hidden, declarer, hidden


_ROW_IDS_KEPT = 4096     # legal tuples remembered by identity (55 builds fresh ones every call: see _legal_code)


class VectorEnv(GymVectorEnv):
    """``num_tables`` tables of one ruleset of 56 or 55, stepped together: a ``gymnasium.vector.VectorEnv``.

    ``num_envs`` is ``num_tables``; ``single_observation_space`` is a ``Box`` of the compact observation,
    ``single_action_space`` a ``Discrete`` of the actions, ``observation_space`` and ``action_space`` their
    batches.  ``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP`` (a deal that ends at a step returns
    its rewards, ``terminations[i] = True`` and already the first observation of the next deal; no
    ``final_obs`` is given, as a deal's end has no seat to move) or ``AutoresetMode.DISABLED`` with
    ``autoreset=False``.

    :param rules: a preset name (``"56-6"``) or a rules object (``{"preset": "56-6", "deck": ...}``).
    :param dealer: the dealer of every deal (default: the last seat, so that seat 0 calls and leads first).
    :param autoreset: deal the next deal at a table whose deal ended (default); with ``False`` the table stays
        at its deal's end (``to_move`` -1, no legal action, its actions ignored) until :meth:`reset`.
    :param reward_seat: ``None`` (default): ``step``'s rewards are (N, seats), every seat's score; a seat:
        rewards are (N,), that seat's score, as Gymnasium's vector wrappers (``RecordEpisodeStatistics``) expect.
    :param bots: seats played by our bots, by name (``{1: "rules", 3: "rules"}``): the learner acts for the
        other seats only (:mod:`fiftysix.research.seated`).
    :raises ValueError: for a number of tables below 1, a dealer or reward seat that is not a seat, a bot seat
        or name that is not one, or bots in every seat.
    :raises RulesError: for an unknown preset or option.
    """

    def __init__(self, rules: object = "56-4", num_tables: int = 64, dealer: int | None = None,
                 autoreset: bool = True, reward_seat: int | None = None,
                 bots: Mapping[int, str] | None = None) -> None:
        if not isinstance(num_tables, int) or isinstance(num_tables, bool) or num_tables < 1:
            raise ValueError(f"num_tables must be an int of at least 1, not {num_tables!r}")
        self.enc = enc = Encoding(rules, dealer)   # type: ignore[arg-type]
        if reward_seat is not None and reward_seat not in range(enc.n):
            raise ValueError(f"reward_seat must be None or a seat 0-{enc.n - 1}, not {reward_seat!r}")
        self.reward_seat = reward_seat
        self.game: GameSpec = enc.game
        self.rules = enc.rules
        self.dealer: int = enc.dealer
        self.num_tables = num_tables
        self.layout = layout = Layout(enc)
        self.n = n = enc.n
        self.k = k = len(enc.kinds)
        self.num_actions: int = enc.num_actions
        self.observation_size: int = layout.size
        self.first_card: int = enc.first_card
        self._kind = [-1] * 52
        for i, c in enumerate(enc.kinds):
            self._kind[int(c)] = i
        self._team_of = tuple(enc.team_of)
        N = num_tables
        self._pub: FloatArray = np.zeros((N, layout.size), np.float32)     # every piece but the private ones
        self._hands: FloatArray = np.zeros((N, n, k), np.float32)
        self._phase: IntArray = np.zeros(N, np.int64)
        self._leader: IntArray = np.full(N, -1, np.int64)
        self._to_move: IntArray = np.zeros(N, np.int64)
        self._trump: IntArray = np.full(N, -1, np.int64)
        self._trump_public: BoolArray = np.ones(N, np.bool_)
        self._declarer: IntArray = np.full(N, -1, np.int64)
        self._rows: IntArray = np.zeros(N, np.int64)      # each table's bank row of legal moves other than cards
        self._bits: IntArray = np.zeros(N, np.int64)      # and its legal card kinds, bit i for kind i
        self._ark = np.arange(k, dtype=np.int64)
        self._bits_version: object = object()     # a new object whenever _bits changes
        self._unpacked: tuple[object, BoolArray] | None = None
        self._kind_bit = [0] * 52
        for j, c in enumerate(enc.kinds):
            self._kind_bit[int(c)] = 1 << j
        self.deals: list[Deal] = []
        self.deal_seeds: list[int] = [-1] * N
        self.episodes = [0] * N
        self._seed_array: IntArray = np.full(N, -1, np.int64)     # (the two lists as arrays, for the info)
        self._episode_array: IntArray = np.zeros(N, np.int64)
        self._rngs: list[random.Random] = []
        # the mask bank: one row per distinct tuple of legal moves met
        self._row_of: dict[tuple[Move, ...], int] = {}
        self._row_of_id: dict[int, tuple[tuple[Move, ...], int]] = {}
        self._bank: BoolArray = np.zeros((64, self.num_actions), np.bool_)
        self._starts: IntArray = np.zeros(64, np.int64)
        self._counts: IntArray = np.zeros(64, np.int64)
        self._flat: IntArray = np.zeros(1024, np.int64)
        self._flat_used = 0
        self._row_of[()] = 0        # row 0: no move (a deal whose legal moves are all cards)
        self._moves: list[Move | None] = [None] * self.num_actions
        self._action_of: dict[Move, int] = {}
        for c in enc.kinds:
            self.action_of(c)
        self._phase_code = {p: i for i, p in enumerate(layout.phases)}
        self.kitty: int = enc.kitty
        if enc.kitty:
            self._init_kitty()
        o = layout.offsets
        self._o_seat, self._o_to_move, self._o_phase = o["seat"], o["to_move"], o["phase"]
        self._o_played, self._o_trick, self._o_leader = o["played"], o["trick"], o["trick_leader"]
        self._sl_trick, self._sl_points, self._sl_hand = layout.slice("trick"), layout.slice("points"), \
            layout.slice("hand")
        self._o_trump = o["trump"]
        names = [p.name for p in layout.pieces]
        assert names[names.index("bid_value"):names.index("multiplier") + 1] == [
            "bid_value", "bidder", "strain", "multiplier"]
        self._sl_bid = slice(o["bid_value"], o["multiplier"] + 3)
        self._bid_ids: dict[tuple[int, int, int, int], int] = {}
        self._bid_bank: FloatArray = np.zeros((64, 1 + n + 5 + 3), np.float32)
        self._arw = np.arange(layout.call_width)
        calls = enc.game.call_vocabulary(enc.rules)
        self._ncalls = len(calls)       # actions below this are calls
        self._call_rows: FloatArray = np.zeros((len(calls), layout.call_width), np.float32)
        for j, call in enumerate(calls):
            self._call_rows[j] = layout.call_features(call)
        bits_of = type(self.game.new_deal(self.rules, seed=0)).BITS.bit
        self._kind_shift: IntArray = np.array([bits_of[c].bit_length() - 1 for c in enc.kinds], np.int64)
        self._kind_bits: IntArray = np.zeros(52, np.int64)   # card -> its kind's bit
        for j, c in enumerate(enc.kinds):
            self._kind_bits[int(c)] = 1 << j
        self._ar = np.arange(N)
        self._row_base: IntArray = self._ar * layout.size
        self._ready = False
        self.autoreset = autoreset
        self._init_spaces()
        self.bot_seats = (BotSeats(check_bots(bots, n, self.game.name), self.game.name, num_tables) if bots
                          else None)

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
        self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP if self.autoreset else AutoresetMode.DISABLED}

    def _init_kitty(self) -> None:
        """The arrays of 55's kitty and discard: the discard made (shown as the rules say), the cards chosen so
        far of one being made, and the engine's legal discards of the bidder (as bit masks of kinds)."""
        N, k, o = self.num_tables, self.k, self.layout.offsets
        self._discard_code = self._phase_code[DISCARD]
        self._discards_open = getattr(self.rules, "discards", "open") == "open"
        self._discard_cards: FloatArray = np.zeros((N, k), np.float32)
        self._pending: FloatArray = np.zeros((N, k), np.float32)
        self._bidder: IntArray = np.full(N, -1, np.int64)
        self._pending_kinds: list[list[int]] = [[] for _ in range(N)]
        self._discard_masks: list[dict[int, Move]] = [{} for _ in range(N)]   # legal discards by kind bits
        self._o_kitty, self._o_high_seat, self._o_high_card = (o["kitty_size"], o["highest_trump_seat"],
                                                               o["highest_trump_card"])
        self._sl_discard, self._sl_pending = self.layout.slice("discard"), self.layout.slice("pending_discard")
        self._sl_high = slice(o["highest_trump_seat"], o["highest_trump_card"] + k)

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
        self.deals = [self._fresh_deal(i) for i in range(self.num_tables)]
        self.episodes = [0] * self.num_tables
        self._episode_array[:] = 0
        self._start(list(range(self.num_tables)))
        self._to_move[:] = [-1 if d.to_move is None else d.to_move for d in self.deals]
        self._ready = True
        if self.bot_seats is not None:    # the bots call until a learner's seat is to move (no deal ends so)
            self.bot_seats.reset(base)
            self._bots_play(np.zeros((self.num_tables, self.n), np.float32), np.zeros(self.num_tables, np.bool_))
        return self._observe_movers(), self._info()

    def step(self, actions: Sequence[int] | npt.NDArray[Any]) -> tuple[
            FloatArray, FloatArray, BoolArray, BoolArray, dict[str, Any]]:
        """Apply one action at every table (for its seat to move).

        :returns: ``obs`` (N, D) of each table's seat to move next (a finished deal's table: the first
            observation of its next deal), ``rewards`` (N, seats): each seat's team score of the deal that ended
            at this step (0 elsewhere; (N,), the score of ``reward_seat``, when that is set), ``terminations``
            (N,), ``truncations`` (N,, always False), ``info``.
        :raises ValueError: for an action that is not legal at its table (naming the table, the action and
            what is allowed); then no table changes.
        """
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        acts = self._check(actions)
        N = self.num_tables
        rewards = np.zeros((N, self.n), np.float32)
        terminations = np.zeros(N, np.bool_)
        deals, moves, first_card, ncalls = self.deals, self._moves, self.first_card, self._ncalls
        ends: list[int] = []        # tables whose trick ended
        resync: list[int] = []      # other moves (trump choice, ?, CLAIM) and auctions that ended
        over: list[int] = []
        rows = [0] * N
        bits = [0] * N
        to_move: list[Any] = [-1] * N     # (a deal not over has a seat to move)
        legal_code, kind_bit = self._legal_code, self._kind_bit
        if self.kitty:      # 55 discards, one card at a time: not card play (these tables skip the pass below)
            for i in np.flatnonzero((self._phase == self._discard_code) & (acts >= 0)).tolist():
                to_move[i], rows[i], bits[i] = self._discard_step(i, int(acts[i]))
                acts[i] = -1
        # one pass over the tables: the move, then the next seat's legal moves as (bank row, card bits)
        for i, a in enumerate(acts.tolist()):
            if a < 0:
                continue        # a table whose deal is over (autoreset=False)
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
                    to_move[i], bits[i] = deal.to_move, self._begin_discard(i)
                    continue
            to_move[i] = deal.to_move
            legal: Any = deal.legal_moves()
            if legal[-1].__class__ is Card:      # the play's legal cards (other moves come after any cards)
                b = 0
                for c in legal:
                    b |= kind_bit[c]
                bits[i] = b
            else:
                rows[i], bits[i] = legal_code(legal)
        pub = self._pub
        seats = self._to_move      # the seats that moved
        ia = np.flatnonzero(acts >= first_card)
        if len(ia):
            sa, ka = seats[ia], acts[ia] - first_card
            k = self.k
            pub[ia, self._o_played + sa * k + ka] += 1.0
            pub[ia, self._o_trick + sa * k + ka] = 1.0
            self._hands[ia, sa, ka] -= 1.0
        if ends:
            pub[ends, self._sl_trick] = 0.0
            pub[ends, self._sl_points] = [deals[i].points for i in ends]
            self._leader[ends] = [deals[i].trick_leader for i in ends]
            if self.kitty:
                for i in ends:
                    self._sync_highest(i)
        calls = np.flatnonzero((acts >= 0) & (acts < ncalls))
        if len(calls):
            self._calls_made(calls, seats[calls], acts[calls])
        for i in resync:
            self._sync_public(i)
        self._rows[:] = rows
        self._bits[:] = bits
        self._bits_version = object()
        if over:
            self._deals_ended(over, rewards, to_move)
            terminations[over] = True
        self._to_move[:] = to_move
        return self._answer(rewards, terminations)

    def _answer(self, rewards: FloatArray, terminations: BoolArray) -> tuple[
            FloatArray, FloatArray, BoolArray, BoolArray, dict[str, Any]]:
        """``step``'s answer, once the bots (if any) have played up to a learner's turn."""
        if self.bot_seats is not None:
            self._bots_play(rewards, terminations)
        out = rewards if self.reward_seat is None else rewards[:, self.reward_seat]
        return (self._observe_movers(), out, terminations, np.zeros(self.num_tables, np.bool_), self._info())

    def _deals_ended(self, over: list[int], rewards: FloatArray, to_move: list[int]) -> None:
        """The rewards of tables whose deal just ended, and their next deals (or their final arrays)."""
        deals, team_of = self.deals, self._team_of
        for i in over:
            score: Any = deals[i].score()   # type: ignore[attr-defined]
            if score:
                rewards[i] = [score[t] for t in team_of]
            self.episodes[i] += 1
            if self.autoreset:
                deals[i] = self._fresh_deal(i)
                to_move[i] = deals[i].to_move   # type: ignore[assignment]
            else:
                self._sync_public(i)
        self._episode_array[over] += 1
        if self.autoreset:
            self._start(over)

    def _bots_play(self, rewards: FloatArray, terminations: BoolArray) -> None:
        assert self.bot_seats is not None
        self.bot_seats.play(self.deals, self._to_move.tolist(), self._team_of, rewards, terminations,
                            self._deal_ended_by_bot, self._sync)

    def _deal_ended_by_bot(self, i: int) -> None:
        """A seated bot's move ended table ``i``'s deal (its rewards are written): the next deal, or the arrays
        of the deal's end (the bots' moves were pushed on the deal, not stepped through the arrays)."""
        self.episodes[i] += 1
        self._episode_array[i] += 1
        if self.autoreset:
            self.deals[i] = self._fresh_deal(i)
            self._start([i])
            to_move = self.deals[i].to_move
            self._to_move[i] = -1 if to_move is None else to_move
        else:
            self._sync(i)

    def _calls_made(self, ia: IntArray, seats: IntArray, actions: IntArray) -> None:
        """The last call, the number of calls and the standing bid of tables where a call was just made."""
        pub, layout = self._pub, self.layout
        cols = (layout.offsets["last_call"] + seats * layout.call_width)[:, None] + self._arw
        pub[ia[:, None], cols] = self._call_rows[actions]
        pub[ia, layout.offsets["calls"]] += 1.0
        ids = self._bid_ids
        deals = self.deals
        rows = [ids.get(key) or self._bid_id(key) for key in [_auction_fields(deals[i]) for i in ia.tolist()]]
        pub[ia, self._sl_bid] = self._bid_bank[rows]

    def _begin_discard(self, i: int) -> int:
        """Table ``i``'s bidder begins its discard: the engine's legal discards, each as a bit mask of its card
        kinds; returns the card bits of the first card."""
        legal: Any = self.deals[i].legal_moves()     # the Discard moves (the rule is the engine's)
        kind_bit = self._kind_bit
        masks: dict[int, Move] = {}
        for m in legal:
            b = 0
            for c in m.cards:
                b |= kind_bit[c]
            masks[b] = m
        self._discard_masks[i] = masks
        self._pending_kinds[i] = []
        self._pending[i] = 0.0
        return self._next_discard_bits(i, 0)

    def _next_discard_bits(self, i: int, chosen: int) -> int:
        """The kinds the next card of the discard may be, the discard being chosen in increasing kind order:
        in each legal discard holding the ``chosen`` kinds as its lowest, its next lowest kind."""
        b = 0
        for m in self._discard_masks[i]:
            rest = m ^ chosen
            if m & chosen == chosen and rest and (rest & -rest) > chosen:
                b |= rest & -rest
        return b

    def _discard_step(self, i: int, action: int) -> tuple[int, int, int]:
        """One card of table ``i``'s discard; the whole discard is pushed on the deal with its last card.
        Returns the seat to move, the bank row and the card bits after it."""
        kind = action - self.first_card
        pending = self._pending_kinds[i]
        pending.append(kind)
        self._pending[i, kind] = 1.0
        deal = self.deals[i]
        chosen = sum(1 << k for k in pending)
        move = self._discard_masks[i].get(chosen)
        if move is None:
            return deal.to_move, 0, self._next_discard_bits(i, chosen)    # type: ignore[return-value]
        deal.push(move)
        self._pending_kinds[i] = []
        self._pending[i] = 0.0
        self._sync_public(i)
        row, bits = self._legal_code(deal.legal_moves())
        return deal.to_move, row, bits      # type: ignore[return-value]

    def _check(self, actions: Sequence[int] | npt.NDArray[Any]) -> IntArray:
        acts = np.asarray(actions)
        if acts.shape != (self.num_tables,) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(f"actions must be {self.num_tables} integers (one a table), not an array of shape "
                             f"{acts.shape} and type {acts.dtype}")
        acts = acts.astype(np.int64)
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
        deal = self.deals[i]
        discarding = deal.phase == DISCARD
        legal = [f"{a} ({self.enc.action_text(a, discarding)})" for a in self.legal_actions(i)]
        what = (f"{action} ({self.enc.action_text(action, discarding)})" if 0 <= action < self.num_actions
                else f"{action} (not an action: actions are 0-{self.num_actions - 1})")
        return (f"table {i}: action {what} is not legal for seat {deal.to_move} now ({deal.phase}); "
                f"legal: {', '.join(legal)}; no table was changed")

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "to_move": self._to_move.copy(),
                "deal_seed": self._seed_array.copy(), "deals_done": self._episode_array.copy()}

    # -- actions ---------------------------------------------------------------------------------------
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
        mask = self._bank[self._rows]
        mask[:, self.first_card:] |= self._card_bits()
        return mask

    def sample_legal(self, rng: np.random.Generator) -> IntArray:
        """One uniformly drawn legal action per table (the random policy, without an (N, actions) draw)."""
        rows = self._rows
        in_row = self._counts[rows]
        cards = self._card_bits()
        running = cards.cumsum(axis=1)
        total = in_row + running[:, -1]
        pick = (rng.random(self.num_tables) * total).astype(np.int64)
        from_row = pick < in_row
        kind = (running <= (pick - in_row)[:, None]).sum(axis=1)
        row_action = self._flat[self._starts[rows] + np.where(from_row, pick, 0)]
        return np.where(from_row, row_action, self.first_card + kind)

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
        deal = self.deals[i]
        if deal.is_over:
            self._rows[i], self._bits[i] = 0, 0
            self._bits_version = object()
            return
        if deal.phase == DISCARD:
            self._rows[i], self._bits[i] = 0, self._begin_discard(i)
        else:
            self._rows[i], self._bits[i] = self._legal_code(deal.legal_moves())
        self._bits_version = object()

    # -- dealing ---------------------------------------------------------------------------------------
    def _fresh_deal(self, i: int) -> Deal:
        seed = self._rngs[i].getrandbits(63)
        self.deal_seeds[i] = self._seed_array[i] = seed
        return self.game.new_deal(self.rules, seed=seed, dealer=self.dealer)

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
        self.deal_seeds[i] = self._seed_array[i] = deal_seed
        self._sync(i)

    def _start(self, tables: list[int]) -> None:
        """The arrays of tables whose deals were just dealt (nothing played yet), together."""
        n, deals = self.n, self.deals
        # the hands from the deal's own masks (core.deal: _once the cards held, _twice those held twice), each
        # kind's bit picked out of the game's bit layout
        masks = np.array([d._once + d._twice for d in (deals[i] for i in tables)], np.int64)
        held = (masks[:, :, None] >> self._kind_shift) & 1
        self._hands[tables] = held[:, :n] + held[:, n:]
        self._pub[tables] = 0.0
        self._phase[tables] = self._phase_code[AUCTION]
        self._leader[tables] = -1
        self._trump[tables] = -1
        self._trump_public[tables] = True
        self._declarer[tables] = -1
        if self.kitty:
            self._pub[tables, self._o_kitty] = self.kitty
            self._discard_cards[tables] = self._pending[tables] = 0.0
            self._bidder[tables] = -1
            for i in tables:
                self._pending_kinds[i] = []
        for i in tables:
            deal = deals[i]
            self._rows[i], self._bits[i] = self._legal_code(deal.legal_moves())
            self._bits_version = object()

    def record(self, i: int) -> dict[str, Any]:
        """Table ``i``'s deal as it stands, as a deal record (``records.md``: JSON, portable).

        :raises ValueError: in the middle of a 55 discard made card by card (a record holds whole moves; the
            cards chosen so far would be lost).
        """
        from ..records import deal_record

        if self.kitty and self._pending_kinds[i]:
            chosen = [str(self.enc.kinds[k]) for k in self._pending_kinds[i]]
            raise ValueError(f"table {i}: a discard is being made card by card ({' '.join(chosen)} chosen so "
                             f"far): a record holds whole moves only; record the table once the discard is made")

        return deal_record(self.deals[i])

    def load_record(self, i: int, record: dict[str, Any]) -> None:
        """Put the deal of a deal record (at the position it leaves the deal) at table ``i``.

        :raises RecordError: for a record that does not replay.
        :raises ValueError: for a deal of other rules or another dealer, or one that is over.
        """
        from ..records import read_deal

        self.load(i, read_deal(record))

    def _sync(self, i: int) -> None:
        """Rebuild table ``i``'s arrays from its deal (a new deal, or one loaded at any position)."""
        deal = self.deals[i]
        k, n, kind = self.k, self.n, self._kind
        pub = self._pub[i]
        pub.fill(0.0)
        hands = self._hands[i]
        hands.fill(0.0)
        for s, hand in enumerate(deal.hands):
            for c in hand:
                hands[s, kind[c]] += 1.0
        played = pub[self.layout.slice("played")].reshape(n, k)
        for seat, move in deal.history:
            if isinstance(move, Card):
                played[seat, kind[move]] += 1.0
        if deal.phase == PLAY:
            trick = pub[self._sl_trick].reshape(n, k)
            seat = deal.trick_leader
            for c in deal.trick_cards:
                trick[seat, kind[c]] = 1.0
                seat = (seat + 1) % n
        pub[self._sl_points] = deal.points
        self._leader[i] = deal.trick_leader
        if self.kitty:
            self._pending_kinds[i] = []
            self._pending[i] = 0.0
        self._sync_public(i, calls_too=True)
        self._set_legal(i)
        self._to_move[i] = -1 if deal.to_move is None else deal.to_move

    def _sync_public(self, i: int, calls_too: bool = False) -> None:
        """Table ``i``'s phase, standing bid, trump and points after any move but a card (the last calls are
        kept up to date by :meth:`_calls_made`); with ``calls_too`` the last calls afresh as well."""
        deal = self.deals[i]
        layout, pub = self.layout, self._pub[i]
        o = layout.offsets
        self._phase[i] = self._phase_code[deal.phase]
        if deal.phase != PLAY:
            self._leader[i] = -1
        elif self._leader[i] < 0:
            self._leader[i] = deal.trick_leader
        calls: list[Call] = deal.auction.calls   # type: ignore[attr-defined]
        width = layout.call_width
        if calls_too:     # each seat's latest call (in 55 the dealer's hold can make a seat call twice running)
            last = pub[layout.slices["last_call"]]
            last.fill(0.0)
            for seat, move in deal.history:
                if isinstance(move, Call):
                    last[seat * width:(seat + 1) * width] = layout.call_features(move)
        pub[o["calls"]] = len(calls)
        fields = _auction_fields(deal)
        row = self._bid_ids.get(fields) or self._bid_id(fields)
        pub[self._sl_bid] = self._bid_bank[row]
        code, public, declarer, hidden = _trump_fields(deal)
        self._trump[i], self._trump_public[i], self._declarer[i] = code, public, declarer
        pub[o["trump_hidden"]] = 1.0 if hidden else 0.0
        pub[self._sl_points] = deal.points
        if self.kitty:
            self._sync_kitty(i)

    def _sync_kitty(self, i: int) -> None:
        """Table ``i``'s kitty, hands (the bidder's grows by the kitty, then loses the discard), discard made and
        highest trump (55)."""
        deal: Any = self.deals[i]
        kind = self._kind
        self._pub[i, self._o_kitty] = 0 if deal.kitty_taken else self.kitty
        self._bidder[i] = -1 if deal.bidder is None else deal.bidder
        discard = self._discard_cards[i]
        discard.fill(0.0)
        for c in deal.discard or ():
            discard[kind[c]] = 1.0
        hands = self._hands[i]
        hands.fill(0.0)
        for s, hand in enumerate(deal.hands):
            for c in hand:
                hands[s, kind[c]] += 1.0
        self._sync_highest(i)

    def _sync_highest(self, i: int) -> None:
        """55's highest trump of the completed tricks at table ``i``."""
        deal: Any = self.deals[i]
        pub = self._pub[i]
        pub[self._sl_high] = 0.0
        if deal.highest is not None:
            seat, card, _ = deal.highest
            pub[self._o_high_seat + seat] = 1.0
            pub[self._o_high_card + self._kind[card]] = 1.0

    def _bid_id(self, fields: tuple[int, int, int, int]) -> int:
        """The row of :attr:`_bid_bank` of a standing bid: the pieces ``bid_value`` to ``multiplier``."""
        value, bidder, strain, doubled = fields
        n = self.n
        row = np.zeros(1 + n + 5 + 3, np.float32)
        row[0] = value
        if bidder >= 0:
            row[1 + bidder] = row[1 + n + strain] = row[1 + n + 5 + doubled] = 1.0
        at = self._bid_ids[fields] = len(self._bid_ids) + 1     # 0 is the row of no bid
        if at >= len(self._bid_bank):
            self._bid_bank = np.concatenate([self._bid_bank, np.zeros_like(self._bid_bank)])
        self._bid_bank[at] = row
        return at

    # -- observations ------------------------------------------------------------------------------------
    def _observe_movers(self) -> FloatArray:
        return self.observe_seats(self._to_move)

    def observe_seats(self, seats: Sequence[int] | IntArray) -> FloatArray:
        """(N, D): the compact observation of table ``i`` for seat ``seats[i]``."""
        S = np.asarray(seats, dtype=np.int64)
        ar = self._ar
        out = self._pub.copy()
        base = self._row_base     # each table's row start in the flat array
        tm, lead, tc = self._to_move, self._leader, self._trump
        known = (tc >= 0) & (self._trump_public | (self._declarer == S))
        # the one-hot pieces in one scatter: seat and phase always, to_move, trick_leader and trump when set
        at = np.concatenate([base + self._o_seat + S, base + self._o_phase + self._phase,
                             np.where(tm >= 0, base + self._o_to_move + tm, -1),
                             np.where(lead >= 0, base + self._o_leader + lead, -1),
                             np.where(known, base + self._o_trump + tc, -1)])
        out.reshape(-1)[at[at >= 0]] = 1.0
        out[:, self._sl_hand] = self._hands[ar, S]
        if self.kitty:
            sees = (self._bidder == S) | self._discards_open
            out[:, self._sl_discard] = self._discard_cards * sees[:, None]
            making = (self._to_move == S) & (self._phase == self._discard_code)
            out[:, self._sl_pending] = self._pending * making[:, None]
        return out

    def observe(self, i: int, seat: int) -> FloatArray:
        """The compact observation of table ``i`` for ``seat``, shape (D,)."""
        seats = np.array(self._to_move.clip(0))
        seats[i] = seat
        out: FloatArray = self.observe_seats(seats)[i]
        return out


def encode_view(enc: Encoding, seat_view: dict[str, Any]) -> FloatArray:
    """The compact observation built from a seat's JSON view (:func:`fiftysix.views.view`), and nothing else.

    Slow; the reference :class:`VectorEnv` is tested against.  The standing bid is read by replaying the
    view's public calls on a deal of the rules (calls do not depend on the cards).
    """
    layout = Layout(enc)
    n = enc.n
    out = np.zeros(layout.size, np.float32)
    d = layout.views(out)
    kind = enc.kind_of
    seat = seat_view["seat"]
    d["seat"][seat] = 1.0
    if seat_view.get("to_move") is not None:
        d["to_move"][seat_view["to_move"]] = 1.0
    d["phase"][layout.phases.index(seat_view["phase"])] = 1.0
    for c in seat_view["hand"]:
        d["hand"][kind[c]] += 1.0
    trick = seat_view.get("trick")
    for t in [*seat_view["tricks"], *([trick] if trick else [])]:
        for j, c in enumerate(t["cards"]):
            d["played"][(t["leader"] + j) % n, kind[c]] += 1.0
    if trick is not None:
        d["trick_leader"][trick["leader"]] = 1.0
        for j, c in enumerate(trick["cards"]):
            d["trick"][(trick["leader"] + j) % n, kind[c]] = 1.0
    d["points"][:] = seat_view["points"]
    texts = seat_view["auction"]
    vocabulary = {c.text: c for c in enc.game.call_vocabulary(enc.rules)}
    d["calls"][0] = len(texts)
    replay = enc.game.new_deal(enc.rules, seed=0, dealer=seat_view["dealer"])
    for text in texts:     # who made each call: the replay's seat to move (not always the next seat in 55)
        d["last_call"][replay.to_move] = layout.call_features(vocabulary[text])
        replay.push(vocabulary[text])
    value, bidder, strain, doubled = _auction_fields(replay)
    d["bid_value"][0] = value
    if bidder >= 0:
        d["bidder"][bidder] = 1.0
        d["strain"][strain] = 1.0
        d["multiplier"][doubled] = 1.0
    trump = seat_view.get("trump")
    if trump is not None:
        d["trump"][STRAINS.index(trump)] = 1.0
    d["trump_hidden"][0] = 1.0 if seat_view.get("trump_hidden") else 0.0
    if enc.kitty:
        d["kitty_size"][0] = seat_view.get("kitty_size") or 0
        for c in seat_view.get("discard") or ():
            d["discard"][kind[c]] = 1.0
        for c in seat_view.get("pending_discard") or ():
            d["pending_discard"][kind[c]] = 1.0
        high = seat_view.get("highest_trump")
        if high is not None:
            d["highest_trump_seat"][high["seat"]] = 1.0
            d["highest_trump_card"][kind[high["card"]]] = 1.0
    return out


__all__ = ["PHASES", "PHASES_WITH_KITTY", "Layout", "Piece", "VectorEnv", "encode_view"]

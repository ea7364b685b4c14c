"""The vector env's compiled card play (:mod:`.vector`): once a table's auction is over, its cards are played by
the numba kernel of :mod:`.vector_jit` over the arrays of every such table at once, and its engine deal catches up
(the cards pushed, validated) only when something reads it (``env.deals``, ``record``, an error message).

Used where the rules allow it (:mod:`.vector_support` declares which): 56 with a public trump and no claims, and
55 (after its discard and trump choice);
no seated bots but the compiled rules bots of 56 (:mod:`.vector_rules56`); numba importable.  Elsewhere, or with
``VectorEnv(..., compiled=False)``, every move is the engine's
``Deal.push`` (the reference the tests compare with).  The kernel's rules tables come from each game's own play
module: 56's ``trick_key``, ``POINTS`` and ``deal_score`` (made and failed rows); 55's ``KEY``, ``EFFECTIVE_SUIT``,
``IS_TRUMP``, ``PRIVILEGED``, ``TRICK_BONUS`` and its rules' ``BONUS``, a deal's score by its own ``is_made`` and
``deal_score`` on the kernel's points and tricks (it depends on every side's points).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.cards import SUITS
from ..core.deal import PLAY
from ..games.fifty_five import play as play55
from ..games.fifty_five import rules as rules55
from ..games.fifty_five import scoring as scoring55
from ..games.fifty_six import deal_score
from ..games.fifty_six import play as play56  # the game's play rule, by its public name
from .vector_base import BoolArray, FloatArray, IntArray, Tables
from .vector_support import compiled_play as plays_rules

_TRUMPS = (*SUITS, None)
"""The kernel's trump index: 0-3 a suit, 4 none."""


def _kernel() -> Any:
    """The compiled kernel, or None where numba does not import."""
    try:
        from .vector_jit import play_cards
    except ImportError:
        return None
    return play_cards


def arrays_kernel() -> Any:
    """The compiled check, masks and observations (:mod:`.vector_jit_arrays`), or None where numba does not
    import."""
    try:
        from . import vector_jit_arrays
    except ImportError:
        return None
    return vector_jit_arrays


def _tables56(kinds: list[Any]) -> tuple[IntArray, IntArray, IntArray, int, int]:
    """56's play as the kernel's tables: (keys [trump][suit led][kind] as trick key * 8 + points, oblige and allowed
    [trump][kind led] as kind bits: follow suit if able, trick bonus, no highest trump)."""
    keys = np.array([[[play56.trick_key(c, led, t) * 8 + play56.POINTS[c] for c in kinds] for led in range(4)]
                     for t in _TRUMPS], np.int64)
    suit_bits = [sum(1 << j for j, c in enumerate(kinds) if play56.SUIT[c] == s) for s in range(4)]
    follow = np.array([[suit_bits[play56.SUIT[c]] for c in kinds] for _ in _TRUMPS], np.int64)
    return keys, follow, follow.copy(), play56.TRICK_BONUS, 0


def _tables55(kinds: list[Any]) -> tuple[IntArray, IntArray, IntArray, int, int]:
    """55's play as the kernel's tables, from its ranking tables (``KEY``, ``EFFECTIVE_SUIT``, ``IS_TRUMP``,
    ``PRIVILEGED``): a card competes if a trump or of the suit led; on a plain lead a player holding that suit
    (not as a trump) may follow or trump; on a trump lead one holding a trump other than a privileged one above the
    lead must trump (the rule of ``play.legal_cards``); 5 a trick; the key from which a trick's winner is a trump."""
    key, eff, is_trump, priv, suit = play55.KEY, play55.EFFECTIVE_SUIT, play55.IS_TRUMP, play55.PRIVILEGED, play55.SUIT
    base = play55.TRUMP_BASE
    keys = np.zeros((5, 4, len(kinds)), np.int64)
    oblige = np.zeros((5, len(kinds)), np.int64)
    allowed = np.zeros((5, len(kinds)), np.int64)
    for t in SUITS:
        trumps = sum(1 << m for m, c in enumerate(kinds) if is_trump[t][c])
        for j, led in enumerate(kinds):
            if is_trump[t][led]:
                may_keep = sum(1 << m for m, c in enumerate(kinds) if c in priv[t] and key[t][c] > key[t][led])
                oblige[t, j], allowed[t, j] = trumps & ~may_keep, trumps
            else:
                same = sum(1 << m for m, c in enumerate(kinds) if suit[c] == suit[led])
                oblige[t, j], allowed[t, j] = same & ~trumps, same | trumps
        for s in range(4):
            keys[t, s] = [(key[t][c] * 8 + play55.POINTS[c]) if key[t][c] > base or eff[t][c] == s else 0
                          for c in kinds]
    return keys, oblige, allowed, play55.TRICK_BONUS, (base + 1) * 8


def compiled_play(tables: Tables, compiled: bool, seated: bool) -> CompiledPlay | None:
    """The compiled play of ``tables``, where the rules allow it (None: the engine plays every card); ``compiled``
    asks for it, ``seated``: bots play in the env (they push moves on the engine deals, so the engine keeps every
    table)."""
    kernel = _kernel() if compiled else None
    play = tables.game.play
    # the rules the kernel implements, as .vector_support declares them option by option
    usable = (play is play56 or play is play55) and plays_rules(tables.rules) and not seated
    return CompiledPlay(tables, kernel) if usable and kernel is not None else None


class CompiledPlay:
    """The card play of the tables past their auction, compiled: each table's trick, points, tricks won and
    contract, the cards played (for its engine deal to catch up), and the play's rules as the kernel's tables;
    the observation's arrays are written in :class:`~.vector_base.Tables`."""

    def __init__(self, tables: Tables, kernel: Any) -> None:
        self.tables, self._kernel = tables, kernel
        rules: Any = tables.rules
        # the kernel's tables are 56's or 55's play rule: the game's own play rule says which applies
        self._is55 = tables.game.play is play55
        N, n = tables.num_tables, tables.n
        self.engine_may_hold = True     # a table may have gone to the engine since the kernels last held every one
        self.live = np.zeros(N, np.bool_)            # the tables in compiled play
        self.in_trick = np.zeros(N, np.int64)
        self._trick_kinds = np.zeros((N, n), np.int64)
        self.team_points = np.zeros((N, rules.n_teams), np.int64)
        self.trump_at = np.zeros(N, np.int64)       # 0-3 a suit, 4 none
        self.cards_played = np.zeros((N, rules.deck_size), np.int64)
        self.n_played = np.zeros(N, np.int64)
        self.n_pushed = np.zeros(N, np.int64)       # of those, already pushed on the engine deal
        self.team = np.zeros(N, np.int64)
        self.value = np.zeros(N, np.int64)
        self.scores = np.zeros((N, 2, n), np.int64)
        self.tricks_won = np.zeros((N, rules.n_teams), np.int64)
        self._high = np.zeros((N, 3), np.int64)        # 55: the highest trump's key, seat and kind (key 0: none)
        self._contracts: list[Any] = [None] * N         # 55: scored here, by the game's own function
        self._score_rows: dict[tuple[int, int, int], tuple[list[int], list[int]]] = {}
        kinds = tables.enc.kinds
        self._kind_suit = np.array([(play55 if self._is55 else play56).SUIT[c] for c in kinds], np.int64)
        self._cards_of = np.array([int(c) for c in kinds], np.int64)
        self.keys, self.oblige, self.allowed, self._trick_bonus, self._trump_min = (
            _tables55 if self._is55 else _tables56)(list(kinds))
        self._high_bonus = rules55.BONUS if self._is55 else 0
        self._o_high = tables.layout.offsets["highest_trump_seat"] if self._is55 else 0
        self._team_arr = np.array(tables.team_of, np.int64)
        self._o_points = tables.sl_points.start

    def behind(self) -> BoolArray:
        """The tables whose engine deal lacks cards the kernel played."""
        return self.n_played > self.n_pushed

    def catch_up(self, i: int) -> None:
        """Push the cards the kernel played at table ``i`` on its engine deal (its calls pushed)."""
        t = self.tables
        deal, kinds = t.deal_list[i], t.enc.kinds
        played = self.cards_played[i]
        kind_of = t.kind
        for at in range(int(self.n_pushed[i]), int(self.n_played[i])):
            deal.push(kinds[kind_of[int(played[at])]])
        self.n_pushed[i] = self.n_played[i]

    def holds_every_table(self, others: BoolArray, due: BoolArray) -> bool:
        """Whether every table is in the compiled play, in ``others`` or ``due`` (looked at again only after a
        table may have left the kernels: :meth:`enter`, :meth:`leave`)."""
        if self.engine_may_hold:
            self.engine_may_hold = not bool((others | self.live | due).all())
        return not self.engine_may_hold

    def enter(self, i: int) -> bool:
        """Table ``i``'s deal is in its play (just begun, or loaded there): its cards are the kernel's from now.
        False where it is not (the engine keeps the table)."""
        self.engine_may_hold = True
        t = self.tables
        deal: Any = t.deal_list[i]
        contract = deal.contract
        if deal.phase != PLAY or contract is None:
            return False
        self.live[i] = True
        cards = deal.trick_cards
        self.in_trick[i] = len(cards)
        self._trick_kinds[i, :len(cards)] = [t.kind[c] for c in cards]
        self.team_points[i] = deal.points
        self.trump_at[i] = 4 if deal.trump is None else int(deal.trump)
        self.n_played[i] = self.n_pushed[i] = 0
        self.team[i], self.value[i] = contract.team, contract.value
        self.tricks_won[i] = 0
        for trick in deal.tricks:
            self.tricks_won[i, t.team_of[trick.winner]] += 1
        if self._is55:
            self._enter55(i, deal)
            return True
        key = (contract.team, contract.value, contract.multiplier)
        rows = self._score_rows.get(key)
        if rows is None:
            made, failed = deal_score(deal.rules, contract, True), deal_score(deal.rules, contract, False)
            rows = self._score_rows[key] = ([made[s] for s in t.team_of], [failed[s] for s in t.team_of])
        self.scores[i] = rows
        return True

    def _enter55(self, i: int, deal: Any) -> None:
        """55's part: the highest trump so far, and the contract (its score is the game's, at the end)."""
        self._contracts[i] = deal.contract
        self._high[i] = 0
        if deal.highest is not None:
            seat, card, _ = deal.highest
            self._high[i] = (play55.KEY[deal.trump][card] * 8 + play55.POINTS[card], seat, self.tables.kind[card])

    def _score55(self, over: BoolArray, rewards: FloatArray) -> None:
        """The rewards of 55's deals that ended in the kernel, by the game's own scoring of its points and tricks."""
        t = self.tables
        for i in np.flatnonzero(over).tolist():
            contract, points, tricks = self._contracts[i], self.team_points[i].tolist(), self.tricks_won[i].tolist()
            score = scoring55.deal_score(t.rules, contract, points,  # type: ignore[arg-type]
                                         scoring55.is_made(contract, points, tricks))
            rewards[i] = [score[s] for s in t.team_of]

    def leave(self, tables: list[int]) -> None:
        """Tables dealt afresh (or loaded before their play): the engine plays their moves again."""
        self.live[tables] = False
        self.engine_may_hold = True
        self.n_played[tables] = self.n_pushed[tables] = 0

    def play(self, acts: IntArray, rewards: FloatArray, in_place: bool = False) -> tuple[
            BoolArray, IntArray, IntArray, BoolArray]:
        """The cards of the tables in compiled play: (those tables, their next seats, their legal card bits, the
        deals that ended); the seats and bits are the tables' own arrays ``in_place`` (a step where every table has
        a move: :meth:`.vector_step.Steps.step_held`), else copies."""
        t = self.tables
        live = self.live if in_place else self.live & (acts >= 0)
        to_move = t.to_move if in_place else t.to_move.copy()
        bits = t.bits if in_place else t.bits.copy()
        over = np.zeros(t.num_tables, np.bool_)
        self._kernel(acts, live, t.first_card, t.hands, t.pub, t.o_played, t.o_trick, self._o_points,
                     self._trick_kinds, self.in_trick, t.leader, self.team_points, self._team_arr, self._kind_suit,
                     self.keys, self.trump_at, self._cards_of, self.cards_played, self.n_played, self.team,
                     self.value, self.scores, rewards, over, to_move, bits, self.oblige, self.allowed,
                     self._trick_bonus, self.tricks_won, self._high, self._o_high, self._trump_min, self._high_bonus,
                     not self._is55)
        if self._is55:
            self._score55(over, rewards)
        return live, to_move, bits, over

"""The vector env's compiled card play (:mod:`.vector`): once a table's auction is over, its cards are played by
the numba kernel of :mod:`.vector_jit` over the arrays of every such table at once, and its engine deal catches up
(the cards pushed, validated) only when something reads it (``env.deals``, ``record``, an error message).

Used where the rules allow it: 56 with a public trump and no claims, no seated bots, numba importable; elsewhere,
or with ``VectorEnv(..., compiled=False)``, every move is the engine's ``Deal.push`` (the reference the tests compare
with).  The kernel's rules tables come from the engine's own functions (``trick_key``, ``POINTS``, ``deal_score``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.cards import SUITS
from ..core.deal import PLAY
from ..games.fifty_six import deal_score
from ..games.fifty_six import play as play56  # the game's play rule, by its public name
from .vector_base import BoolArray, FloatArray, IntArray, VectorTables


def _kernel() -> Any:
    """The compiled kernel, or None where numba does not import."""
    try:
        from .vector_jit import play_cards
    except ImportError:
        return None
    return play_cards


class CompiledPlay(VectorTables):
    """The card play of the tables past their auction, compiled."""

    def _init_play(self, compiled: bool, seated: bool) -> None:
        """The compiled play's arrays and tables; ``compiled`` asks for it, ``seated``: bots play in the env (they
        push moves on the engine deals, so the engine keeps every table)."""
        rules: Any = self.rules
        kernel = _kernel() if compiled else None
        # the kernel's tables are 56's play rule: the game's own play rule says whether it applies
        usable = self.game.play is play56 and rules.trump != "hidden" and not rules.claim and not seated
        self._play_kernel: Any = kernel if usable else None
        self.compiled = self._play_kernel is not None
        N, n = self.num_tables, self.n
        self._live = np.zeros(N, np.bool_)            # the tables in compiled play
        self._in_trick = np.zeros(N, np.int64)
        self._trick_kinds = np.zeros((N, n), np.int64)
        self._team_points = np.zeros((N, rules.n_teams), np.int64)
        self._trump_at = np.zeros(N, np.int64)       # 0-3 a suit, 4 none
        self._cards_played = np.zeros((N, rules.deck_size), np.int64)
        self._n_played = np.zeros(N, np.int64)
        self._n_pushed = np.zeros(N, np.int64)       # of those, already pushed on the engine deal
        self._team = np.zeros(N, np.int64)
        self._value = np.zeros(N, np.int64)
        self._scores = np.zeros((N, 2, n), np.int64)
        self._score_rows: dict[tuple[int, int, int], tuple[list[int], list[int]]] = {}
        kinds = self.enc.kinds
        self._kind_suit = np.array([play56.SUIT[c] for c in kinds], np.int64)
        self._cards_of = np.array([int(c) for c in kinds], np.int64)
        self._keys = np.array([[[play56.trick_key(c, led, t) * 8 + play56.POINTS[c] for c in kinds] for led in range(4)]
                               for t in (*SUITS, None)], np.int64)     # [trump (4: none)][suit led][kind]
        self._team_arr = np.array(self._team_of, np.int64)
        self._o_points = self._sl_points.start

    def _catch_up_all(self) -> None:
        """Push the cards of the compiled play on the engine deals (for anyone reading ``deals``)."""
        for i in np.flatnonzero(self._n_played > self._n_pushed).tolist():
            self._catch_up(i)

    def _catch_up(self, i: int) -> None:
        deal, kinds = self._deal_list[i], self.enc.kinds
        played = self._cards_played[i]
        kind_of = self._kind
        for at in range(int(self._n_pushed[i]), int(self._n_played[i])):
            deal.push(kinds[kind_of[int(played[at])]])
        self._n_pushed[i] = self._n_played[i]

    def _enter_play(self, i: int) -> None:
        """Table ``i``'s deal is in its play (just begun, or loaded there): its cards are the kernel's from now."""
        deal: Any = self._deal_list[i]
        contract = deal.contract
        if deal.phase != PLAY or contract is None:
            self._leave_play([i])
            return
        self._live[i] = True
        cards = deal.trick_cards
        self._in_trick[i] = len(cards)
        self._trick_kinds[i, :len(cards)] = [self._kind[c] for c in cards]
        self._team_points[i] = deal.points
        self._trump_at[i] = 4 if deal.trump is None else int(deal.trump)
        self._n_played[i] = self._n_pushed[i] = 0
        self._team[i], self._value[i] = contract.team, contract.value
        key = (contract.team, contract.value, contract.multiplier)
        rows = self._score_rows.get(key)
        if rows is None:
            made, failed = deal_score(deal.rules, contract, True), deal_score(deal.rules, contract, False)
            rows = self._score_rows[key] = ([made[t] for t in self._team_of], [failed[t] for t in self._team_of])
        self._scores[i] = rows

    def _leave_play(self, tables: list[int]) -> None:
        """Tables dealt afresh (or loaded before their play): the engine plays their moves again."""
        self._live[tables] = False
        self._n_played[tables] = self._n_pushed[tables] = 0

    def _play_compiled(self, acts: IntArray, rewards: FloatArray) -> tuple[BoolArray, IntArray, IntArray,
                                                                              BoolArray]:
        """The cards of the tables in compiled play: (those tables, their next seats, their legal card bits, the
        deals that ended)."""
        live = self._live & (acts >= 0)
        to_move = self._to_move.copy()
        bits = self._bits.copy()
        over = np.zeros(self.num_tables, np.bool_)
        self._play_kernel(acts, live, self.first_card, self._hands, self._pub, self._o_played, self._o_trick,
                          self._o_points, self._trick_kinds, self._in_trick, self._leader, self._team_points,
                          self._team_arr, self._kind_suit, self._keys, self._trump_at, self._cards_of,
                          self._cards_played, self._n_played, self._team, self._value, self._scores, rewards,
                          over, to_move, bits)
        return live, to_move, bits, over

    def _compiled_done(self, compiled: tuple[BoolArray, IntArray, IntArray, BoolArray], resync: list[int],
                       over: list[int], rewards: FloatArray, terminations: BoolArray, to_move: list[int]) -> None:
        """The end of a step with compiled play: the kernel's next seats and legal cards, every deal that ended
        (the engine's and the kernel's, the kernel's already scored), and the tables whose play begins."""
        live, next_seat, bits, ended = compiled
        self._bits[live] = bits[live]
        seats = next_seat.tolist()
        for i in np.flatnonzero(live).tolist():
            to_move[i] = seats[i]
        done = np.flatnonzero(ended).tolist()
        if over or done:
            self._deals_ended(over + done, rewards, to_move, frozenset(done))
            terminations[over + done] = True
        for i in resync:
            self._enter_play(i)

"""The vector env's compiled array work of every step (numba, ``@njit(cache=True)``): the check of the actions,
the cards of the masks and the one-hot pieces and hand of the observations, each one pass over the tables instead
of a dozen numpy calls.

Used by an env with compiled play (:mod:`.vector_play`); the reference env (``compiled=False``) keeps the numpy code
of :mod:`.vector_bank` and :mod:`.vector_arrays`, and the tests compare the two step by step.  Indices are those of
the numpy code, a seat of -1 (a finished table, ``autoreset=False``) included: numba wraps negative indices as
numpy does.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, nogil=True)
def check_actions(acts, num_actions, first_card, bits, bank, rows, to_move, out):
    """``out[i]``: ``acts[i]`` at a table with a seat to move, -1 at a finished one.  Returns the first table whose
    action is not legal (a move of its bank row or a card of its bits), or -1."""
    for i in range(acts.shape[0]):
        if to_move[i] < 0:
            out[i] = -1
            continue
        a = acts[i]
        out[i] = a
        if a < 0 or a >= num_actions:
            return i
        if bank[rows[i], a]:
            continue
        card = a - first_card
        if card < 0 or not (bits[i] >> card) & 1:
            return i
    return -1


@njit(cache=True, nogil=True)
def add_cards(bits, first_card, k, out):
    """``out`` (N, actions), each table's bank row: its legal card kinds from ``bits`` set as well."""
    for i in range(bits.shape[0]):
        b = bits[i]
        for j in range(k):
            if (b >> j) & 1:
                out[i, first_card + j] = True


@njit(cache=True, nogil=True)
def observe(hands, seats, to_move, phase, leader, trump, trump_public, declarer, o_seat, o_phase, o_to_move,
            o_leader, o_trump, o_hand, out):
    """``out`` (N, D), a copy of the public pieces: the one-hot seat, phase, seat to move, trick leader and trump
    (when the seat may know it) set, and the hand of ``seats[i]``."""
    k = hands.shape[2]
    for i in range(out.shape[0]):
        s = seats[i]
        out[i, o_seat + s] = 1.0
        out[i, o_phase + phase[i]] = 1.0
        if to_move[i] >= 0:
            out[i, o_to_move + to_move[i]] = 1.0
        if leader[i] >= 0:
            out[i, o_leader + leader[i]] = 1.0
        if trump[i] >= 0 and (trump_public[i] or declarer[i] == s):
            out[i, o_trump + trump[i]] = 1.0
        for j in range(k):
            out[i, o_hand + j] = hands[i, s, j]


__all__ = ["check_actions", "add_cards", "observe"]

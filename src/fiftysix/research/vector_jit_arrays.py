"""The vector env's compiled array work of every step (numba, ``@njit(cache=True)``): the check of the actions,
the cards of the masks and the one-hot pieces and hand of the observations, each one pass over the tables instead
of a dozen numpy calls.

Used by an env with compiled play (:mod:`.vector_play`); the reference env (``compiled=False``) keeps the numpy code
of :mod:`.vector_bank` and :mod:`.vector_arrays`, and the tests compare the two step by step.  Indices are those of
the numpy code, a seat of -1 (a finished table, ``autoreset=False``) included: numba wraps negative indices as
numpy does.
"""

from __future__ import annotations

import numpy as np
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


_N = 624
_M = 397


def _base() -> np.ndarray:
    mt = np.zeros(_N, np.int64)
    mt[0] = 19650218
    for i in range(1, _N):
        mt[i] = (1812433253 * (int(mt[i - 1]) ^ (int(mt[i - 1]) >> 30)) + i) & 0xFFFFFFFF
    return mt


_BASE = _base()


@njit(cache=True, nogil=True)
def _seed_mt(mt, seed):
    """``mt`` as CPython's ``random.Random(seed)`` leaves it for a seed of 0 to 2**63 - 1 (``init_by_array`` of the
    seed's 32-bit words, low first: one word below 2**32, else two)."""
    mt[:] = _BASE      # init_genrand(19650218), the same for every seed
    key0 = seed & 0xFFFFFFFF
    key1 = seed >> 32
    words = 2 if key1 else 1
    i = 1
    j = 0
    for _ in range(_N):
        word = key0 if j == 0 else key1
        mt[i] = ((mt[i] ^ (((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525) & 0xFFFFFFFF)) + word + j) & 0xFFFFFFFF
        i += 1
        j += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
        if j >= words:
            j = 0
    for _ in range(_N - 1):
        mt[i] = ((mt[i] ^ (((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941) & 0xFFFFFFFF)) - i) & 0xFFFFFFFF
        i += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
    mt[0] = 0x80000000


@njit(cache=True, nogil=True)
def _twist(mt):
    """The next 624 words of the generator (MT19937's regeneration)."""
    for kk in range(_N - _M):
        y = (mt[kk] & 0x80000000) | (mt[kk + 1] & 0x7FFFFFFF)
        mt[kk] = mt[kk + _M] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
    for kk in range(_N - _M, _N - 1):
        y = (mt[kk] & 0x80000000) | (mt[kk + 1] & 0x7FFFFFFF)
        mt[kk] = mt[kk + _M - _N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
    y = (mt[_N - 1] & 0x80000000) | (mt[0] & 0x7FFFFFFF)
    mt[_N - 1] = mt[_M - 1] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)


@njit(cache=True, nogil=True)
def _word(mt, at):
    """The tempered word ``at`` of the current block."""
    y = mt[at]
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & 0xFFFFFFFF


@njit(cache=True, nogil=True)
def deal_masks(seeds, card_bit, second, players, hand_size, once, twice):
    """56's deal from each seed as ``Deal56.from_seed(rules, seed, dealer)`` deals it (the dealer given, so
    nothing is drawn before the shuffle): ``random.Random(seed)``'s shuffle of the deck (``core.shuffle``: the
    Fisher-Yates walk from the last place down to place ``hand_size``, each place drawn with ``getrandbits`` of its
    bound's bit length until below it), then each seat's ``hand_size`` places in turn as ``once`` (the cards held)
    and ``twice`` (held twice).  Deck place ``e`` holds the card of bit ``card_bit[e]``, its second copy if
    ``second[e]``."""
    size = card_bit.shape[0]
    mt = np.zeros(_N, np.int64)
    order = np.zeros(size, np.int64)
    for t in range(seeds.shape[0]):
        _seed_mt(mt, seeds[t])
        at = _N
        for e in range(size):
            order[e] = e
        for i in range(size - 1, max(hand_size, 1) - 1, -1):
            bits = 0        # (i + 1).bit_length()
            v = i + 1
            while v:
                bits += 1
                v >>= 1
            while True:
                if at >= _N:
                    _twist(mt)
                    at = 0
                j = _word(mt, at) >> (32 - bits)
                at += 1
                if j <= i:
                    break
            order[i], order[j] = order[j], order[i]
        for seat in range(players):
            first = 0
            other = 0
            for p in range(seat * hand_size, (seat + 1) * hand_size):
                e = order[p]
                if second[e]:
                    other |= card_bit[e]
                else:
                    first |= card_bit[e]
            once[t, seat] = first | other
            twice[t, seat] = first & other


__all__ = ["add_cards", "check_actions", "deal_masks", "observe"]

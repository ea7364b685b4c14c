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
def masks(bank, rows, bits, first_card, k, out):
    """``out`` (N, actions): each table's bank row, its legal card kinds from ``bits`` set as well."""
    for i in range(bits.shape[0]):
        row = bank[rows[i]]
        for a in range(out.shape[1]):
            out[i, a] = row[a]
        b = bits[i]
        for j in range(k):
            if (b >> j) & 1:
                out[i, first_card + j] = True


@njit(cache=True, nogil=True)
def observe(hands, seats, to_move, phase, leader, trump, trump_public, declarer, o_seat, o_phase, o_to_move,
            o_leader, o_trump, o_hand, out):
    """``out`` (N, D), a copy of the public pieces (numpy's copy: faster than a loop here): the one-hot seat, phase,
    seat to move, trick leader and trump (when the seat may know it) set, and the hand of ``seats[i]``."""
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


_LANES = 8
"""Seeds set up side by side: each seed's set-up is one long chain of dependent steps, so the processor works on
several seeds' chains at once (about 3x faster than one at a time)."""


@njit(cache=True, nogil=True)
def _seed_mt(mt, seeds, first, count):
    """``mt[l]`` as CPython's ``random.Random(seeds[first + l])`` leaves it, for ``l`` below ``count``, each seed of 0
    to 2**63 - 1 (``init_by_array`` of the seed's 32-bit words, low first: one word below 2**32, else two)."""
    key0 = np.zeros(_LANES, np.int64)
    key1 = np.zeros(_LANES, np.int64)
    words = np.ones(_LANES, np.int64)
    for lane in range(count):
        seed = seeds[first + lane]
        key0[lane] = seed & 0xFFFFFFFF
        key1[lane] = seed >> 32
        words[lane] = 2 if key1[lane] else 1
        mt[lane, :] = _BASE      # init_genrand(19650218), the same for every seed
    i = 1
    for step in range(_N):      # (the key index j is step % words: 0 for one word, else alternating)
        odd = step & 1
        for lane in range(count):
            prev = mt[lane, i - 1]
            two = words[lane] - 1
            word = key1[lane] if odd & two else key0[lane]
            mt[lane, i] = ((mt[lane, i] ^ (((prev ^ (prev >> 30)) * 1664525) & 0xFFFFFFFF)) + word
                           + (odd & two)) & 0xFFFFFFFF
        i += 1
        if i >= _N:
            for lane in range(count):
                mt[lane, 0] = mt[lane, _N - 1]
            i = 1
    for _ in range(_N - 1):
        for lane in range(count):
            prev = mt[lane, i - 1]
            mt[lane, i] = ((mt[lane, i] ^ (((prev ^ (prev >> 30)) * 1566083941) & 0xFFFFFFFF)) - i) & 0xFFFFFFFF
        i += 1
        if i >= _N:
            for lane in range(count):
                mt[lane, 0] = mt[lane, _N - 1]
            i = 1
    for lane in range(count):
        mt[lane, 0] = 0x80000000


@njit(cache=True, nogil=True)
def _twist_one(mt, kk):
    """Word ``kk`` of the next block (MT19937's regeneration of one word).  Done in order ``kk`` = 0, 1, ... as the
    words are read, it is the whole block's regeneration: each word reads the old ``mt[kk + 1]`` and ``mt[kk + 397]``
    (the new one past the block's end), as the regeneration of all 624 at once does; a deal reads some 60 words."""
    y = (mt[kk] & 0x80000000) | (mt[(kk + 1) % _N] & 0x7FFFFFFF)
    mt[kk] = mt[(kk + _M) % _N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)


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
    lanes = np.empty((_LANES, _N), np.int64)     # (each lane set up by _seed_mt before it is read)
    order = np.zeros(card_bit.shape[0], np.int64)
    for t in range(seeds.shape[0]):
        lane = t % _LANES
        if lane == 0:
            _seed_mt(lanes, seeds, t, min(_LANES, seeds.shape[0] - t))
        _deal_one(lanes[lane], order, card_bit, second, players, hand_size, once[t], twice[t])


@njit(cache=True, nogil=True)
def _deal_one(mt, order, card_bit, second, players, hand_size, once, twice):
    """One deal of :func:`deal_masks` from the generator ``mt`` as seeded: each seat's ``once`` and ``twice``."""
    size = card_bit.shape[0]
    at = _N
    twisted = _N
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
                at = twisted = 0
            if at >= twisted:
                _twist_one(mt, at)
                twisted = at + 1
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
        once[seat] = first | other
        twice[seat] = first & other


@njit(cache=True, nogil=True)
def deal_tables(tables, seeds, card_bit, second, hand_size, kind_shift, hands, pub, phase, auction_code, leader,
                trump, trump_public, declarer, live, n_played, n_pushed, in_auction, lazy, auction, auction_start,
                calls_pushed, rows, first_row, bits, to_move, first_hand):
    """The next deal of each of ``tables`` from its seed (``seeds[t]``, dealt as :func:`deal_masks` deals), straight
    into the arrays of the compiled 56 auction (:mod:`.vector_auction`): the hands (each kind's bit at
    ``kind_shift``), an empty observation, the auction state ``auction_start`` with first hand to call (its legal
    calls the bank row ``first_row``), no engine deal made yet."""
    n = hands.shape[1]
    k = hands.shape[2]
    lanes = np.empty((_LANES, _N), np.int64)     # (each lane set up by _seed_mt before it is read)
    order = np.zeros(card_bit.shape[0], np.int64)
    once = np.zeros(n, np.int64)
    twice = np.zeros(n, np.int64)
    for t in range(tables.shape[0]):
        lane = t % _LANES
        if lane == 0:
            _seed_mt(lanes, seeds, t, min(_LANES, seeds.shape[0] - t))
        _deal_one(lanes[lane], order, card_bit, second, n, hand_size, once, twice)
        i = tables[t]
        for s in range(n):
            for j in range(k):
                hands[i, s, j] = ((once[s] >> kind_shift[j]) & 1) + ((twice[s] >> kind_shift[j]) & 1)
        for j in range(pub.shape[1]):
            pub[i, j] = 0.0
        phase[i] = auction_code
        leader[i] = trump[i] = declarer[i] = -1
        trump_public[i] = True
        live[i] = False
        n_played[i] = n_pushed[i] = calls_pushed[i] = 0
        in_auction[i] = lazy[i] = True
        for c in range(auction.shape[1]):
            auction[i, c] = auction_start[c]
        rows[i] = first_row
        bits[i] = 0
        to_move[i] = first_hand


__all__ = ["check_actions", "deal_masks", "deal_tables", "masks", "observe"]

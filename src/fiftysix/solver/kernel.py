"""The fast double-dummy search, compiled with numba (``@njit(cache=True)``).

A position is encoded by :mod:`fiftysix.solver.encode` as integer card masks over *slots*: each suit
(the effective suit in 55, where the A♥ belongs to trumps) owns 16 bits, ``slot = 16 * suit + order``
with order 0 for the suit's highest card, so "beats in the same suit" is "lower slot".  Each seat has two
masks, ``one`` (holds the card at least once) and ``two`` (holds both copies; always 0 in 55).

The search is a fail-soft alpha-beta over single cards for one maximising team against all others, on an
explicit stack (numba's disk cache cannot hold recursive functions), with

* a transposition table at trick starts (:mod:`~fiftysix.solver.kernel_keys`: two independent hashes of
  the hands up to relative ranks and the order of the plain suits, one for the index, one as the key),
  storing lower and upper bounds of the points still to come and the best lead;
* identical copies merged (a hand is a set of distinct cards) and equivalent cards merged: two cards of
  one seat and one suit with equal points and no card of any other seat (or of the current trick) of a
  rank between them or equal to either play the same (the privileged trumps of 55 are never merged);
  move ordering from what the opponents still to play can beat or ruff
  (:mod:`~fiftysix.solver.kernel_moves`);
* bounds from the points left, from points a side is sure to take (:mod:`~fiftysix.solver.kernel_bounds`)
  and from a trick nobody still to play can win;
* null-window searches for the exact value: galloping up from a guess while they fail high (probes far
  from the value are cheap), then bisecting.

Values are points for the maximising team from the position on, counting the current trick.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from .kernel_base import (  # noqa: F401 - the kernel's public names
    C_BONUS,
    C_MAXTEAM,
    C_MODE,
    C_N,
    C_SALT_A,
    C_SALT_B,
    C_TRUMP,
    CTX_LEN,
    MAX_PLY,
    MAX_SEATS,
    MODE_55,
    MODE_56,
    S_NODES,
    S_TT_HITS,
    S_TT_STORES,
    SLOTS,
    _beats,
    _suit_mask,
)
from .kernel_bounds import _points_in_hands, _sure_points, upper_bound
from .kernel_keys import _canon_hash
from .kernel_moves import _order, _reps, legal_mask, representatives  # noqa: F401

# per-ply fields of the explicit search stack (numba's cache cannot hold recursive functions)
F_LEADER, F_NTRICK, F_LED, F_BSLOT, F_BSEAT, F_TPTS, F_TMASK, F_REM, F_NLEFT = range(9)
F_ALPHA, F_BETA, F_A0, F_B0, F_BEST, F_BMOVE, F_K, F_I, F_IDX, F_KEY, F_TOTAL, F_GAIN, F_CARD = range(9, 22)
F_HADTWO, F_SEAT, F_MAX = 22, 23, 24
N_FIELDS = 25
ENTER, NEXT, RETURN = 0, 1, 2


@njit(cache=True)
def _ab(one: np.ndarray, two: np.ndarray, team: np.ndarray, ctx: np.ndarray, pts: np.ndarray, priv: int,
        za: np.ndarray, zb: np.ndarray, tt: np.ndarray,
        mv: np.ndarray, sc: np.ndarray, st: np.ndarray, stats: np.ndarray) -> int:
    """Fail-soft alpha-beta from the node prepared in ``st[0]``, with an explicit stack."""
    n = ctx[C_N]
    trump = ctx[C_TRUMP]
    maxteam = ctx[C_MAXTEAM]
    bonus = ctx[C_BONUS]
    mode = ctx[C_MODE]
    mask = tt.shape[0] - 1
    relmap = np.empty(SLOTS, dtype=np.int64)
    sa = np.empty(4, dtype=np.int64)
    sb = np.empty(4, dtype=np.int64)
    ply = 0
    state = ENTER
    ret = np.int64(0)
    while True:
        if state == ENTER:
            stats[S_NODES] += 1
            leader = st[ply, F_LEADER]
            ntrick = st[ply, F_NTRICK]
            nleft = st[ply, F_NLEFT]
            alpha = st[ply, F_ALPHA]
            beta = st[ply, F_BETA]
            if nleft == 0:
                ret = 0
                state = RETURN
                continue
            tpts = st[ply, F_TPTS]
            total = st[ply, F_REM] + tpts + bonus * ((nleft + ntrick) // n)
            if total <= alpha:
                ret = total
                state = RETURN
                continue
            if beta <= 0:
                ret = 0
                state = RETURN
                continue
            seat = (leader + ntrick) % n
            tt_move = -1
            if ntrick > 0 and mode == MODE_56:
                # a trick nobody still to play can win: its points so far, and each player's cheapest
                # contribution, are sure to go to the side winning it now
                bslot = st[ply, F_BSLOT]
                led = st[ply, F_LED] >> 4
                sure = tpts
                decided = True
                for j in range(ntrick, n):
                    q = (leader + j) % n
                    h = one[q]
                    follow = h & _suit_mask(led)
                    lg = follow if follow != 0 else h
                    if (lg & _suit_mask(bslot >> 4) & ((np.int64(1) << bslot) - 1)) != 0:
                        decided = False
                        break
                    if trump >= 0 and (bslot >> 4) != trump and (lg & _suit_mask(trump)) != 0:
                        decided = False
                        break
                    low = 100
                    x = lg
                    while x != 0:
                        c = trailing_zeros(x)
                        x &= x - 1
                        if pts[c] < low:
                            low = pts[c]
                    sure += low
                if decided:
                    if team[st[ply, F_BSEAT]] == maxteam:
                        if sure >= beta:
                            ret = sure
                            state = RETURN
                            continue
                    elif total - sure <= alpha:
                        ret = total - sure
                        state = RETURN
                        continue
            if ntrick == 0:
                ha, hb = _canon_hash(one, two, n, pts, priv, trump, za, zb, relmap, sa, sb)
                idx = (ha ^ za[leader, 0, 2] ^ ctx[C_SALT_A]) & mask
                key = hb ^ zb[leader, 0, 2] ^ ctx[C_SALT_B]
                st[ply, F_IDX] = idx
                st[ply, F_KEY] = key
                if tt[idx, 0] == key:
                    stats[S_TT_HITS] += 1
                    data = tt[idx, 1]
                    lo = data & 0xFF
                    hi = (data >> 8) & 0xFF
                    tt_move = (data >> 16) - 1
                    if lo >= beta:
                        ret = lo
                        state = RETURN
                        continue
                    if hi <= alpha:
                        ret = hi
                        state = RETURN
                        continue
                    if lo > alpha:
                        alpha = lo
                    if hi < beta:
                        beta = hi
                if mode == MODE_56:
                    sure_max, sure_min = _sure_points(one, two, n, team, maxteam, trump, leader, pts)
                    if sure_max >= beta:
                        ret = sure_max
                        state = RETURN
                        continue
                    if total - sure_min <= alpha:
                        ret = total - sure_min
                        state = RETURN
                        continue
            st[ply, F_ALPHA] = alpha
            st[ply, F_BETA] = beta
            st[ply, F_A0] = alpha
            st[ply, F_B0] = beta
            st[ply, F_TOTAL] = total
            st[ply, F_SEAT] = seat
            legal = legal_mask(one, seat, ntrick, st[ply, F_LED], trump, mode, priv)
            others = st[ply, F_TMASK]
            for q in range(n):
                if q != seat:
                    others |= one[q]
            reps = _reps(others, legal, pts, priv)
            if (reps & (reps - 1)) == 0:  # a single card (or its equals): nothing to order
                mv[ply, 0] = trailing_zeros(reps)
                st[ply, F_K] = 1
            else:
                st[ply, F_K] = _order(one, others, team, ctx, pts, reps, seat, leader, ntrick, st[ply, F_LED],
                                      st[ply, F_BSLOT], st[ply, F_BSEAT], tt_move, mv, sc, ply)
            st[ply, F_I] = 0
            is_max = team[seat] == maxteam
            st[ply, F_MAX] = is_max
            st[ply, F_BEST] = -1 if is_max else 1000
            st[ply, F_BMOVE] = -1
            state = NEXT
            continue
        if state == NEXT:
            i = st[ply, F_I]
            if i >= st[ply, F_K] or st[ply, F_ALPHA] >= st[ply, F_BETA]:
                best = st[ply, F_BEST]
                if st[ply, F_NTRICK] == 0:
                    stats[S_TT_STORES] += 1
                    idx = st[ply, F_IDX]
                    key = st[ply, F_KEY]
                    if tt[idx, 0] == key:
                        data = tt[idx, 1]
                        lo = data & 0xFF
                        hi = (data >> 8) & 0xFF
                    else:
                        lo = 0
                        hi = st[ply, F_TOTAL]
                    if best <= st[ply, F_A0]:
                        if best < hi:
                            hi = best
                    elif best >= st[ply, F_B0]:
                        if best > lo:
                            lo = best
                    else:
                        lo = best
                        hi = best
                    tt[idx, 0] = key
                    tt[idx, 1] = lo | (hi << 8) | ((st[ply, F_BMOVE] + 1) << 16)
                ret = best
                state = RETURN
                continue
            st[ply, F_I] = i + 1
            c = mv[ply, i]
            seat = st[ply, F_SEAT]
            ntrick = st[ply, F_NTRICK]
            bit = np.int64(1) << c
            if two[seat] & bit:
                two[seat] &= ~bit
                st[ply, F_HADTWO] = 1
            else:
                one[seat] &= ~bit
                st[ply, F_HADTWO] = 0
            st[ply, F_CARD] = c
            p = pts[c]
            if ntrick == 0 or _beats(c, st[ply, F_BSLOT], trump):
                nb_slot = c
                nb_seat = seat
            else:
                nb_slot = st[ply, F_BSLOT]
                nb_seat = st[ply, F_BSEAT]
            q = ply + 1
            st[q, F_REM] = st[ply, F_REM] - p
            st[q, F_NLEFT] = st[ply, F_NLEFT] - 1
            if ntrick + 1 == n:
                gain = 0
                if team[nb_seat] == maxteam:
                    gain = st[ply, F_TPTS] + p + bonus
                st[q, F_LEADER] = nb_seat
                st[q, F_NTRICK] = 0
                st[q, F_LED] = -1
                st[q, F_BSLOT] = -1
                st[q, F_BSEAT] = -1
                st[q, F_TPTS] = 0
                st[q, F_TMASK] = 0
            else:
                gain = 0
                st[q, F_LEADER] = st[ply, F_LEADER]
                st[q, F_NTRICK] = ntrick + 1
                st[q, F_LED] = c if ntrick == 0 else st[ply, F_LED]
                st[q, F_BSLOT] = nb_slot
                st[q, F_BSEAT] = nb_seat
                st[q, F_TPTS] = st[ply, F_TPTS] + p
                st[q, F_TMASK] = st[ply, F_TMASK] | bit
            st[ply, F_GAIN] = gain
            st[q, F_ALPHA] = st[ply, F_ALPHA] - gain
            st[q, F_BETA] = st[ply, F_BETA] - gain
            ply = q
            state = ENTER
            continue
        # RETURN: hand ``ret`` to the parent
        if ply == 0:
            return ret
        ply -= 1
        c = st[ply, F_CARD]
        seat = st[ply, F_SEAT]
        bit = np.int64(1) << c
        if st[ply, F_HADTWO]:
            two[seat] |= bit
        else:
            one[seat] |= bit
        v = st[ply, F_GAIN] + ret
        if st[ply, F_MAX]:
            if v > st[ply, F_BEST]:
                st[ply, F_BEST] = v
                st[ply, F_BMOVE] = c
                if v > st[ply, F_ALPHA]:
                    st[ply, F_ALPHA] = v
        else:
            if v < st[ply, F_BEST]:
                st[ply, F_BEST] = v
                st[ply, F_BMOVE] = c
                if v < st[ply, F_BETA]:
                    st[ply, F_BETA] = v
        state = NEXT


@njit(cache=True)
def search(one: np.ndarray, two: np.ndarray, team: np.ndarray, ctx: np.ndarray, pts: np.ndarray, priv: int,
           za: np.ndarray, zb: np.ndarray, tt: np.ndarray, stats: np.ndarray,
           leader: int, ntrick: int, led_slot: int, best_slot: int, best_seat: int, tpts: int, tmask: int,
           alpha: int, beta: int) -> int:
    """One fail-soft alpha-beta search of the encoded position with the window ``(alpha, beta)``."""
    n = ctx[C_N]
    rem, cnt = _points_in_hands(one, two, n, pts)
    st = np.empty((MAX_PLY, N_FIELDS), dtype=np.int64)
    st[0, F_LEADER] = leader
    st[0, F_NTRICK] = ntrick
    st[0, F_LED] = led_slot
    st[0, F_BSLOT] = best_slot
    st[0, F_BSEAT] = best_seat
    st[0, F_TPTS] = tpts
    st[0, F_TMASK] = tmask
    st[0, F_REM] = rem
    st[0, F_NLEFT] = cnt
    st[0, F_ALPHA] = alpha
    st[0, F_BETA] = beta
    mv = np.empty((MAX_PLY, SLOTS), dtype=np.int64)
    sc = np.empty((MAX_PLY, SLOTS), dtype=np.int64)
    return _ab(one, two, team, ctx, pts, priv, za, zb, tt, mv, sc, st, stats)


@njit(cache=True)
def mtdf(one: np.ndarray, two: np.ndarray, team: np.ndarray, ctx: np.ndarray, pts: np.ndarray, priv: int,
         za: np.ndarray, zb: np.ndarray, tt: np.ndarray, stats: np.ndarray,
         leader: int, ntrick: int, led_slot: int, best_slot: int, best_seat: int, tpts: int, tmask: int,
         guess: int) -> int:
    """The exact value by null-window searches (MTD(f)), starting at ``guess`` (-1: half the points left)."""
    lo = 0
    hi = upper_bound(one, two, ctx, pts, ntrick, tpts)
    beta = guess
    if beta < 0:
        beta = hi // 2
    step = 2
    failed_low = False
    while lo < hi:
        if beta < lo + 1:
            beta = lo + 1
        if beta > hi:
            beta = hi
        g = search(one, two, team, ctx, pts, priv, za, zb, tt, stats, leader, ntrick, led_slot,
                   best_slot, best_seat, tpts, tmask, beta - 1, beta)
        if g < beta:
            hi = g
            failed_low = True
        else:
            lo = g
        # probes far from the value are cheap: gallop up while the value is above, then bisect
        if not failed_low:
            beta = lo + step
            step *= 2
        elif lo == 0 and g >= beta:
            beta = lo + 1
        else:
            beta = (lo + hi + 1) // 2
    return lo


@njit(cache=True)
def value_after(one: np.ndarray, two: np.ndarray, team: np.ndarray, ctx: np.ndarray, pts: np.ndarray,
                priv: int, za: np.ndarray, zb: np.ndarray, tt: np.ndarray,
                stats: np.ndarray, leader: int, ntrick: int, led_slot: int, best_slot: int, best_seat: int,
                tpts: int, tmask: int, card: int, guess: int) -> int:
    """The exact value after the seat to move plays ``card`` (its trick's points included if it ends it)."""
    n = ctx[C_N]
    trump = ctx[C_TRUMP]
    seat = (leader + ntrick) % n
    bit = np.int64(1) << card
    had_two = (two[seat] & bit) != 0
    if had_two:
        two[seat] &= ~bit
    else:
        one[seat] &= ~bit
    p = pts[card]
    if ntrick == 0 or _beats(card, best_slot, trump):
        nb_slot = card
        nb_seat = seat
    else:
        nb_slot = best_slot
        nb_seat = best_seat
    nled = card if ntrick == 0 else led_slot
    if ntrick + 1 == n:
        gain = 0
        if team[nb_seat] == ctx[C_MAXTEAM]:
            gain = tpts + p + ctx[C_BONUS]
        g = guess - gain if guess >= 0 else -1
        v = gain + mtdf(one, two, team, ctx, pts, priv, za, zb, tt, stats, nb_seat, 0, -1, -1, -1,
                        0, 0, g)
    else:
        v = mtdf(one, two, team, ctx, pts, priv, za, zb, tt, stats, leader, ntrick + 1, nled,
                 nb_slot, nb_seat, tpts + p, tmask | bit, guess)
    if had_two:
        two[seat] |= bit
    else:
        one[seat] |= bit
    return v

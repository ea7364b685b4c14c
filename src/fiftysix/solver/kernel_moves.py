"""Move generation of the numba kernel: legal cards, merging of equivalent cards, move ordering."""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from .kernel_base import C_MAXTEAM, C_N, C_TRUMP, MODE_56, _beats, _suit_mask


@njit(cache=True)
def legal_mask(one: np.ndarray, seat: int, ntrick: int, led_slot: int, trump: int, mode: int,
               priv: int) -> int:
    """The distinct cards (slot mask) the seat may play to a trick of ``ntrick`` cards led by ``led_slot``."""
    h = one[seat]
    if ntrick == 0:
        return h
    led = led_slot >> 4
    follow = h & _suit_mask(led)
    if mode == MODE_56:
        if follow != 0:
            return follow
        return h
    # 55
    if trump >= 0 and led == trump:
        if follow == 0:
            return h
        if follow & ~priv:
            return follow
        # only privileged trumps: they must be played if one of them is lower than the led trump
        low = follow & ~((np.int64(1) << (led_slot + 1)) - 1)
        if low != 0:
            return follow
        return h
    if follow != 0:
        if trump >= 0:
            return follow | (h & _suit_mask(trump))
        return follow
    return h


@njit(cache=True)
def representatives(one: np.ndarray, n: int, seat: int, legal: int, tmask: int, pts: np.ndarray,
                    priv: int, rep: np.ndarray) -> int:
    """Merge equivalent legal cards of ``seat``: fills ``rep[slot]`` with each legal card's representative
    and returns the mask of representatives."""
    others = tmask
    for q in range(n):
        if q != seat:
            others |= one[q]
    reps = _reps(others, legal, pts, priv)
    x = legal
    head = -1
    while x != 0:
        c = trailing_zeros(x)
        x &= x - 1
        if (reps >> c) & 1:
            head = c
        rep[c] = head
    return reps


@njit(cache=True, inline="always")
def _reps(others: int, legal: int, pts: np.ndarray, priv: int) -> int:
    """The representatives among ``legal`` (one seat's cards): a card is merged into the one above it
    in its suit when their points are equal, neither is privileged, and ``others`` (every other seat's
    cards and the current trick) has no card from one to the other, both included."""
    reps = np.int64(0)
    x = legal
    prev = -1
    while x != 0:
        c = trailing_zeros(x)
        x &= x - 1
        if prev >= 0 and (prev >> 4) == (c >> 4) and pts[c] == pts[prev] and ((priv >> c) & 1) == 0 \
                and ((priv >> prev) & 1) == 0:
            between = ((np.int64(1) << (c + 1)) - 1) ^ ((np.int64(1) << prev) - 1)
            if (others & between) != 0:
                reps |= np.int64(1) << c
        else:
            reps |= np.int64(1) << c
        prev = c
    return reps


@njit(cache=True)
def _opp_can_beat(one: np.ndarray, team: np.ndarray, maxteam: int, me_max: bool, leader: int, ntrick: int, n: int,
                  led_mask: int, trump: int, w: int) -> bool:
    """Whether an opponent of the seat to move, still to play after it in this trick, holds a legal card
    that beats ``w``."""
    ws = w >> 4
    wabove = _suit_mask(ws) & ((np.int64(1) << w) - 1)
    tmask = _suit_mask(trump) if trump >= 0 else np.int64(0)
    for j in range(ntrick + 1, n):
        q = (leader + j) % n
        if (team[q] == maxteam) == me_max:
            continue
        h = one[q]
        follow = h & led_mask
        lg = follow if follow != 0 else h
        if (lg & wabove) != 0 or (ws != trump and (lg & tmask) != 0):
            return True
    return False


@njit(cache=True)
def _order(one: np.ndarray, others: int, team: np.ndarray, ctx: np.ndarray, pts: np.ndarray, reps: int,
           seat: int, leader: int, ntrick: int, led_slot: int, best_slot: int, best_seat: int, tt_move: int,
           moves: np.ndarray, scores: np.ndarray, ply: int) -> int:
    """Write the representative moves into ``moves`` in search order; returns their number."""
    n = ctx[C_N]
    trump = ctx[C_TRUMP]
    maxteam = ctx[C_MAXTEAM]
    me_max = team[seat] == maxteam
    # the cards of the players still to play in this trick, after this one
    rest = np.int64(0)
    rest_opp = np.int64(0)
    for j in range(ntrick + 1, n):
        q = (leader + j) % n
        rest |= one[q]
        if (team[q] == maxteam) != me_max:
            rest_opp |= one[q]
    trumps_mask = np.int64(0)
    if trump >= 0:
        trumps_mask = _suit_mask(trump)
    friend = False
    best_danger = False
    led_mask = np.int64(0)
    if ntrick > 0:
        friend = (team[best_seat] == maxteam) == me_max
        led_mask = _suit_mask(led_slot >> 4)
        best_danger = _opp_can_beat(one, team, maxteam, me_max, leader, ntrick, n, led_mask, trump, best_slot)
    k = 0
    x = reps
    while x != 0:
        c = trailing_zeros(x)
        x &= x - 1
        p = pts[c]
        s = c >> 4
        above = _suit_mask(s) & ((np.int64(1) << c) - 1)
        if c == tt_move:
            sc = 10000
        elif ntrick == 0:
            top = (rest_opp & above) == 0
            if top and s != trump and trump >= 0:
                # an opponent void in the suit with trumps could ruff it
                for j in range(1, n):
                    q = (leader + j) % n
                    if (team[q] == maxteam) != me_max and (one[q] & _suit_mask(s)) == 0 \
                            and (one[q] & trumps_mask) != 0:
                        top = False
                        break
            sc = 500 + 10 * p + (100 if s == trump else 0) if top else 200 - 10 * p - (c & 15)
        else:
            # can an opponent still to play beat this card (or the card now winning)?
            if _beats(c, best_slot, trump):
                danger = _opp_can_beat(one, team, maxteam, me_max, leader, ntrick, n, led_mask, trump, c)
                if friend:
                    sc = 650 + 10 * p if not danger and best_danger else 100 + p
                elif not danger:
                    sc = 700 + 10 * p
                else:
                    sc = 400 - 10 * p - (c & 15)
            else:
                if friend and not best_danger:
                    sc = 600 + 10 * p
                elif friend:
                    sc = 350 - 10 * p
                else:
                    sc = 300 - 10 * p
        # insertion by score, descending
        i = k
        while i > 0 and scores[ply, i - 1] < sc:
            moves[ply, i] = moves[ply, i - 1]
            scores[ply, i] = scores[ply, i - 1]
            i -= 1
        moves[ply, i] = c
        scores[ply, i] = sc
        k += 1
    return k

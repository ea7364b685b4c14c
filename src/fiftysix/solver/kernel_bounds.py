"""Bounds of the numba kernel: the points left, and points a side is sure to take."""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from .kernel_base import C_BONUS, C_N, _suit_mask


@njit(cache=True)
def _sure_points(one: np.ndarray, two: np.ndarray, n: int, team: np.ndarray, maxteam: int, trump: int,
                 leader: int, pts: np.ndarray) -> tuple[int, int]:
    """Card points each side is sure to take at a trick start, whatever is played (56 only).

    With trumps: the top trumps held by one side only (both copies of a rank, if out, on that side)
    win every trick they are played to, for that side.  At no trumps: the leader can cash the cards
    no other seat can beat, one trick after another.
    """
    sure_max = 0
    sure_min = 0
    if trump >= 0:
        present = np.int64(0)
        for q in range(n):
            present |= one[q]
        x = present & _suit_mask(trump)
        side = -1
        while x != 0:
            c = trailing_zeros(x)
            x &= x - 1
            cmax = 0
            cmin = 0
            for q in range(n):
                if (one[q] >> c) & 1:
                    k = 1 + ((two[q] >> c) & 1)
                    if team[q] == maxteam:
                        cmax += k
                    else:
                        cmin += k
            if cmax > 0 and cmin > 0:
                break
            sd = 0 if cmax > 0 else 1
            if side == -1:
                side = sd
            elif sd != side:
                break
            if sd == 0:
                sure_max += pts[c] * cmax
            else:
                sure_min += pts[c] * cmin
        return sure_max, sure_min
    others = np.int64(0)
    for q in range(n):
        if q != leader:
            others |= one[q]
    h = one[leader]
    cash = 0
    for s in range(4):
        x = h & _suit_mask(s)
        while x != 0:
            c = trailing_zeros(x)
            x &= x - 1
            if (others & _suit_mask(s) & ((np.int64(1) << c) - 1)) != 0:
                break
            cash += pts[c] * (1 + ((two[leader] >> c) & 1))
    if team[leader] == maxteam:
        return cash, 0
    return 0, cash


@njit(cache=True)
def _points_in_hands(one: np.ndarray, two: np.ndarray, n: int, pts: np.ndarray) -> tuple[int, int]:
    rem = 0
    cnt = 0
    for s in range(n):
        x = one[s]
        while x != 0:
            c = trailing_zeros(x)
            x &= x - 1
            k = 1 + ((two[s] >> c) & 1)
            rem += k * pts[c]
            cnt += k
    return rem, cnt


@njit(cache=True)
def upper_bound(one: np.ndarray, two: np.ndarray, ctx: np.ndarray, pts: np.ndarray, ntrick: int,
                tpts: int) -> int:
    """The points still to be scored: cards in hands and in the trick, and the tricks' own points."""
    n = ctx[C_N]
    rem, cnt = _points_in_hands(one, two, n, pts)
    return rem + tpts + ctx[C_BONUS] * ((cnt + ntrick) // n)

"""Transposition-table keys of the numba kernel: hashes of the hands up to relative ranks and the order
of the plain suits."""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from .kernel_base import MAX_SEATS, _suit_mask


@njit(cache=True, inline="always")
def _mix(x: int) -> int:
    x ^= (x >> 31) & 0x1FFFFFFFF
    return x * np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15, wrapping


@njit(cache=True)
def _canon_hash(one: np.ndarray, two: np.ndarray, n: int, pts: np.ndarray, priv: int, trump: int,
                za: np.ndarray, zb: np.ndarray, relmap: np.ndarray, sa: np.ndarray, sb: np.ndarray
                ) -> tuple[int, int]:
    """Two independent hashes of the hands up to relative ranks and the order of the plain suits.

    In each suit the cards still held are renumbered 0, 1, ... from the top, and each renumbered rank
    carries its points (and 55's privilege), so positions that differ only by which cards are gone, and
    play alike, share a key.  The plain suits' parts are added up, so that exchanging two plain suits
    (which changes nothing in the play) gives the same key; the trump suit is kept apart.
    """
    present = np.int64(0)
    for q in range(n):
        present |= one[q]
    for s in range(4):
        x = present & _suit_mask(s)
        r = 0 if s != trump else 16
        a = np.int64(0)
        b = np.int64(0)
        while x != 0:
            c = trailing_zeros(x)
            x &= x - 1
            relmap[c] = r
            code = pts[c] + 4 * ((priv >> c) & 1)
            a ^= za[MAX_SEATS, r, code]
            b ^= zb[MAX_SEATS, r, code]
            r += 1
        sa[s] = a
        sb[s] = b
    for q in range(n):
        x = one[q]
        t = two[q]
        while x != 0:
            c = trailing_zeros(x)
            x &= x - 1
            k = (t >> c) & 1
            s = c >> 4
            sa[s] ^= za[q, relmap[c], k]
            sb[s] ^= zb[q, relmap[c], k]
    ha = np.int64(0)
    hb = np.int64(0)
    for s in range(4):
        ha += _mix(sa[s])
        hb += _mix(sb[s])
    return ha, hb

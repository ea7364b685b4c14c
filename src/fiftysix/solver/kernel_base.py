"""Constants and small helpers shared by the parts of the numba kernel (:mod:`fiftysix.solver.kernel`).

Slots: each (effective) suit owns 16 bits, ``slot = 16 * suit + order`` with order 0 for the suit's highest
card, so "beats in the same suit" is "lower slot".
"""

from __future__ import annotations

import numpy as np
from numba import njit

MAX_SEATS = 10
SLOTS = 64
MAX_PLY = 80
# ctx fields: players, trump suit (-1 none), maximising team, game mode, points a trick is worth, salts
C_N, C_TRUMP, C_MAXTEAM, C_MODE, C_BONUS, C_SALT_A, C_SALT_B = 0, 1, 2, 3, 4, 5, 6
CTX_LEN = 7
# stats fields
S_NODES, S_TT_HITS, S_TT_STORES = 0, 1, 2
MODE_56, MODE_55 = 0, 1


@njit(cache=True, inline="always")
def _suit_mask(s: int) -> int:
    return np.int64(0xFFFF) << (16 * s)


@njit(cache=True, inline="always")
def _beats(c: int, best: int, trump: int) -> bool:
    cs = c >> 4
    bs = best >> 4
    if cs == bs:
        return c < best
    return cs == trump

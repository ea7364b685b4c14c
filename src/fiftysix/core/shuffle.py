"""A faster ``random.Random.shuffle`` with the same result: the same order and the generator left in the same state.

``Random.shuffle`` draws each position with ``_randbelow(i + 1)``, which asks ``getrandbits(k)`` once or more
(``k = (i + 1).bit_length()``, rejecting draws ``>= i + 1``); each ask takes one 32-bit word of the Mersenne
Twister and keeps its top ``k`` bits.  This module asks for the words in batches instead, never more than
the draws still to make need, so the generator ends where ``shuffle`` leaves it.  It checks itself against
``Random.shuffle`` at import and falls back to it if the two ever differ (another Python's ``random``).
"""

from __future__ import annotations

import random
import sys
from typing import Any

_SHIFT = tuple(32 - (i + 1).bit_length() for i in range(1024))
"""``_SHIFT[i]``: keeps the top ``k`` bits of a word, ``k`` the bit length of ``i + 1`` (as ``_randbelow``)."""


def _batched(items: list[Any], rng: random.Random) -> None:
    getrandbits = rng.getrandbits
    i = len(items) - 1
    if i >= len(_SHIFT):
        rng.shuffle(items)
        return
    shift = _SHIFT
    while i > 0:
        need = i                           # at least one word per draw still to make: i, i-1, ..., 1
        for w in memoryview(getrandbits(32 * need).to_bytes(4 * need, "little")).cast("I"):
            j = w >> shift[i]
            if j <= i:                     # else rejected: the same draw takes the next word
                items[i], items[j] = items[j], items[i]
                i -= 1
                if not i:
                    break


def _agrees() -> bool:
    if sys.byteorder != "little":
        return False
    for seed in range(4):
        for size in (0, 1, 2, 20, 48, 52, 64, 300):
            a, b = random.Random(seed), random.Random(seed)
            x, y = list(range(size)), list(range(size))
            a.shuffle(x)
            _batched(y, b)
            if x != y or a.getrandbits(64) != b.getrandbits(64):
                return False
    return True


_FAST = _agrees()


def shuffle(items: list[Any], rng: random.Random) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` does (same order, same state after)."""
    if _FAST and type(rng) is random.Random:
        _batched(items, rng)
    else:
        rng.shuffle(items)

"""Shuffling for dealing: exactly what ``random.Random.shuffle`` does, in fewer steps.

Dealing shuffles a deck once per deal, and the standard library's shuffle calls a method per card.  The same
Fisher–Yates walk with the draw (``_randbelow``: ``getrandbits`` of the bound's bit length, redrawn until
below it) written inline gives the same order from the same generator state.  Seeds must keep dealing the
same hands, so the inline walk is used only for a plain :class:`random.Random` and only if it agrees with
the standard library on this interpreter (checked once, at import); otherwise the generator shuffles itself.
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


_BITS = tuple((i + 1).bit_length() for i in range(1024))
"""``_BITS[i]``: the bits drawn to pick a place among ``i + 1`` (``_randbelow(i + 1)``)."""


def _inline_shuffle(items: list[T], rng: random.Random) -> None:
    getrandbits = rng.getrandbits
    size = len(items)
    if size > len(_BITS):
        rng.shuffle(items)
        return
    if size < 2:
        return      # nothing to draw (the standard library draws nothing either)
    for i, k in zip(range(size - 1, 0, -1), _BITS[size - 1:0:-1], strict=True):
        j = getrandbits(k)
        while j > i:        # draw again until below i + 1, as _randbelow does
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def _agrees() -> bool:
    """Whether the inline walk gives the standard library's order here (a few seeds and lengths)."""
    for seed in range(8):
        for size in (2, 5, 33, 52):
            a, b = list(range(size)), list(range(size))
            random.Random(seed).shuffle(a)
            _inline_shuffle(b, random.Random(seed))
            if a != b:
                return False
    return True


INLINE = _agrees()
"""The inline walk is used (it agrees with ``random.Random.shuffle`` on this interpreter)."""


def shuffle(items: list[T], rng: random.Random) -> None:
    """Shuffle ``items`` in place, exactly as ``rng.shuffle(items)`` would (same order, same draws)."""
    if INLINE and type(rng) is random.Random:
        _inline_shuffle(items, rng)
    else:
        rng.shuffle(items)

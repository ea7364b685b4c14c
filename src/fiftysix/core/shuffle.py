"""Shuffling for dealing: exactly what ``random.Random.shuffle`` does, in fewer steps.

Dealing shuffles a deck once per deal, and the standard library's shuffle calls a method per card.  The same
Fisher–Yates walk with the draw (``_randbelow``: ``getrandbits`` of the bound's bit length, redrawn until
below it) written inline gives the same order from the same generator state.  Seeds must keep dealing the
same hands, so the inline walk is used only for a plain :class:`random.Random` and only if it agrees with
the standard library on this interpreter (checked once, at import); otherwise the generator shuffles itself.

A deal from a seed (:func:`seeded_shuffle`) draws from the generator's C core directly.
"""

from __future__ import annotations

import _random
import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


_BITS = tuple((i + 1).bit_length() for i in range(1024))
"""``_BITS[i]``: the bits drawn to pick a place among ``i + 1`` (``_randbelow(i + 1)``)."""

_WALKS: dict[int, tuple[tuple[int, int], ...]] = {}
"""Per deck size and place the walk stops at (``size * 1024 + stop``), its steps ``(i, bits drawn)`` from the
last place down to ``stop`` (built once each)."""


def _walk(size: int, stop: int) -> tuple[tuple[int, int], ...]:
    walk = _WALKS[size * 1024 + stop] = tuple(zip(range(size - 1, stop - 1, -1), _BITS[size - 1:stop - 1:-1],
                                                  strict=True))
    return walk


def _inline_shuffle(items: list[T], rng: random.Random, stop: int = 1) -> None:
    """The standard library's walk, from the last place down to place ``stop`` (1: the whole walk)."""
    getrandbits = rng.getrandbits
    size = len(items)
    if size > len(_BITS):
        rng.shuffle(items)
        return
    if size < 2:
        return      # nothing to draw (the standard library draws nothing either)
    walk = _WALKS.get(size * 1024 + stop) or _walk(size, stop)
    for i, k in walk:
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


def _seeded(deck: Sequence[T], seed: int, choices: int, loose: int = 0) -> tuple[int, list[T]]:
    """:func:`seeded_shuffle` on the generator's C core (``_random.Random``: the same words from the same
    int seed, without ``random.Random``'s Python ``__init__``/``seed``), the choice drawn inline."""
    rng = _random.Random(seed)
    first = 0
    if choices:     # randrange(choices) is _randbelow(choices): bits of the bound's length until below it
        getrandbits, k = rng.getrandbits, choices.bit_length()
        first = getrandbits(k)
        while first >= choices:
            first = getrandbits(k)
    items = list(deck)
    # the walk's last steps only order the first places among themselves: with nothing drawn after the
    # shuffle, they can be left out when that order does not matter (loose)
    _inline_shuffle(items, rng, max(loose, 1))     # type: ignore[arg-type]  # it only calls getrandbits
    return first, items


def _standard(deck: Sequence[T], seed: int | None, choices: int) -> tuple[int, list[T]]:
    rng = random.Random(seed)
    first = rng.randrange(choices) if choices else 0
    items = list(deck)
    shuffle(items, rng)
    return first, items


def seeded_shuffle(deck: Sequence[T], seed: int | None, choices: int = 0,
                   loose: int = 0) -> tuple[int, list[T]]:
    """What ``rng = random.Random(seed)`` gives for ``rng.randrange(choices)`` (0 when ``choices`` is 0:
    nothing drawn) followed by ``rng.shuffle(list(deck))``: that number and the shuffled list.

    The same results as those calls (checked at import), in fewer steps for an ``int`` seed.  With
    ``loose``, the first ``loose`` places hold the same items but perhaps in another order among themselves
    (for a first hand whose order does not matter: the walk need not draw that order).
    """
    if SEEDED and type(seed) is int:
        return _seeded(deck, seed, choices, loose)
    return _standard(deck, seed, choices)


def _seeded_agrees() -> bool:
    """Whether :func:`_seeded` gives the standard library's results here (a few seeds, lengths, choices)."""
    for seed in (0, 1, 2, 3, 7, -5, 2**40 + 3, 10**30):
        for size, choices in ((2, 0), (5, 3), (32, 4), (48, 6), (52, 5), (64, 8)):
            deck = list(range(size))
            if _seeded(deck, seed, choices) != _standard(deck, seed, choices):
                return False
    return INLINE


SEEDED = _seeded_agrees()
"""Seeded deals are shuffled on the generator's C core (it agrees with the standard library here)."""

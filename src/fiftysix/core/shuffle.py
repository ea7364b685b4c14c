"""Shuffling for dealing: exactly what ``random.Random.shuffle`` does, in fewer steps.

Dealing shuffles a deck once per deal, and the standard library's shuffle calls a method per card.  The same
Fisher–Yates walk with the draw (``_randbelow``: ``getrandbits`` of the bound's bit length, redrawn until
below it) written inline gives the same order from the same generator state.  Seeds must keep dealing the
same hands, so the inline walk is used only for a plain :class:`random.Random` and only if it agrees with
the standard library on this interpreter (checked once, at import); otherwise the generator shuffles itself.

A deal from a seed (:func:`seeded_shuffle`) goes further: its generator is used for nothing else, so it may
draw more words than the walk needs.  It draws them all in one call (``getrandbits`` of many words gives the
words the single draws would give, in order) and the walk takes the bits it needs from each: about 70 method
calls fewer a deal of 48 cards.
"""

from __future__ import annotations

import _random
import random
import sys
from array import array
from collections.abc import Sequence
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


def _block_shuffle(deck: Sequence[T], seed: int, choices: int, n_words: int) -> tuple[int, list[T]]:
    """:func:`seeded_shuffle` from ``n_words`` words drawn at once.

    :raises IndexError: if the walk needs more words than that (rare: each place is accepted with
        probability above one half).
    """
    words = array("I", _random.Random(seed).getrandbits(32 * n_words).to_bytes(4 * n_words, sys.byteorder))
    p = first = 0
    if choices:     # randrange(choices): the top bits of a word, drawn again until below choices
        shift = 32 - choices.bit_length()
        first = words[0] >> shift
        p = 1
        while first >= choices:
            first = words[p] >> shift
            p += 1
    items = list(deck)
    size = len(items)
    for i, k in zip(range(size - 1, 0, -1), _BITS[size - 1:0:-1], strict=True):
        shift = 32 - k
        j = words[p] >> shift
        p += 1
        while j > i:
            j = words[p] >> shift
            p += 1
        items[i], items[j] = items[j], items[i]
    return first, items


def _standard(deck: Sequence[T], seed: int | None, choices: int) -> tuple[int, list[T]]:
    rng = random.Random(seed)
    first = rng.randrange(choices) if choices else 0
    items = list(deck)
    shuffle(items, rng)
    return first, items


def seeded_shuffle(deck: Sequence[T], seed: int | None, choices: int = 0) -> tuple[int, list[T]]:
    """What ``rng = random.Random(seed)`` gives for ``rng.randrange(choices)`` (0 when ``choices`` is 0,
    nothing drawn) followed by ``rng.shuffle(list(deck))``: that number and the shuffled list.

    The same results as those calls, with the words drawn in one block for an ``int`` seed (see above).
    """
    if BLOCK and type(seed) is int and len(deck) <= len(_BITS):
        try:
            return _block_shuffle(deck, seed, choices, 2 * len(deck) + 32)
        except IndexError:      # more redraws than words drawn: start again the standard way
            pass
    return _standard(deck, seed, choices)


def _block_agrees() -> bool:
    """Whether the block draw gives the standard library's results here (a few seeds, lengths, choices)."""
    if array("I").itemsize != 4:
        return False
    for seed in range(8):
        for size, choices in ((2, 0), (5, 3), (32, 4), (48, 6), (52, 5), (64, 8)):
            deck = list(range(size))
            try:
                if _block_shuffle(deck, seed, choices, 2 * size + 32) != _standard(deck, seed, choices):
                    return False
            except IndexError:
                pass
    return True


BLOCK = _block_agrees()
"""Seeded deals draw their words in one block (it agrees with the standard library on this interpreter)."""

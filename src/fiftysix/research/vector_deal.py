"""The vector env's dealing (:mod:`.vector`): each table's next deal from the next seed of its own generator.

Deal ``j`` of table ``i`` is ``game.new_deal(rules, seed=info["deal_seed"][i], dealer=env.dealer)`` (the documented
seeding).  With the compiled arrays (:mod:`.vector_jit_arrays`) a 56 env deals every table whose deal ended at once:
the kernel walks CPython's generator from each seed as ``Deal56.from_seed`` does and gives each seat's card masks,
and ``Deal56.from_masks`` makes the deals; the same seeds give the same deals (the tests compare the two).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.deal import Deal
from ..games.fifty_six import Deal56, deck_bits
from ..games.fifty_six import play as play56
from .vector_base import VectorTables


class Dealing(VectorTables):
    """The next deals of the tables whose deals ended."""

    def _init_dealing(self) -> None:
        """The deck as the compiled dealing reads it: each place's card bit and whether it is the second copy
        (``Deal56``'s own deck of bits, the one its shuffle walks); None where the engine deals."""
        self._deck_places: tuple[Any, Any] | None = None
        if self._jit is not None and self.game.play is play56:
            deck = deck_bits(self.rules.ranks)
            low = (1 << 32) - 1
            self._deck_places = (np.array([b & low or b >> 32 for b in deck], np.int64),
                                 np.array([b > low for b in deck], np.bool_))

    def _fresh_deal(self, i: int) -> Deal:
        seed = self._rngs[i].getrandbits(63)
        self.deal_seeds[i] = self._seed_array[i] = seed
        return self.game.new_deal(self.rules, seed=seed, dealer=self.dealer)

    def _fresh_deals(self, tables: list[int]) -> list[Deal]:
        """The next deal of each of ``tables`` (their seeds drawn and kept as :meth:`_fresh_deal` does)."""
        if self._deck_places is None:
            return [self._fresh_deal(i) for i in tables]
        rngs, seeds = self._rngs, self.deal_seeds
        drawn = [rngs[i].getrandbits(63) for i in tables]
        for i, seed in zip(tables, drawn, strict=True):
            seeds[i] = seed
        self._seed_array[tables] = drawn
        once = np.zeros((len(tables), self.n), np.int64)
        twice = np.zeros_like(once)
        rules: Any = self.rules
        self._jit.deal_masks(np.array(drawn, np.int64), *self._deck_places, self.n, rules.hand_size, once, twice)
        make, dealer = Deal56.from_masks, self.dealer
        return [make(rules, dealer, o, t) for o, t in zip(once.tolist(), twice.tolist(), strict=True)]

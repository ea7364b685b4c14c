"""The vector env's seeds and dealing (:mod:`.vector`): each table's next deal from the next seed of its own
generator.

Deal ``j`` of table ``i`` is ``game.new_deal(rules, seed=info["deal_seed"][i], dealer=env.dealer)`` (the documented
seeding).  With the compiled arrays (:mod:`.vector_jit_arrays`) a 56 env deals every table whose deal ended at once:
the kernel walks CPython's generator from each seed as ``Deal56.from_seed`` does and gives each seat's card masks,
and ``Deal56.from_masks`` makes the deals (or, with the compiled auction, :mod:`.vector_auction`, the masks go
straight into the arrays and the deal is made only when read); a 55 env the same, its one pack walked by the same
kernel, the kitty dealt as one more hand, and ``Deal55.from_masks`` makes the deals; the same seeds give the same
deals (the tests compare the two).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ..core.deal import Deal
from ..games.fifty_five import Deal55
from ..games.fifty_five import deck_bits as deck_bits55
from ..games.fifty_five import play as play55
from ..games.fifty_six import Deal56, deck_bits
from ..games.fifty_six import play as play56
from .vector_base import IntArray, Tables


class Dealing:
    """Each table's generator of deal seeds, its current deal's seed and the deals it has finished, and the next
    deals of any tables.

    :param jit: the compiled dealing (:mod:`.vector_jit_arrays`), or None: the engine deals.
    """

    def __init__(self, tables: Tables, jit: Any) -> None:
        self.tables, self.jit = tables, jit
        N = tables.num_tables
        self.deal_seeds = [-1] * N
        self.episodes = [0] * N
        self.seed_array = np.full(N, -1, np.int64)     # (the two lists as arrays, for the info)
        self.episode_array = np.zeros(N, np.int64)
        self._rngs: list[random.Random] = []
        self.deck_places = self._deck_places()

    def _deck_places(self) -> tuple[IntArray, Any] | None:
        """The deck as the compiled dealing reads it: each place's card bit and whether it is the second copy
        (``Deal56``'s or ``Deal55``'s own deck of bits, the one its shuffle walks); None where the engine deals.
        55's kitty is dealt as one more hand (the kernel deals hands of one size: the kitty's is checked)."""
        t = self.tables
        rules: Any = t.rules
        if self.jit is not None and t.game.play is play56:
            deck = deck_bits(rules.ranks)
            low = (1 << 32) - 1
            return (np.array([b & low or b >> 32 for b in deck], np.int64),
                    np.array([b > low for b in deck], np.bool_))
        if self.jit is not None and t.game.play is play55 and t.kitty == rules.hand_size:
            deck = deck_bits55()    # (one pack: no second copies)
            return np.array(deck, np.int64), np.zeros(len(deck), np.bool_)
        return None

    def reseed(self, base: int) -> None:
        """Table ``i`` draws its deal seeds from ``random.Random(f"{base}:{i}")`` from now; no deal done yet."""
        N = self.tables.num_tables
        self._rngs = [random.Random(f"{base}:{i}") for i in range(N)]
        self.episodes = [0] * N
        self.episode_array[:] = 0

    def count(self, tables: list[int]) -> None:
        """The deals of ``tables`` ended: one more done at each."""
        for i in tables:
            self.episodes[i] += 1
        self.episode_array[tables] += 1

    def fresh_deal(self, i: int) -> Deal:
        """Table ``i``'s next deal by the engine (its seed drawn and kept)."""
        seed = self._rngs[i].getrandbits(63)
        self.deal_seeds[i] = self.seed_array[i] = seed
        t = self.tables
        return t.game.new_deal(t.rules, seed=seed, dealer=t.dealer)

    def fresh_deals(self, tables: list[int]) -> list[Deal]:
        """The next deal of each of ``tables`` (their seeds drawn and kept as :meth:`fresh_deal` does)."""
        if self.deck_places is None:
            return [self.fresh_deal(i) for i in tables]
        once, twice = self._deal_masks(tables)
        t = self.tables
        rules: Any = t.rules
        dealer, n = t.dealer, t.n
        if t.kitty:      # 55: the last "hand" is the kitty
            make55 = Deal55.from_masks
            return [make55(rules, dealer, o[:n], o[n]) for o in once.tolist()]
        make = Deal56.from_masks
        return [make(rules, dealer, o, w) for o, w in zip(once.tolist(), twice.tolist(), strict=True)]

    def draw_seeds(self, tables: list[int]) -> list[int]:
        """The next deal seed of each of ``tables``, drawn from its generator and kept."""
        rngs, seeds = self._rngs, self.deal_seeds
        drawn = [rngs[i].getrandbits(63) for i in tables]
        for i, seed in zip(tables, drawn, strict=True):
            seeds[i] = seed
        self.seed_array[tables] = drawn
        return drawn

    def _deal_masks(self, tables: list[int]) -> tuple[IntArray, IntArray]:
        """The next seeds of ``tables`` drawn and kept, and their deals by the compiled dealing: each seat's card
        masks (the cards held, and those held twice), as ``Deal56.from_masks`` reads them; 55's kitty as one
        more seat's."""
        assert self.deck_places is not None
        drawn = self.draw_seeds(tables)
        t = self.tables
        hands = t.n + (1 if t.kitty else 0)
        once = np.zeros((len(tables), hands), np.int64)
        twice = np.zeros_like(once)
        rules: Any = t.rules
        self.jit.deal_masks(np.array(drawn, np.int64), *self.deck_places, hands, rules.hand_size, once, twice)
        return once, twice

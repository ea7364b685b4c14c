"""The vector env's dealing (:mod:`.vector`): each table's next deal from the next seed of its own generator, and
what a deal's end does (its rewards, the next deal or the deal's final arrays).

Deal ``j`` of table ``i`` is ``game.new_deal(rules, seed=info["deal_seed"][i], dealer=env.dealer)`` (the documented
seeding).  With the compiled arrays (:mod:`.vector_jit_arrays`) a 56 env deals every table whose deal ended at once:
the kernel walks CPython's generator from each seed as ``Deal56.from_seed`` does and gives each seat's card masks,
and ``Deal56.from_masks`` makes the deals (or, with the compiled auction, :mod:`.vector_auction`, the masks go
straight into the arrays and the deal is made only when read); a 55 env the same, its one pack walked by the same
kernel, the kitty dealt as one more hand, and ``Deal55.from_masks`` makes the deals; the same seeds give the same
deals (the tests compare the two).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.deal import OVER, Deal
from ..games.fifty_five import Deal55
from ..games.fifty_five import deck_bits as deck_bits55
from ..games.fifty_five import play as play55
from ..games.fifty_six import Deal56, deck_bits
from ..games.fifty_six import play as play56
from .vector_base import FloatArray, IntArray, VectorTables


class Dealing(VectorTables):
    """The next deals of the tables whose deals ended."""

    def _init_dealing(self) -> None:
        """The deck as the compiled dealing reads it: each place's card bit and whether it is the second copy
        (``Deal56``'s or ``Deal55``'s own deck of bits, the one its shuffle walks); None where the engine deals.
        55's kitty is dealt as one more hand (the kernel deals hands of one size: the kitty's is checked)."""
        self._deck_places = None
        rules: Any = self.rules
        if self._jit is not None and self.game.play is play56:
            deck = deck_bits(self.rules.ranks)
            low = (1 << 32) - 1
            self._deck_places = (np.array([b & low or b >> 32 for b in deck], np.int64),
                                 np.array([b > low for b in deck], np.bool_))
        elif self._jit is not None and self.game.play is play55 and self.kitty == rules.hand_size:
            deck = deck_bits55()    # (one pack: no second copies)
            self._deck_places = (np.array(deck, np.int64), np.zeros(len(deck), np.bool_))

    def _fresh_deal(self, i: int) -> Deal:
        seed = self._rngs[i].getrandbits(63)
        self.deal_seeds[i] = self._seed_array[i] = seed
        return self.game.new_deal(self.rules, seed=seed, dealer=self.dealer)

    def _fresh_deals(self, tables: list[int]) -> list[Deal]:
        """The next deal of each of ``tables`` (their seeds drawn and kept as :meth:`_fresh_deal` does)."""
        if self._deck_places is None:
            return [self._fresh_deal(i) for i in tables]
        once, twice = self._deal_masks(tables)
        rules: Any = self.rules
        dealer, n = self.dealer, self.n
        if self.kitty:      # 55: the last "hand" is the kitty
            make55 = Deal55.from_masks
            return [make55(rules, dealer, o[:n], o[n]) for o in once.tolist()]
        make = Deal56.from_masks
        return [make(rules, dealer, o, t) for o, t in zip(once.tolist(), twice.tolist(), strict=True)]

    def _draw_seeds(self, tables: list[int]) -> list[int]:
        """The next deal seed of each of ``tables``, drawn from its generator and kept."""
        rngs, seeds = self._rngs, self.deal_seeds
        drawn = [rngs[i].getrandbits(63) for i in tables]
        for i, seed in zip(tables, drawn, strict=True):
            seeds[i] = seed
        self._seed_array[tables] = drawn
        return drawn

    def _deal_masks(self, tables: list[int]) -> tuple[IntArray, IntArray]:
        """The next seeds of ``tables`` drawn and kept, and their deals by the compiled dealing: each seat's card
        masks (the cards held, and those held twice), as ``Deal56.from_masks`` reads them; 55's kitty as one
        more seat's."""
        assert self._deck_places is not None
        drawn = self._draw_seeds(tables)
        hands = self.n + (1 if self.kitty else 0)
        once = np.zeros((len(tables), hands), np.int64)
        twice = np.zeros_like(once)
        rules: Any = self.rules
        self._jit.deal_masks(np.array(drawn, np.int64), *self._deck_places, hands, rules.hand_size, once, twice)
        return once, twice

    def _deals_ended(self, over: list[int], rewards: FloatArray, to_move: IntArray,
                     scored: frozenset[int] = frozenset()) -> None:
        """The rewards of tables whose deal just ended (but those ``scored`` already: the compiled play's), and
        their next deals (``SAME_STEP``) or their final arrays."""
        deals, team_of = self._deal_list, self._team_of
        over_code = self._phase_code[OVER]
        for i in over:
            if i not in scored:
                score: Any = deals[i].score()   # type: ignore[attr-defined]
                if score:
                    rewards[i] = [score[t] for t in team_of]
            self.episodes[i] += 1
            if i in scored:     # the kernel's deal: its arrays are the end's but for these (no engine catch-up)
                self._phase[i], self._leader[i] = over_code, -1
            elif not self._same_step:
                self._sync_public(i)
        self._episode_array[over] += 1
        if self._same_step:
            self._deal_next(over, to_move)
        else:
            self._live[over] = False     # (no card of theirs for the kernel until their next deal)

    def _deal_next(self, tables: list[int], to_move: IntArray) -> None:
        """The next deals of ``tables`` (their seats to move written in ``to_move``)."""
        if self._call_kernel is not None:
            self._deal_compiled(tables)
            to_move[tables] = self._first_hand
            return
        deals = self._deal_list
        for i, deal in zip(tables, self._fresh_deals(tables), strict=True):
            deals[i] = deal
            to_move[i] = deal.to_move   # type: ignore[assignment]
        self._start(tables)

    def _deal_ended_by_bot(self, i: int) -> None:
        """A seated bot's move ended table ``i``'s deal (its rewards are written): the next deal, or the arrays
        of the deal's end (the bots' moves were pushed on the deal, not stepped through the arrays)."""
        self.episodes[i] += 1
        self._episode_array[i] += 1
        if self._same_step:
            self.deals[i] = self._fresh_deal(i)
            self._start([i])
            to_move = self.deals[i].to_move
            self._to_move[i] = -1 if to_move is None else to_move
        else:
            self._sync(i)

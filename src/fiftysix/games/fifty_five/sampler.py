"""Deals of 55 consistent with one seat's observation (:class:`~fiftysix.games.sampling.DealSampler`).

Besides the hands, the unseen cards go to the kitty (until the bidder takes it), a closed discard and the
cards dealt to nobody.  Voids shown in play (hard): a seat that neither followed nor trumped a plain lead
holds no plain card of that suit, and a seat that played no trump to a trump lead holds no trump but
privileged ones above the card led.
"""

from __future__ import annotations

import random

from ...core.cards import CARDS, SUITS, Card, Suit
from ...core.deal import OVER, PLAY, TRUMP, Deal
from ...core.moves import Discard, Move
from ..sampling import Claim, DealSampler, Holder
from .deal import Deal55
from .observation import Observation55
from .play import EFFECTIVE_SUIT, IS_TRUMP, KEY, PRIVILEGED
from .rules import KITTY_SIZE, Rules55


class Sampler55(DealSampler):
    """Reads a 55 observation once; :meth:`sample` then draws consistent deals cheaply."""

    def __init__(self, obs: Observation55, *, use_bids: bool = True, infer: bool = True, tries: int = 300) -> None:
        super().__init__(obs, tries)
        self.obs55 = obs
        self.rules55: Rules55 = obs.rules55
        self._setup()
        self._fit_claims()

    def _setup(self) -> None:
        obs, rules = self.obs55, self.rules55
        self._texts = list(obs.auction)
        self.bidder = obs.bidder
        taken = obs.bidder is not None and not obs.kitty_size
        discarded = taken and self.phase in (TRUMP, PLAY, OVER)
        self._discard_known: list[Card] | None = list(obs.discard) if obs.discard else None
        self._discard_slot: int | None = None
        if discarded:
            if self._discard_known is not None:
                self._texts.append(" ".join(str(c) for c in self._discard_known))
            else:
                self._discard_slot = len(self._texts)
                self._texts.append(None)
        if self.phase in (PLAY, OVER) and obs.trump_text is not None:
            self._texts.append(obs.trump_text)
        self._play_start = len(self._texts)
        self._texts += [str(c) for _, c in self.plays]
        if obs.trump is not None:
            self.claims += self._voids(obs.trump)
        known = list(self._discard_known or [])
        self.pool = self._pool(list(CARDS), known)
        self.holders = [Holder(f"seat {s}", obs.hand_sizes[s], s) for s in range(self.n) if s != self.seat]
        if not taken:
            self.holders.append(Holder("kitty", KITTY_SIZE))
        if discarded and self._discard_known is None:
            self.holders.append(Holder("discard", KITTY_SIZE))
        undealt = 52 - self.n * rules.hand_size - KITTY_SIZE
        if undealt:
            self.holders.append(Holder("undealt", undealt))
        self._taken = taken

    def _voids(self, trump: Suit) -> list[Claim]:
        is_trump, eff, key, priv = IS_TRUMP[trump], EFFECTIVE_SUIT[trump], KEY[trump], PRIVILEGED[trump]
        out = []
        for leader, cards in self._tricks_cards():
            led = cards[0]
            for j, c in enumerate(cards[1:], start=1):
                s = (leader + j) % self.n
                if is_trump[led] and not is_trump[c]:
                    keep = {p for p in priv if key[p] > key[led]}
                    out.append(Claim(s, f"seat {s} played no trump to the trump lead {led}", True, False,
                                     hi=tuple((x, 0) for x in CARDS if is_trump[x] and x not in keep)))
                elif not is_trump[led] and not is_trump[c] and eff[c] != eff[led]:
                    out.append(Claim(s, f"seat {s} neither followed {SUITS[eff[led]].word} nor trumped", True,
                                     False, hi=tuple((x, 0) for x in CARDS
                                                     if eff[x] == eff[led] and not is_trump[x])))
        return out

    def _build(self, parts: list[list[Card]], rng: random.Random) -> Deal | None:
        dealt, extra = self._dealt(parts)
        slot_move: Move | None = None
        discard = extra.get("discard") or self._discard_known or []
        if self._taken:
            assert self.bidder is not None
            both = dealt[self.bidder] + list(discard)
            rng.shuffle(both)
            dealt[self.bidder], kitty = both[:5], both[5:]
        else:
            kitty = extra["kitty"]
        deal = Deal55(self.rules55, self.obs.dealer, dealt, kitty)
        if self._discard_slot is not None:
            slot_move = Discard(tuple(deal.sort_hand(discard)))
        return self._replay(deal, slot_move)

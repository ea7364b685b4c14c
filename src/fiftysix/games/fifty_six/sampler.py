"""Deals of 56 consistent with one seat's observation (:class:`~fiftysix.games.sampling.DealSampler`).

- voids shown in play (hard): a seat that did not follow suit holds none of the suit led, and a seat that
  asked for a hidden trump and then played no trump holds none;
- what the bid forms claim (soft, :mod:`.forms`); with ``infer`` (the default) a suit bid also suggests
  length (two cards of the suit with ``28H``, three with ``H28``), tried after every form's own claim;
- a hidden trump the seat does not know is drawn at random (the bid's strain one time in two); where a
  hidden trump that is now known was asked for (the view does not say) is found from the tricks' winners.
"""

from __future__ import annotations

import random
from collections import Counter

from ...core.cards import SUITS, Card, Suit
from ...core.deal import OVER, PLAY, Deal
from ...core.moves import Move
from ..sampling import Claim, DealSampler, Holder, SamplingError
from .auction import Auction56
from .calls import parse_call
from .deal import TRUMP_CHOICES, Deal56, deck
from .forms import FORMS, claim
from .observation import Observation56
from .play import SUIT, trick_points, trick_winner
from .rules import Rules56


class Sampler56(DealSampler):
    """Reads a 56 observation once; :meth:`sample` then draws consistent deals cheaply."""

    def __init__(self, obs: Observation56, *, use_bids: bool = True, infer: bool = True, tries: int = 300) -> None:
        if obs.phase == OVER and any(obs.hand_sizes):
            raise SamplingError("the deal was claimed: its play is incomplete; nothing to sample")
        super().__init__(obs, tries)
        self.obs56 = obs
        self.rules56: Rules56 = obs.rules56
        candidates = self._setup()
        first = obs.first_hand
        bids = bid_claims(self.rules56, first, obs.auction) if use_bids else []
        if use_bids and infer:
            bids += length_claims(self.rules56, first, obs.auction)
        problem = SamplingError("no deal agrees with what this seat has seen")
        # Where a hidden trump was turned up: the first place that works.  A place is tried by drawing deals,
        # a few first; a right place can be hard to draw (one deal in 25 after many voids), so when no place
        # gives a deal in a few draws, every place gets the sampler's whole budget before none is said to work.
        for budget in (30, tries) if len(candidates) > 1 else (0,):
            for at in candidates:
                self._reveal_at = at
                self.claims = self._voids() + bids
                self.dropped = []
                self.holders = [Holder(f"seat {s}", obs.hand_sizes[s], s) for s in range(self.n)
                                if s != self.seat]
                try:
                    self._fit_claims()
                    if budget:
                        self._sample(random.Random(0), budget)
                    return
                except SamplingError as e:
                    problem = e
                    self._moves = None
        raise problem

    def _setup(self) -> list[int | None]:
        """Read the moves and the unseen cards; returns where a hidden trump may have been turned up."""
        obs, rules = self.obs56, self.rules56
        self._texts = list(obs.auction)
        self._trump_slot: int | None = None
        self._hidden_strain: Move | None = None
        if rules.trump != "bid" and self.phase in (PLAY, OVER):
            if obs.trump_text is not None:
                self._texts.append(obs.trump_text)
            else:
                self._trump_slot = len(self._texts)
                self._texts.append(None)
                strain = obs.strain or "NT"
                self._hidden_strain = TRUMP_CHOICES[4 if strain == "NT" else "SHDC".index(strain)]
        self._play_start = len(self._texts)
        self._texts += [str(c) for _, c in self.plays]
        self.pool = self._pool(deck(rules))
        self._trump: Suit | None = obs.trump
        if rules.trump == "hidden" and self.phase in (PLAY, OVER) and obs.trump_text is not None \
                and not obs.trump_hidden:
            return self._reveal_candidates(self._trump)
        return [None]

    def _reveal_candidates(self, trump: Suit | None) -> list[int | None]:
        """Where in the play the hidden trump may have been asked for (the view does not say): before an
        off-suit card from whose trick on the trick winners agree with the view (trumps count from that
        trick on), asks followed by a trump first; ``len(plays)`` when the seat now to move may just have
        asked (first when the observer is offered trumps only)."""
        tricks = self.obs.tricks
        seq = self._tricks_cards()

        def winner(leader: int, cards: list[Card], active: Suit | None) -> tuple[int, int]:
            return (leader + trick_winner(cards, active)) % self.n, trick_points(cards)

        candidates: list[tuple[int, int, bool]] = []   # (trick index, play index, asker played a trump)
        index = 0
        for ti, (_leader, cards) in enumerate(seq):
            led = SUIT[cards[0]]
            for j, c in enumerate(cards):
                if j > 0 and SUIT[c] != led:
                    candidates.append((ti, index + j, SUIT[c] == trump))
            index += len(cards)
        good = []
        for ti, at, is_trump in candidates:
            if all((tricks[k].winner, tricks[k].points) == winner(*seq[k], trump if k >= ti else None)
                   for k in range(len(tricks))):
                good.append((not is_trump, at))
        out: list[int | None] = [at for _, at in sorted(good)]
        # the seat to move may just have asked (the trick in progress has cards, nobody after it played)
        in_trick = self.obs.trick is not None and bool(self.obs.trick.cards)
        if in_trick and all((tricks[k].winner, tricks[k].points) == winner(*seq[k], None)
                            for k in range(len(tricks))):
            if self._asked_now(trump):
                out.insert(0, len(self.plays))
            else:
                out.append(len(self.plays))
        if not out:
            raise SamplingError("no place in the play where the hidden trump could have been turned up")
        return out

    def _asked_now(self, trump: Suit | None) -> bool:
        """The observer is to move, cannot follow, and is offered trumps only: it has just asked."""
        obs = self.obs
        trick = obs.trick
        if obs.to_move != self.seat or trick is None or not trick.cards or trump is None:
            return False
        led = SUIT[trick.cards[0]]
        if any(SUIT[c] == led for c in self.own):
            return False
        legal = [Card.parse(t) for t in obs.legal or () if t not in ("?", "CLAIM")]
        return len(set(legal)) < len(set(self.own)) and all(SUIT[c] == trump for c in legal)

    def _voids(self) -> list[Claim]:
        trump = self._trump
        out = []
        index = 0
        for leader, cards in self._tricks_cards():
            led = SUIT[cards[0]]
            for j, c in enumerate(cards[1:], start=1):
                s = (leader + j) % self.n
                if SUIT[c] != led:
                    out.append(Claim(s, f"seat {s} did not follow {SUITS[led].word}", True, False,
                                     suit_hi=((led, 0),)))
                    if self._reveal_at == index + j and trump is not None and SUIT[c] != trump:
                        out.append(Claim(s, f"seat {s} asked for trumps and played no trump", True, False,
                                         suit_hi=((int(trump), 0),)))
            index += len(cards)
        trick = self.obs.trick
        if self._reveal_at == len(self.plays) and trick is not None and trick.cards and self.obs.to_move is not None:
            s, led = self.obs.to_move, SUIT[trick.cards[0]]
            out.append(Claim(s, f"seat {s} asked for trumps: it cannot follow {SUITS[led].word}", True, False,
                             suit_hi=((led, 0),)))
        return out

    def _build(self, parts: list[list[Card]], rng: random.Random) -> Deal | None:
        dealt, _ = self._dealt(parts)
        deal = Deal56(self.rules56, self.obs.dealer, dealt)
        slot_move: Move | None = None
        if self._trump_slot is not None:
            slot_move = self._hidden_strain if rng.random() < 0.5 else rng.choice(TRUMP_CHOICES)
        return self._replay(deal, slot_move)


_CLAIMS: dict[tuple[Rules56, int, tuple[str, ...]], tuple[Claim, ...]] = {}


def bid_claims(rules: Rules56, first_hand: int, calls: list[str] | tuple[str, ...]) -> list[Claim]:
    """The soft claims of a 56 auction's bid forms (:data:`~.forms.FORMS`), in auction order.

    Read once per auction (a bot reads the same auction at each of its decisions in a deal).

    :raises NotationError: for a call that is not one of the bidding system.
    """
    key = (rules, first_hand, tuple(calls))
    found = _CLAIMS.get(key)
    if found is None:
        if len(_CLAIMS) >= 4096:
            _CLAIMS.clear()
        found = _CLAIMS[key] = tuple(_bid_claims(rules, first_hand, key[2]))
    return list(found)


def _bid_claims(rules: Rules56, first_hand: int, calls: tuple[str, ...]) -> list[Claim]:
    auction = Auction56(rules, first_hand)
    claimed: list[Counter[Card]] = [Counter() for _ in range(rules.players)]
    out: list[Claim] = []
    for text in calls:
        call = parse_call(text, rules.bidding)[0]
        seat = auction.to_move
        if call.is_bid:
            found = claim(call, seat, auction, claimed[seat])
            if found is not None:
                out.append(found)
                for c, k in found.lo:
                    claimed[seat][c] = max(claimed[seat][c], k)
        auction.push_unchecked(call)
    return out


def length_claims(rules: Rules56, first_hand: int, calls: list[str] | tuple[str, ...]) -> list[Claim]:
    """What suit bids suggest beyond their form (:attr:`~.forms.Form.likely`; softer than the forms' own
    claims, so tried after all of them): ``28H`` two hearts, ``H28`` three.

    :raises NotationError: for a call that is not one of the bidding system.
    """
    out: list[Claim] = []
    seat = first_hand
    for text in calls:
        call = parse_call(text, rules.bidding)[0]
        form = FORMS.get(call.form)
        if call.is_bid and form is not None and form.likely is not None and call.suit is not None:
            k = form.likely
            out.append(Claim(seat, f"seat {seat} bid {call.text}: likely {k}+ {call.suit.word}", False, True,
                             suit_lo=((int(call.suit), k),)))
        seat = (seat + 1) % rules.players
    return out

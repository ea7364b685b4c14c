"""Whole deals consistent with one seat's observation, for search bots (OpenSpiel's ``ResampleFromInfostate``).

An observation (:class:`~fiftysix.games.spec.Observation`) hides the other hands (and 55's kitty, undealt
cards and a closed discard).  A game's sampler (a subclass of :class:`DealSampler` in the game's package)
reads what the seat has seen into *claims* about who holds what, and :meth:`DealSampler.sample` fills the
unseen cards in at random within them:

- its own hand, every card played, every seat's hand size;
- voids shown in play (hard claims; each game says which);
- what the calls showed (soft claims; bots may bid against their own convention).  A soft claim that cannot
  hold together with the facts and the claims before it is dropped (:attr:`DealSampler.dropped`).

Every sampled deal is a real :class:`~fiftysix.core.deal.Deal` of the game, replayed move by move to exactly
the view's position (same history), so search code can call ``legal_moves``, ``push_unchecked`` and ``copy``
on it; ``view(deal, seat)`` equals the view given.  Seeded only by the ``rng`` passed in.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass, field

from ..core.cards import Card
from ..core.deal import Deal
from ..core.errors import FiftySixError
from ..core.moves import REVEAL, Move
from .spec import Observation, SamplingError

__all__ = ["Claim", "DealSampler", "Holder", "SamplingError"]

_NO_LIMIT = 1 << 30


@dataclass(frozen=True)
class Claim:
    """A fact about what one seat holds.

    :ivar dealt: ``True`` when it is about the hand as dealt (bid forms), ``False`` when about the cards
        still held (voids shown in play).
    :ivar lo: at least this many copies of each card.  :ivar hi: at most this many.
    :ivar suit_lo: at least this many cards of each suit.  :ivar suit_hi: at most this many.
    """

    seat: int
    why: str
    hard: bool
    dealt: bool
    lo: tuple[tuple[Card, int], ...] = ()
    hi: tuple[tuple[Card, int], ...] = ()
    suit_lo: tuple[tuple[int, int], ...] = ()
    suit_hi: tuple[tuple[int, int], ...] = ()


@dataclass
class Holder:
    """Where unseen cards go: a seat's hand, or 55's kitty, undealt cards or closed discard."""

    name: str
    size: int
    seat: int | None = None
    lo: dict[Card, int] = field(default_factory=dict)
    hi: dict[Card, int] = field(default_factory=dict)
    suit_lo: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    suit_hi: list[int] = field(default_factory=lambda: [_NO_LIMIT] * 4)

    def copy(self) -> Holder:
        return Holder(self.name, self.size, self.seat, dict(self.lo), dict(self.hi), list(self.suit_lo),
                       list(self.suit_hi))


class DealSampler(ABC):
    """Reads an observation once; :meth:`sample` then draws consistent deals cheaply.

    A game's subclass sets :attr:`pool` (the unseen cards), :attr:`holders` (where they go), :attr:`claims`,
    :attr:`_texts` (the moves to replay, ``None`` for a move the seat did not see) and :attr:`_play_start`,
    then calls :meth:`_fit_claims`; it builds a deal from the shared-out cards in :meth:`_build`.

    :ivar claims: every claim read from the view (play facts first, then calls in auction order).
    :ivar dropped: the soft claims left out because they could not hold with the others.
    """

    def __init__(self, obs: Observation, tries: int = 300) -> None:
        self.obs = obs
        self.rules = obs.rules
        self.n: int = obs.n
        self.seat: int | None = obs.seat
        self.tries = tries
        self.phase: str = obs.phase
        self.plays: list[tuple[int, Card]] = obs.plays()
        self.played_by: list[Counter[Card]] = [Counter() for _ in range(self.n)]
        for s, c in self.plays:
            self.played_by[s][c] += 1
        self.own: list[Card] = list(obs.hand)
        self.claims: list[Claim] = []
        self.dropped: list[Claim] = []
        self.pool: list[Card] = []
        self.holders: list[Holder] = []
        self._moves: list[Move | None] | None = None
        self._texts: list[str | None] = []
        self._play_start = 0
        self._reveal_at: int | None = None   # index into the play list where "?" goes (56's hidden trump)

    def _tricks_cards(self) -> list[tuple[int, list[Card]]]:
        """(leader, cards) of every trick with cards, the current one last."""
        return [(t.leader, list(t.cards)) for t in self.obs.all_tricks()]

    # -- the unseen cards ------------------------------------------------------------------------------
    def _pool(self, deck: list[Card], known: list[Card] | None = None) -> list[Card]:
        left = Counter(deck)
        for c in [*self.own, *(c for _, c in self.plays), *(known or [])]:
            left[c] -= 1
            if left[c] < 0:
                raise SamplingError(f"{c} is seen more often than the deck holds it")
        return sorted(left.elements())

    def _fit_claims(self) -> None:
        """Apply hard claims; then each soft claim that still leaves some deal possible."""
        want = sum(h.size for h in self.holders)
        if want != len(self.pool):
            raise SamplingError(f"{len(self.pool)} unseen cards for {want} places")
        by_seat = {h.seat: i for i, h in enumerate(self.holders) if h.seat is not None}
        rng = random.Random(0)
        for claim in self.claims:
            if claim.seat == self.seat or claim.seat not in by_seat:
                continue   # the observer's own hand is known
            i = by_seat[claim.seat]
            trial = self.holders[i].copy()
            ok = self._apply(trial, claim)
            if ok:
                old = self.holders[i]
                self.holders[i] = trial
                if not claim.hard:
                    ok = any(deal_unseen(self.pool, self.holders, rng) is not None for _ in range(40))
                    if not ok:
                        self.holders[i] = old
            if not ok:
                if claim.hard:
                    raise SamplingError(f"the view contradicts itself: {claim.why}")
                self.dropped.append(claim)
        if not any(deal_unseen(self.pool, self.holders, rng) is not None for _ in range(200)):
            raise SamplingError("no deal agrees with what this seat has seen")

    def _apply(self, h: Holder, claim: Claim) -> bool:
        """Merge a claim into a holder's bounds (in terms of cards held now); ``False`` if impossible."""
        played = self.played_by[claim.seat] if claim.dealt else Counter()
        for c, k in claim.lo:
            need = k - played[c]
            if need > 0:
                h.lo[c] = max(h.lo.get(c, 0), need)
        for c, k in claim.hi:
            cap = k - played[c]
            if cap < 0:
                return False
            h.hi[c] = min(h.hi.get(c, _NO_LIMIT), cap)
        played_suit = [0, 0, 0, 0]
        for c, k in played.items():
            played_suit[c // 13] += k
        for s, k in claim.suit_lo:
            h.suit_lo[s] = max(h.suit_lo[s], k - played_suit[s])
        for s, k in claim.suit_hi:
            cap = k - played_suit[s]
            if cap < 0:
                return False
            h.suit_hi[s] = min(h.suit_hi[s], cap)
        if any(h.lo.get(c, 0) > h.hi.get(c, _NO_LIMIT) for c in h.lo) or \
                any(h.suit_lo[s] > h.suit_hi[s] for s in range(4)):
            return False
        suit_need = [0, 0, 0, 0]
        for c, k in h.lo.items():
            suit_need[c // 13] += k
        return all(suit_need[s] <= h.suit_hi[s] for s in range(4)) and \
            sum(max(suit_need[s], h.suit_lo[s]) for s in range(4)) <= h.size

    # -- drawing a deal --------------------------------------------------------------------------------
    def sample(self, rng: random.Random) -> Deal:
        """One deal consistent with the view, at the view's position.

        :raises SamplingError: if no consistent deal was found in ``tries`` attempts.
        """
        return self._sample(rng, self.tries)

    def _sample(self, rng: random.Random, tries: int) -> Deal:
        for _ in range(tries):
            parts = deal_unseen(self.pool, self.holders, rng)
            if parts is None:
                continue
            deal = self._build(parts, rng)
            if deal is not None:
                return deal
        raise SamplingError(f"no deal agreeing with the view found in {tries} tries")

    @abstractmethod
    def _build(self, parts: list[list[Card]], rng: random.Random) -> Deal | None:
        """The deal with the unseen cards shared out as ``parts`` (one list per holder), replayed to the
        view's position by :meth:`_replay`; ``None`` if it does not agree with the view."""

    def _dealt(self, parts: list[list[Card]]) -> tuple[list[list[Card]], dict[str, list[Card]]]:
        """Each seat's hand as dealt, and the cards of the holders that are no seat (by name)."""
        now: list[list[Card]] = [[] for _ in range(self.n)]
        if self.seat is not None:
            now[self.seat] = list(self.own)
        extra: dict[str, list[Card]] = {}
        for h, cards in zip(self.holders, parts, strict=True):
            if h.seat is not None:
                now[h.seat] = cards
            else:
                extra[h.name] = cards
        return [now[s] + list(self.played_by[s].elements()) for s in range(self.n)], extra

    def _replay(self, deal: Deal, slot_move: Move | None) -> Deal | None:
        moves = self._moves
        if moves is None:
            return self._first_replay(deal, slot_move)
        reveal = self._play_start + self._reveal_at if self._reveal_at is not None else -1
        for i, m in enumerate(moves):
            if i == reveal:
                if not deal.is_legal(REVEAL):
                    return None
                deal.push_unchecked(REVEAL)
            if m is None:
                m = slot_move
                assert m is not None
            if not deal.is_legal(m):
                return None
            deal.push_unchecked(m)
        if reveal == len(moves):
            if not deal.is_legal(REVEAL):
                return None
            deal.push_unchecked(REVEAL)
        return deal if self._same_tricks(deal) else None

    def _first_replay(self, deal: Deal, slot_move: Move | None) -> Deal | None:
        """Replay by notation (checked), remembering the parsed moves for later samples."""
        parsed: list[Move | None] = []
        reveal = self._play_start + self._reveal_at if self._reveal_at is not None else -1
        try:
            for i, text in enumerate(self._texts):
                if i == reveal:
                    deal.push(REVEAL)
                if text is None:
                    assert slot_move is not None
                    deal.push(slot_move)
                    parsed.append(None)
                else:
                    parsed.append(deal.push(text))
            if reveal == len(self._texts):
                deal.push(REVEAL)
        except FiftySixError:
            return None
        if not self._same_tricks(deal):
            return None
        self._moves = parsed
        return deal

    def _same_tricks(self, deal: Deal) -> bool:
        """The replayed deal shows the view's tricks (and the observer's legal moves)."""
        tricks = self.obs.tricks
        if len(deal.tricks) != len(tricks) or not all(
                t.winner == u.winner and t.points == u.points for t, u in zip(deal.tricks, tricks, strict=True)):
            return False
        legal = self.obs.legal
        return legal is None or [str(m) for m in deal.legal_moves()] == list(legal)


def deal_unseen(pool: list[Card], holders: list[Holder], rng: random.Random) -> list[list[Card]] | None:
    """Share the unseen cards among the holders within their bounds, at random; ``None`` on a dead end.

    Cards a holder must hold go first, then cards of suits it must have enough of, then the rest, most
    constrained card first, each to a holder drawn in proportion to the room it has left (which, without
    constraints, is a uniformly random deal).
    """
    share = _Share(pool, len(holders))
    if _place_sure_cards(share, holders) and _fill_short_suits(share, holders, rng) \
            and _share_the_rest(share, holders, rng):
        return share.hands
    return None


class _Share:
    """The unseen cards as they are shared out: those left, and each holder's hand, card counts and suit counts."""

    def __init__(self, pool: list[Card], holders: int) -> None:
        self.left = Counter(pool)
        self.hands: list[list[Card]] = [[] for _ in range(holders)]
        self.count: list[Counter[Card]] = [Counter() for _ in range(holders)]
        self.suits = [[0, 0, 0, 0] for _ in range(holders)]

    def place(self, i: int, c: Card) -> None:
        self.hands[i].append(c)
        self.count[i][c] += 1
        self.suits[i][c // 13] += 1
        self.left[c] -= 1

    def fits(self, h: Holder, i: int, c: Card) -> bool:
        """Holder ``i`` (bounds ``h``) has room for ``c``: in its hand, its copies of ``c`` and ``c``'s suit."""
        return (len(self.hands[i]) < h.size and self.count[i][c] < h.hi.get(c, _NO_LIMIT)
                and self.suits[i][c // 13] < h.suit_hi[c // 13])


def _place_sure_cards(share: _Share, holders: list[Holder]) -> bool:
    """Give each holder the cards it must hold; ``False`` when they are not left or overfill its hand."""
    for i, h in enumerate(holders):
        for c, k in h.lo.items():
            if share.left[c] < k:
                return False
            for _ in range(k):
                share.place(i, c)
        if len(share.hands[i]) > h.size:
            return False
    return True


def _fill_short_suits(share: _Share, holders: list[Holder], rng: random.Random) -> bool:
    """Bring each holder up to the cards it must have of each suit, drawn at random from those left."""
    for i, h in enumerate(holders):
        for s in range(4):
            need = h.suit_lo[s] - share.suits[i][s]
            if need > 0 and not _fill_suit(share, i, h, s, need, rng):
                return False
    return True


def _fill_suit(share: _Share, i: int, h: Holder, s: int, need: int, rng: random.Random) -> bool:
    options = [c for c in share.left.elements() if c // 13 == s]
    rng.shuffle(options)
    for c in options:
        if need == 0:
            break
        if share.count[i][c] < h.hi.get(c, _NO_LIMIT):
            share.place(i, c)
            need -= 1
    return not need and len(share.hands[i]) <= h.size


def _share_the_rest(share: _Share, holders: list[Holder], rng: random.Random) -> bool:
    """Deal the cards left, the most constrained first, each to a holder drawn in proportion to its room."""
    rest = list(share.left.elements())
    rng.shuffle(rest)
    seats = range(len(holders))
    constrained = any(h.hi or any(x < _NO_LIMIT for x in h.suit_hi) for h in holders)
    if constrained:
        rest.sort(key=lambda c: sum(1 for i in seats if share.fits(holders[i], i, c)))
    for c in rest:
        room = [(i, holders[i].size - len(share.hands[i])) for i in seats if share.fits(holders[i], i, c)]
        if not room:
            return False
        r = rng.randrange(sum(w for _, w in room))
        for i, w in room:
            r -= w
            if r < 0:
                share.place(i, c)
                break
    return True



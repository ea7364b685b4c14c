"""Full deals consistent with one seat's view, for search bots (ISMCTS, PIMC).

A view hides the other hands (and 55's kitty, undealt cards and a closed discard).  :func:`sample_deals`
fills them in at random, consistent with everything the seat has seen:

- its own hand, every card played, every seat's hand size;
- voids shown in play (hard): in 56 a seat that did not follow suit holds none of the suit led, and a
  seat that asked for a hidden trump and then played no trump holds none; in 55 a seat that neither
  followed nor trumped a plain lead holds no plain card of that suit, and a seat that played no trump to
  a trump lead holds no trump but privileged ones above the card led;
- what 56 bid forms claim (soft; bots may bid against their own convention): ``28H`` holds the J of
  hearts, ``H28`` does not, ``+kH`` holds exactly the k top hearts and no other heart, ``NOES`` is void
  in the suit named; the announcement forms of ``bidding: announcements`` likewise.  With ``infer`` (the
  default) a suit bid also suggests length (two cards of the suit with ``28H``, three with ``H28``),
  tried after every form's own claim.  A claim that cannot hold together with the facts and the claims
  before it is dropped (:attr:`DealSampler.dropped`);
- a hidden 56 trump the seat does not know is drawn at random (the bid's strain one time in two).

Every sampled deal is a real :class:`~fiftysix.core.deal.Deal` of the view's game, replayed move by move
to exactly the view's position (same history), so search code can call ``legal_moves``,
``push_unchecked`` and ``copy`` on it; ``view(deal, seat)`` equals the view given.  Pure Python, seeded
only by the ``rng`` passed in.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..core.cards import SUITS, Card, card
from ..core.deal import OVER, PLAY, TRUMP, Deal
from ..core.moves import REVEAL, Discard, Move
from ..games import GAMES

__all__ = ["Claim", "DealSampler", "SamplingError", "sample_deals"]

_NO_LIMIT = 1 << 30


class SamplingError(Exception):
    """No deal agrees with the view (an impossible view, or the samples kept failing)."""


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
class _Holder:
    """Where unseen cards go: a seat's hand, or 55's kitty, undealt cards or closed discard."""

    name: str
    size: int
    seat: int | None = None
    lo: dict[Card, int] = field(default_factory=dict)
    hi: dict[Card, int] = field(default_factory=dict)
    suit_lo: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    suit_hi: list[int] = field(default_factory=lambda: [_NO_LIMIT] * 4)

    def copy(self) -> _Holder:
        return _Holder(self.name, self.size, self.seat, dict(self.lo), dict(self.hi), list(self.suit_lo),
                       list(self.suit_hi))


def sample_deals(view: dict[str, Any], n: int, rng: random.Random) -> list[Deal]:
    """``n`` deals consistent with ``view``, each replayed to the view's position.

    :raises SamplingError: if no deal agrees with the view.
    """
    sampler = DealSampler(view)
    return [sampler.sample(rng) for _ in range(n)]


class DealSampler:
    """Reads a view once; :meth:`sample` then draws consistent deals cheaply.

    :ivar claims: every claim read from the view (play facts first, then bid forms in auction order).
    :ivar dropped: the soft claims left out because they could not hold with the others.
    """

    def __init__(self, view: dict[str, Any], *, use_bids: bool = True, infer: bool = True,
                 tries: int = 300) -> None:
        self.view = view
        self.game = GAMES[view["game"]]
        self.rules = self.game.rules_from_json(view["rules"])
        self.n: int = self.rules.players
        self.seat: int | None = view["seat"]
        self.tries = tries
        self._cards: dict[str, Card] = {}
        self.phase: str = view["phase"]
        if self.phase == OVER and self.game.name == "56" and any(view["hand_sizes"]):
            raise SamplingError("the deal was claimed: its play is incomplete; nothing to sample")
        self.plays: list[tuple[int, Card]] = self._plays(view)
        self.played_by: list[Counter[Card]] = [Counter() for _ in range(self.n)]
        for s, c in self.plays:
            self.played_by[s][c] += 1
        self.own: list[Card] = self.parse_cards(view["hand"]) if self.seat is not None else []
        self.claims: list[Claim] = []
        self.dropped: list[Claim] = []
        self._moves: list[Move | None] | None = None
        self._texts: list[str | None] = []
        self._reveal_at: int | None = None   # index into the play list where "?" goes
        if self.game.name == "55":
            self._setup_55()
            self._fit_claims()
            return
        candidates = self._setup_56()
        first = (view["dealer"] + 1) % self.n
        bids = bid_claims_56(self.rules, first, view["auction"]) if use_bids else []
        if use_bids and infer:
            bids += length_claims_56(self.rules, first, view["auction"])
        problem = SamplingError("no deal agrees with what this seat has seen")
        for at in candidates:   # where a hidden trump was turned up: the first place that works
            self._reveal_at = at
            self.claims = self._voids_56() + bids
            self.dropped = []
            self.holders = [_Holder(f"seat {s}", view["hand_sizes"][s], s) for s in range(self.n) if s != self.seat]
            try:
                self._fit_claims()
                if len(candidates) > 1:
                    self._sample(random.Random(0), 30)
                return
            except SamplingError as e:
                problem = e
                self._moves = None
        raise problem

    # -- reading the view ------------------------------------------------------------------------------
    def parse_card(self, text: str) -> Card:
        c = self._cards.get(text)
        if c is None:
            c = self._cards[text] = Card.parse(text, self.game.ranks)
        return c

    def parse_cards(self, texts: list[str]) -> list[Card]:
        return [self.parse_card(t) for t in texts]

    def _plays(self, view: dict[str, Any]) -> list[tuple[int, Card]]:
        out = []
        tricks = list(view["tricks"])
        if view.get("trick"):
            tricks.append(view["trick"])
        for t in tricks:
            for i, text in enumerate(t["cards"]):
                out.append(((t["leader"] + i) % self.n, self.parse_card(text)))
        return out

    def _tricks_cards(self) -> list[tuple[int, list[Card]]]:
        """(leader, cards) of every trick with cards, the current one last."""
        v = self.view
        out = [(t["leader"], self.parse_cards(t["cards"])) for t in v["tricks"]]
        if v.get("trick") and v["trick"]["cards"]:
            out.append((v["trick"]["leader"], self.parse_cards(v["trick"]["cards"])))
        return out

    # -- 56 --------------------------------------------------------------------------------------------
    def _setup_56(self) -> list[int | None]:
        """Read the moves and the unseen cards; returns where a hidden trump may have been turned up."""
        from ..games.fifty_six.deal import TRUMP_CHOICES

        v, rules = self.view, self.rules
        self._texts = list(v["auction"])
        self._trump_slot: int | None = None
        self._hidden_strain = None
        if rules.trump != "bid" and self.phase in (PLAY, OVER):
            if v["trump"] is not None:
                self._texts.append(v["trump"])
            else:
                self._trump_slot = len(self._texts)
                self._texts.append(None)
                contract = v["contract"]
                strain = contract["strain"] if contract else "NT"
                self._hidden_strain = TRUMP_CHOICES[4 if strain == "NT" else "SHDC".index(strain)]
        self._play_start = len(self._texts)
        self._texts += [str(c) for _, c in self.plays]
        self.pool = self._pool(self.game.deck(rules))
        self._trump = self._known_trump_56()
        if rules.trump == "hidden" and self.phase in (PLAY, OVER) and v["trump"] is not None \
                and not v.get("trump_hidden"):
            return self._reveal_candidates(self._trump)
        return [None]

    def _known_trump_56(self) -> Any:
        t = self.view["trump"]
        if t is None:
            return None
        return None if t == "NT" else SUITS["SHDC".index(t)]

    def _reveal_candidates(self, trump: Any) -> list[int | None]:
        """Where in the play the hidden trump may have been asked for (the view does not say): before an
        off-suit card from whose trick on the trick winners agree with the view (trumps count from that
        trick on), asks followed by a trump first; ``len(plays)`` when the seat now to move may just have
        asked (first when the observer is offered trumps only)."""
        from ..games.fifty_six.play import POINTS, STRENGTH, SUIT

        tricks = self.view["tricks"]
        seq = self._tricks_cards()

        def winner(leader: int, cards: list[Card], active: Any) -> tuple[int, int]:
            led = SUIT[cards[0]]
            best_i, best = 0, STRENGTH[cards[0]] + (32 if led == active else 16)
            for i in range(1, len(cards)):
                c = cards[i]
                key = STRENGTH[c] + (32 if SUIT[c] == active else 16 if SUIT[c] == led else 0)
                if key > best:
                    best, best_i = key, i
            return (leader + best_i) % self.n, sum(POINTS[c] for c in cards)

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
            if all((tricks[k]["winner"], tricks[k]["points"]) == winner(*seq[k], trump if k >= ti else None)
                   for k in range(len(tricks))):
                good.append((not is_trump, at))
        out: list[int | None] = [at for _, at in sorted(good)]
        # the seat to move may just have asked (the trick in progress has cards, nobody after it played)
        in_trick = bool((self.view.get("trick") or {}).get("cards"))
        if in_trick and all((tricks[k]["winner"], tricks[k]["points"]) == winner(*seq[k], None)
                            for k in range(len(tricks))):
            if self._asked_now(trump):
                out.insert(0, len(self.plays))
            else:
                out.append(len(self.plays))
        if not out:
            raise SamplingError("no place in the play where the hidden trump could have been turned up")
        return out

    def _asked_now(self, trump: Any) -> bool:
        """The observer is to move, cannot follow, and is offered trumps only: it has just asked."""
        v = self.view
        trick = v.get("trick") or {}
        if v["to_move"] != self.seat or not trick.get("cards") or trump is None:
            return False
        from ..games.fifty_six.play import SUIT

        led = SUIT[self.parse_card(trick["cards"][0])]
        if any(SUIT[c] == led for c in self.own):
            return False
        legal = [self.parse_card(t) for t in v["legal"] if t not in ("?", "CLAIM")]
        return len(set(legal)) < len(set(self.own)) and all(SUIT[c] == trump for c in legal)

    def _voids_56(self) -> list[Claim]:
        from ..games.fifty_six.play import SUIT

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
        trick = self.view.get("trick") or {}
        if self._reveal_at == len(self.plays) and trick.get("cards"):
            s, led = self.view["to_move"], SUIT[self.parse_card(trick["cards"][0])]
            out.append(Claim(s, f"seat {s} asked for trumps: it cannot follow {SUITS[led].word}", True, False,
                             suit_hi=((led, 0),)))
        return out

    # -- 55 --------------------------------------------------------------------------------------------
    def _setup_55(self) -> None:
        from ..games.fifty_five.rules import KITTY_SIZE

        v, rules = self.view, self.rules
        self._texts = list(v["auction"])
        bidder = v.get("bidder")
        self.bidder: int | None = bidder
        taken = bidder is not None and not v.get("kitty_size")
        discarded = taken and self.phase in (TRUMP, PLAY, OVER)
        self._discard_known = self.parse_cards(v["discard"]) if v.get("discard") else None
        self._discard_slot: int | None = None
        if discarded:
            if self._discard_known is not None:
                self._texts.append(" ".join(v["discard"]))
            else:
                self._discard_slot = len(self._texts)
                self._texts.append(None)
        if self.phase in (PLAY, OVER) and v["trump"] is not None:
            self._texts.append(v["trump"])
        self._play_start = len(self._texts)
        self._texts += [str(c) for _, c in self.plays]
        if v["trump"] is not None:
            self.claims += self._voids_55(SUITS["SHDC".index(v["trump"])])
        known = list(self._discard_known or [])
        self.pool = self._pool(self.game.deck(rules), known)
        self.holders = [_Holder(f"seat {s}", v["hand_sizes"][s], s) for s in range(self.n) if s != self.seat]
        if not taken:
            self.holders.append(_Holder("kitty", KITTY_SIZE))
        if discarded and self._discard_known is None:
            self.holders.append(_Holder("discard", KITTY_SIZE))
        undealt = 52 - self.n * rules.hand_size - KITTY_SIZE
        if undealt:
            self.holders.append(_Holder("undealt", undealt))
        self._taken = taken

    def _voids_55(self, trump: Any) -> list[Claim]:
        from ..games.fifty_five.ranking import EFFECTIVE_SUIT, IS_TRUMP, KEY, PRIVILEGED

        is_trump, eff, key, priv = IS_TRUMP[trump], EFFECTIVE_SUIT[trump], KEY[trump], PRIVILEGED[trump]
        deck = self.game.deck(self.rules)
        out = []
        for leader, cards in self._tricks_cards():
            led = cards[0]
            for j, c in enumerate(cards[1:], start=1):
                s = (leader + j) % self.n
                if is_trump[led] and not is_trump[c]:
                    keep = {p for p in priv if key[p] > key[led]}
                    out.append(Claim(s, f"seat {s} played no trump to the trump lead {led}", True, False,
                                     hi=tuple((x, 0) for x in deck if is_trump[x] and x not in keep)))
                elif not is_trump[led] and not is_trump[c] and eff[c] != eff[led]:
                    out.append(Claim(s, f"seat {s} neither followed {SUITS[eff[led]].word} nor trumped", True,
                                     False, hi=tuple((x, 0) for x in deck
                                                     if eff[x] == eff[led] and not is_trump[x])))
        return out

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
                    ok = any(_deal_unseen(self.pool, self.holders, rng) is not None for _ in range(40))
                    if not ok:
                        self.holders[i] = old
            if not ok:
                if claim.hard:
                    raise SamplingError(f"the view contradicts itself: {claim.why}")
                self.dropped.append(claim)
        if not any(_deal_unseen(self.pool, self.holders, rng) is not None for _ in range(200)):
            raise SamplingError("no deal agrees with what this seat has seen")

    def _apply(self, h: _Holder, claim: Claim) -> bool:
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
            parts = _deal_unseen(self.pool, self.holders, rng)
            if parts is None:
                continue
            deal = self._build(parts, rng)
            if deal is not None:
                return deal
        raise SamplingError(f"no deal agreeing with the view found in {tries} tries")

    def _build(self, parts: list[list[Card]], rng: random.Random) -> Deal | None:
        now: list[list[Card]] = [[] for _ in range(self.n)]
        if self.seat is not None:
            now[self.seat] = list(self.own)
        extra: dict[str, list[Card]] = {}
        for h, cards in zip(self.holders, parts, strict=True):
            if h.seat is not None:
                now[h.seat] = cards
            else:
                extra[h.name] = cards
        dealt = [now[s] + list(self.played_by[s].elements()) for s in range(self.n)]
        v = self.view
        if self.game.name == "56":
            from ..games.fifty_six.deal import TRUMP_CHOICES, Deal56

            deal: Deal = Deal56(self.rules, v["dealer"], dealt)
            slot_move: Move | None = None
            if self._trump_slot is not None:
                slot_move = self._hidden_strain if rng.random() < 0.5 else rng.choice(TRUMP_CHOICES)
        else:
            from ..games.fifty_five.deal import Deal55

            slot_move = None
            discard = extra.get("discard") or self._discard_known or []
            if self._taken:
                assert self.bidder is not None
                both = dealt[self.bidder] + list(discard)
                rng.shuffle(both)
                dealt[self.bidder], kitty = both[:5], both[5:]
            else:
                kitty = extra["kitty"]
            deal = Deal55(self.rules, v["dealer"], dealt, kitty)
            if self._discard_slot is not None:
                slot_move = Discard(tuple(deal.sort_hand(discard)))
        return self._replay(deal, slot_move)

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
        from ..core.errors import FiftySixError

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
        v = self.view
        tricks = v["tricks"]
        if len(deal.tricks) != len(tricks) or not all(
                t.winner == u["winner"] and t.points == u["points"] for t, u in zip(deal.tricks, tricks, strict=True)):
            return False
        legal = v.get("legal")
        return legal is None or [str(m) for m in deal.legal_moves()] == legal


def _deal_unseen(pool: list[Card], holders: list[_Holder], rng: random.Random) -> list[list[Card]] | None:
    """Share the unseen cards among the holders within their bounds, at random; ``None`` on a dead end.

    Cards a holder must hold go first, then cards of suits it must have enough of, then the rest, most
    constrained card first, each to a holder drawn in proportion to the room it has left (which, without
    constraints, is a uniformly random deal).
    """
    left = Counter(pool)
    hands: list[list[Card]] = [[] for _ in holders]
    count: list[Counter[Card]] = [Counter() for _ in holders]
    suits = [[0, 0, 0, 0] for _ in holders]

    def place(i: int, c: Card) -> None:
        hands[i].append(c)
        count[i][c] += 1
        suits[i][c // 13] += 1
        left[c] -= 1

    for i, h in enumerate(holders):
        for c, k in h.lo.items():
            if left[c] < k:
                return None
            for _ in range(k):
                place(i, c)
        if len(hands[i]) > h.size:
            return None
    for i, h in enumerate(holders):
        for s in range(4):
            need = h.suit_lo[s] - suits[i][s]
            if need <= 0:
                continue
            options = [c for c in left.elements() if c // 13 == s]
            rng.shuffle(options)
            for c in options:
                if need == 0:
                    break
                if count[i][c] < h.hi.get(c, _NO_LIMIT):
                    place(i, c)
                    need -= 1
            if need or len(hands[i]) > h.size:
                return None
    rest = list(left.elements())
    rng.shuffle(rest)

    def ok(i: int, c: Card) -> bool:
        h = holders[i]
        return (len(hands[i]) < h.size and count[i][c] < h.hi.get(c, _NO_LIMIT)
                and suits[i][c // 13] < h.suit_hi[c // 13])

    constrained = any(h.hi or any(x < _NO_LIMIT for x in h.suit_hi) for h in holders)
    if constrained:
        rest.sort(key=lambda c: sum(1 for i in range(len(holders)) if ok(i, c)))
    for c in rest:
        room = [(i, holders[i].size - len(hands[i])) for i in range(len(holders)) if ok(i, c)]
        if not room:
            return None
        r = rng.randrange(sum(w for _, w in room))
        for i, w in room:
            r -= w
            if r < 0:
                place(i, c)
                break
    return hands


# -- what 56 bid forms claim -------------------------------------------------------------------------------

def bid_claims_56(rules: Any, first_hand: int, calls: list[str]) -> list[Claim]:
    """The soft claims of a 56 auction's bid forms (``../shared/spec/rules-56.md``), in auction order."""
    from ..games.fifty_six.auction import Auction56
    from ..games.fifty_six.calls import parse_call

    auction = Auction56(rules, first_hand)
    order = [r for r in rules.ranks for _ in range(2)]
    claimed: list[Counter[Card]] = [Counter() for _ in range(rules.players)]
    out: list[Claim] = []
    for text in calls:
        call = parse_call(text, rules.bidding)[0]
        seat = auction.to_move
        if call.is_bid:
            claim = _claim_of(call, seat, auction, order, claimed[seat], rules)
            if claim is not None:
                out.append(claim)
                for c, k in claim.lo:
                    claimed[seat][c] = max(claimed[seat][c], k)
        auction.push_unchecked(call)
    return out


def length_claims_56(rules: Any, first_hand: int, calls: list[str]) -> list[Claim]:
    """What a suit bid suggests beyond its form (softer than the form's own claim, so tried after all of
    them): a bidder in a suit has length there, two cards with the J (``28H``), three without (``H28``)."""
    from ..games.fifty_six.calls import parse_call

    out: list[Claim] = []
    seat = first_hand
    for text in calls:
        call = parse_call(text, rules.bidding)[0]
        if call.is_bid and call.form in ("number-suit", "suit-number") and call.suit is not None:
            k = 2 if call.form == "number-suit" else 3
            out.append(Claim(seat, f"seat {seat} bid {call.text}: likely {k}+ {call.suit.word}", False, True,
                             suit_lo=((int(call.suit), k),)))
        seat = (seat + 1) % rules.players
    return out


def _claim_of(call: Any, seat: int, auction: Any, order: list[str], mine: Counter[Card],
              rules: Any) -> Claim | None:
    f, s, why = call.form, call.suit, f"seat {seat} bid {call.text}"
    if f == "number-suit":
        return Claim(seat, why, False, True, lo=((card("J", s), 1),))
    if f == "suit-number":
        return Claim(seat, why, False, True, hi=((card("J", s), 0),))
    if f == "plus-suit":
        tops = Counter(card(r, s) for r in order[:call.k])
        return Claim(seat, why, False, True, lo=tuple(tops.items()), hi=tuple(tops.items()),
                     suit_lo=((s, call.k),), suit_hi=((s, call.k),))
    if f in ("number-noes", "plus-noes", "nos", "k-nos"):
        k = max(call.k, 1) if f == "k-nos" else 1
        if len(auction.suit_bids) < k:
            return None
        return Claim(seat, why, False, True, suit_hi=((int(auction.suit_bids[-k]), 0),))
    if s is None:
        return None
    start = auction.announced_top[s]
    if f in ("plus", "one-plus", "plus-one", "k-plus", "raise-to"):
        t = (call.value or 0) - auction.value if f == "raise-to" else call.k if f == "k-plus" else 1
        tops = Counter(card(r, s) for r in order[start:start + t])
        lo = tuple((c, mine[c] + k) for c, k in tops.items())
        exact = {"one-plus": 2, "plus-one": 1, "k-plus": call.k + 1}.get(f)
        if exact is not None:
            return Claim(seat, why, False, True, lo=lo, suit_lo=((s, exact),), suit_hi=((s, exact),))
        return Claim(seat, why, False, True, lo=lo, suit_lo=((s, t + (2 if f == "plus" else 1)),))
    if f in ("minus", "minus-k"):
        hi: tuple[tuple[Card, int], ...] = ()
        if start < len(order):
            top = card(order[start], s)
            hi = ((top, mine[top]),)
        lo_n, hi_n = (3, 4) if f == "minus" else (call.k, call.k)
        return Claim(seat, why, False, True, hi=hi, suit_lo=((s, lo_n),), suit_hi=((s, hi_n),))
    return None

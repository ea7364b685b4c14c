"""One deal of 55: auction, the kitty and the discard, the trump choice, the play and the result.

Phases: ``auction`` → ``discard`` (the bidder takes the kitty and puts 5 cards away) → ``trump`` (the
bidder names S, H, D or C) → ``play`` → ``over``.  A deal nobody bids for (``all_pass: redeal``) is
thrown in: it goes straight to ``over`` with no contract.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from ...core.cardbits import CardBits
from ...core.cards import CARDS, SUITS, Card, Suit, cards_text, plain
from ...core.deal import AUCTION, DISCARD, OVER, PLAY, TRUMP, Deal, DealResult
from ...core.errors import IllegalMoveError, NotationError
from ...core.meaning import N_, Meaning, suit_word
from ...core.moves import Call, Discard, Move, TrumpChoice, discards
from ...core.shuffle import seeded_shuffle, shuffle
from .auction import Auction55, Contract, parse_call
from .play import IS_TRUMP, KEY, PRIVILEGED, SUIT, TRUMP_BASE, trick_points, trick_winner
from .rules import BONUS, KITTY_SIZE, RANKS, TRICKS, Rules55
from .scoring import deal_score, is_made

# Display order: suits S H D C, then A K Q ... 2 (the record notation's order, whatever is trumps).
_SORT_KEY = tuple((i // 13) * 16 + (12 - i % 13) for i in range(52))

TRUMP_CHOICES = tuple(TrumpChoice(s) for s in Suit)
TRUMP_HELP = N_("the bidder names S, H, D or C")
NO_NO_TRUMPS = Meaning("55 has no no-trumps; {help}", {"help": Meaning(TRUMP_HELP)})
RENEGE_HELP = ("only a 5, J or A of hearts higher than the trump led may be kept back, "
               "and only when the player has no other trump")


# Hands as bitmasks: 13 bits a suit, in display order.  The play rule of play.py as masks, per trump suit:
BITS = CardBits([CARDS[s * 13 + r] for s in SUITS for r in reversed(range(13))], 13)
_S, _H, _D, _C = BITS.suit_cards
_TRUMPS = tuple(sum(BITS.bit[c] for c in CARDS if IS_TRUMP[t][c]) for t in SUITS)
"""The trumps (the A♥ always among them)."""
_CAN_FOLLOW = tuple(tuple(BITS.suit_mask[s] & ~_TRUMPS[t] for s in SUITS) for t in SUITS)
"""``[trump][suit]``: the cards that follow a plain lead of ``suit``."""
_MAY_KEEP = tuple(tuple(sum(BITS.bit[p] for p in PRIVILEGED[t] if KEY[t][p] > KEY[t][c]) for c in CARDS)
                  for t in SUITS)
"""``[trump][card led]``: the privileged trumps above a trump lead, which need not be played to it."""


_DECK_BITS = tuple(BITS.bit[c] for c in CARDS)
"""The pack in canonical order, as bits."""


def deck_bits() -> tuple[int, ...]:
    """The pack's cards as hand bits (``BITS``) in dealing order: what the shuffle deals."""
    return _DECK_BITS


def _cards(mask: int) -> tuple[Card, ...]:
    try:
        return _S[mask & 8191] + _H[mask >> 13 & 8191] + _D[mask >> 26 & 8191] + _C[mask >> 39]  # type: ignore[operator]
    except TypeError:   # an entry not filled in yet (None): BITS fills it in
        return BITS.cards(mask)


def sort_cards(cards: Sequence[Card]) -> list[Card]:
    return sorted(cards, key=_SORT_KEY.__getitem__)


def parse_trump(text: object) -> TrumpChoice:
    """Read a trump suit: ``S H D C`` (also suit symbols and words, any case).

    :raises NotationError: for no-trumps (55 has none) and anything that is not a suit.
    """
    if isinstance(text, str):
        t = plain(text)
        if t in ("NT", "N", "NOTRUMPS", "NO-TRUMPS"):
            raise NotationError(NO_NO_TRUMPS)
        try:
            return TRUMP_CHOICES[Suit.parse(t)]
        except NotationError:
            pass
    raise NotationError(Meaning("trump must be one of S, H, D, C, not {text}", {"text": repr(text)}))


def parse_discard(value: object) -> list[Card]:
    """Read the cards of a discard: ``"2S 3S 4D 7C 9C"`` or a list of cards, leniently, in the order given.

    :raises NotationError: if the value is not cards.
    """
    return parse_cards(value, (list, tuple),
                       Meaning("a discard must be a string of 5 cards, not {value}", {"value": repr(value)}),
                       N_("malformed card {card} in the discard"))


def parse_cards(value: object, lists: tuple[type[Sequence[object]], ...], not_cards: Meaning,
                malformed: str) -> list[Card]:
    """Read cards written as one string (``"2S 3S 4D"``) or as a list (of a type in ``lists``) of card texts,
    leniently, in the order given (a discard, a record's kitty).

    :raises NotationError: ``not_cards`` for a value of another type; ``malformed`` (a message id with
        ``{card}``) for an item that is not a card.
    """
    if isinstance(value, str):
        items: list[object] = list(value.split())
    elif isinstance(value, lists):
        items = list(value)
    else:
        raise NotationError(not_cards)
    out = []
    for item in items:
        try:
            if not isinstance(item, str):
                raise NotationError("")
            out.append(Card.parse(item, RANKS))
        except NotationError:
            raise NotationError(Meaning(malformed, {"card": repr(item)})) from None
    return out


class Deal55(Deal):
    """A deal of 55.

    >>> d = Deal55.from_seed(Rules55.from_json("55"), seed=7)
    >>> d.phase, len(d.hands[0]), len(d.kitty)
    ('auction', 5, 5)

    :ivar kitty: the five kitty cards as dealt.
    :ivar discard: the bidder's five discards once made.
    :ivar points: per side, 5 a trick, and 5 more for the highest trump once the deal is over.
    :ivar highest: ``(seat, card, trick index)`` of the highest trump played in a completed trick so far.
    """

    game = "55"
    rules: Rules55
    BITS = BITS

    def __init__(self, rules: Rules55, dealer: int, hands: Sequence[Sequence[Card]],
                 kitty: Sequence[Card]) -> None:
        super().__init__(rules, dealer, hands)
        self._start(rules, tuple(sort_cards(kitty)))

    def _start(self, rules: Rules55, kitty: tuple[Card, ...]) -> None:
        """55's own part of a new deal (after the hands are dealt); ``kitty`` in display order."""
        self.kitty = kitty
        self.phase = AUCTION
        self.auction = Auction55(rules, self.dealer)
        self.to_move = self.first_hand
        self.contract: Contract | None = None
        self.trump: Suit | None = None
        self.kitty_taken = False
        self.discard: tuple[Card, ...] | None = None
        self.points = [0] * rules.n_sides
        self.tricks_won = [0] * rules.n_sides
        self.highest: tuple[int, Card, int] | None = None

    @classmethod
    def from_seed(cls, rules: Rules55, seed: int | None = None, dealer: int | None = None,
                  rng: random.Random | None = None) -> Deal55:
        """Shuffle and deal with a seeded generator: the same seed gives the same deal.

        Five cards each, five to the kitty, the rest undealt.  The dealer, if not given, is drawn from the
        same generator.
        """
        if rng is None:
            drawn, bits = seeded_shuffle(_DECK_BITS, seed, rules.players if dealer is None else 0)
            dealer = drawn if dealer is None else dealer
        else:       # the pack's cards as bits: the same shuffle deals the same
            if dealer is None:
                dealer = rng.randrange(rules.players)
            bits = list(_DECK_BITS)
            shuffle(bits, rng)
        k, n = rules.hand_size, rules.players
        once = [sum(bits[i:i + k]) for i in range(0, n * k, k)]     # distinct bits: the sum is the union
        return cls.from_masks(rules, dealer, once, sum(bits[n * k:n * k + KITTY_SIZE]))

    @classmethod
    def from_masks(cls, rules: Rules55, dealer: int, once: list[int], kitty: int) -> Deal55:
        """A new deal from each seat's card mask and the kitty's (``BITS``), known to be a valid deal of ``rules``
        (the list is kept): what :meth:`from_seed` deals, for a caller that shuffled the same way itself (the
        vector env's compiled dealing)."""
        deal = cls.__new__(cls)
        deal._deal_masks(rules, dealer, once, [0] * rules.players)
        deal._start(rules, BITS.cards(kitty))
        return deal

    def sort_hand(self, cards: Sequence[Card]) -> list[Card]:
        return sort_cards(cards)

    @property
    def undealt(self) -> tuple[Card, ...]:
        """The cards of the pack dealt to nobody (never seen by anyone)."""
        used = {c for h in self.dealt for c in h} | set(self.kitty)
        return tuple(c for c in CARDS if c not in used)

    @property
    def thrown_in(self) -> bool:
        """Nobody bid and the deal was thrown in (``all_pass: redeal``)."""
        return self.auction.thrown_in

    @property
    def bidder(self) -> int | None:
        return self.contract.bidder if self.contract is not None else None

    # -- legal moves -----------------------------------------------------------------------------------
    def _compute_legal(self) -> tuple[Move, ...]:
        phase = self.phase
        if phase == PLAY:
            return self._legal_cards()
        if phase == AUCTION:
            return self.auction.legal()
        if phase == DISCARD:
            assert self.contract is not None
            return discards(combinations(self.hands[self.contract.bidder], KITTY_SIZE))
        return TRUMP_CHOICES

    def _legal_cards(self) -> tuple[Card, ...]:
        once = self._once[self.to_move or 0]
        cards = self.trick_cards
        if not cards:
            return _cards(once)
        trump = self.trump
        assert trump is not None
        led = cards[0]
        if IS_TRUMP[trump][led]:
            trumps = once & _TRUMPS[trump]
            # a trump if the player holds one, unless all it holds are privileged trumps above the lead
            return _cards(trumps if trumps & ~_MAY_KEEP[trump][led] else once)
        if once & _CAN_FOLLOW[trump][SUIT[led]]:
            return _cards(once & (BITS.suit_mask[SUIT[led]] | _TRUMPS[trump]))   # follow or trump, freely
        return _cards(once)

    def is_legal(self, move: Move) -> bool:
        phase = self.phase
        if phase == AUCTION:
            return isinstance(move, Call) and self.auction.is_legal(move)
        if phase == DISCARD:
            return isinstance(move, Discard) and self.discard_error(move.cards) is None
        return move in self.legal_moves()

    def discard_error(self, cards: Sequence[Card]) -> str | None:
        """Why these cards are not a legal discard of the bidder now, or ``None`` if they are."""
        if self.phase != DISCARD or self.contract is None:
            return Meaning("no discard now: {waiting}", {"waiting": self.waiting_for()})
        if len(cards) != KITTY_SIZE:
            return Meaning("the bidder must discard exactly {count} cards, not {n}",
                           {"count": KITTY_SIZE, "n": len(cards)})
        seen: set[Card] = set()
        for c in cards:
            if c in seen:
                return Meaning("{card} is discarded twice", {"card": c})
            seen.add(c)
        bidder = self.contract.bidder
        held = self.hands[bidder]
        for c in cards:
            if c not in held:
                both = cards_text((*self.dealt[bidder], *self.kitty))
                return Meaning("the bidder (seat {seat}) does not hold {card}; hand and kitty: {both}",
                               {"seat": bidder, "card": c, "both": both})
        return None

    def _refuse(self, move: Move) -> IllegalMoveError:
        legal = self.legal_moves()
        texts = [str(m) for m in legal]
        phase = self.phase
        if phase == AUCTION and isinstance(move, Call):
            try:
                self.auction.check(move)
            except IllegalMoveError as e:
                return e
        if phase == DISCARD and isinstance(move, Discard):
            why = self.discard_error(move.cards)
            assert why is not None
            return IllegalMoveError(why, texts)
        if phase == TRUMP and isinstance(move, TrumpChoice):
            return IllegalMoveError(NO_NO_TRUMPS, texts)
        if phase == PLAY and isinstance(move, Card):
            return self._card_refusal(move, legal, self._follow_text(legal))
        return self._phase_refusal(move)

    def _follow_text(self, legal: Sequence[Move]) -> str:
        seat = self.to_move
        if not self.trick_cards:    # a lead is never refused for suit: the card is not held
            return Meaning("seat {seat} may lead any card it holds", {"seat": seat})
        led = self.trick_cards[0]
        shown = " ".join(str(c) for c in legal)
        assert self.trump is not None
        if IS_TRUMP[self.trump][led]:
            return Meaning("seat {seat} must play a trump to the trump lead {led}: holds {shown} ({help})",
                           {"seat": seat, "led": led, "shown": shown, "help": RENEGE_HELP})
        return Meaning("seat {seat} must follow {suit} or trump: may play {shown}",
                       {"seat": seat, "suit": suit_word(Suit(SUIT[led]).word), "shown": shown})

    # -- parsing -----------------------------------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        """Read a move for the current phase: a call, a discard (5 cards), a trump suit or a card.

        :raises NotationError: if the text is none of these.
        """
        if not isinstance(text, str):
            raise NotationError(Meaning("malformed move {text}", {"text": repr(text)}))
        phase = self.phase
        if phase == AUCTION:
            try:
                return parse_call(text)
            except NotationError:
                try:
                    return Card.parse(text, RANKS)   # refused later: no card before the auction ends
                except NotationError:
                    pass
                raise
        if phase == DISCARD:
            cards = parse_discard(text)
            if len(set(cards)) == len(cards):
                cards = self.sort_hand(cards)
            return Discard(tuple(cards))
        if phase == TRUMP:
            return parse_trump(text)
        return Card.parse(text, RANKS)

    def parse_call(self, text: str) -> Call:
        """Read a call of the auction.

        :raises NotationError: if the text is no call of 55.
        """
        return parse_call(text)

    def play_texts(self) -> list[str]:
        """The record's ``play`` field: the cards in the order played."""
        return [str(m) for _, m in self.history if isinstance(m, Card)]

    def over_text(self) -> str:
        if self.thrown_in:
            return Meaning("the deal was thrown in (nobody bid); no cards are played")
        return Meaning("the deal is over: all {n} tricks have been played", {"n": TRICKS})

    def not_ready_text(self) -> str:
        if self.phase == DISCARD:
            return Meaning("the bidder has not discarded yet; no card may be played")
        return Meaning("trumps have not been named yet; no card may be played")

    def waiting_for(self) -> str:
        if self.phase == AUCTION:
            return Meaning("seat {to_move} to call", {"to_move": self.to_move})
        if self.phase == DISCARD:
            return Meaning("the bidder (seat {to_move}) to discard {count} cards",
                           {"to_move": self.to_move, "count": KITTY_SIZE})
        if self.phase == TRUMP:
            return Meaning("the bidder (seat {to_move}) to name trumps", {"to_move": self.to_move})
        if self.phase == PLAY:
            return Meaning("seat {to_move} to play", {"to_move": self.to_move})
        return Meaning("the deal is over")

    # -- applying ----------------------------------------------------------------------------------------
    def _apply(self, move: Move) -> None:
        phase = self.phase
        if phase == PLAY:   # cards are played by _play (see push_unchecked); 55's play has no other move
            raise AssertionError(f"not a card: {move!r}")
        if phase == AUCTION:
            assert isinstance(move, Call)
            auction = self.auction
            auction.push_unchecked(move)
            if not auction.done:
                self.to_move = auction.to_move
            elif auction.thrown_in:
                self._finish()
            else:
                contract = auction.contract()
                assert contract is not None
                self.contract = contract
                self._once[contract.bidder] |= BITS.masks(self.kitty, 1)[0]
                self._hands = None
                self.kitty_taken = True
                self.phase = DISCARD
                self.to_move = contract.bidder
        elif phase == DISCARD:
            assert isinstance(move, Discard) and self.contract is not None
            bidder = self.contract.bidder
            self._once[bidder] &= ~BITS.masks(move.cards, 1)[0]
            self._hands = None
            self.discard = tuple(move.cards)
            self.phase = TRUMP
        else:
            assert isinstance(move, TrumpChoice) and isinstance(move.strain, Suit) and self.contract is not None
            self.trump = move.strain
            self.contract = Contract(self.contract.bidder, self.contract.team, self.contract.value, move.strain)
            self.phase = PLAY
            self.to_move = self.first_hand

    def _score_trick(self, leader: int, cards: Sequence[Card]) -> tuple[int, int]:
        trump = self.trump
        assert trump is not None
        key = KEY[trump]
        best_i = trick_winner(cards, trump)
        best = key[cards[best_i]]
        winner = (leader + best_i) % self.n
        if best > TRUMP_BASE:
            # The trick's winning card is its highest trump; it is the deal's highest if it beats the record.
            high = self.highest
            if high is None or best > key[high[1]]:
                self.highest = (winner, cards[best_i], len(self._trick_rows))
        side = self.rules.side_of[winner]
        points = trick_points(cards)
        self.points[side] += points
        self.tricks_won[side] += 1
        return winner, points

    def _on_trick(self) -> None:
        if len(self._trick_rows) == TRICKS and self.highest is not None:
            self.points[self.rules.side_of[self.highest[0]]] += BONUS

    # -- outcome -------------------------------------------------------------------------------------------
    def made(self) -> bool | None:
        if self.phase != OVER or self.contract is None:
            return None
        return is_made(self.contract, self.points, self.tricks_won)

    def score(self) -> list[int] | None:
        """What this deal changes per side (zeros for a thrown-in deal; ``None`` while it is played)."""
        if self.phase != OVER:
            return None
        if self.contract is None:
            return [0] * self.rules.n_sides
        made = self.made()
        assert made is not None
        return deal_score(self.rules, self.contract, self.points, made)

    def highest_trump_json(self) -> dict[str, object] | None:
        if self.highest is None:
            return None
        return {"seat": self.highest[0], "card": str(self.highest[1])}

    def result(self) -> DealResult:
        return {
            "complete": self.phase == OVER,
            "contract": self.contract.to_json() if self.contract else None,
            "highest_trump": self.highest_trump_json(),
            "tricks": [t.to_json() for t in self.tricks],
            "points": list(self.points),
            "made": self.made(),
            "score": self.score(),
        }

    def trick_sides(self) -> list[int]:
        """The side that won each completed trick, in order."""
        return [self.rules.side_of[t.winner] for t in self.tricks]

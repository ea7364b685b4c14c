"""One deal of 56: auction, the trump choice (``chosen``/``hidden``), the play and the result."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from ...core.cardbits import CardBits
from ...core.cards import CARDS, RANK_CHARS, SUITS, Card, Suit, plain
from ...core.deal import AUCTION, OVER, PLAY, TRUMP, Deal, DealResult
from ...core.errors import CallNotAllowedError, IllegalMoveError, NotationError, WrongPhaseError
from ...core.meaning import Meaning, suit_word
from ...core.moves import CLAIM, REVEAL, Call, Claim, Move, Reveal, Strain, TrumpChoice, strain_text
from ...core.shuffle import seeded_shuffle, shuffle
from .auction import Auction56, Contract
from .calls import parse_call, resulting_value
from .play import POINTS, STRENGTH, SUIT, trick_key
from .rules import RANKS, Rules56
from .scoring import deal_score, is_made

_SORT_KEY = tuple(SUIT[i] * 16 + (16 - STRENGTH[i]) for i in range(52))


def deck(rules: Rules56) -> list[Card]:
    """Every card of the deck, both copies, in canonical order."""
    return list(_deck(rules.ranks))


@cache
def _deck(ranks: str) -> tuple[Card, ...]:
    cards = [CARDS[s * 13 + RANK_CHARS.index(r)] for s in SUITS for r in ranks]
    return tuple(c for c in cards for _ in range(2))


_COPY = 32
"""A deck's second copy of a card is dealt as its bit shifted this far (past the 32 bits of a hand): every bit of
the deck is then distinct, a hand's bits sum with no carry, and the two halves of the sum are the first and the
second copies held."""
_ONE_COPY = (1 << _COPY) - 1


@cache
def deck_bits(ranks: str) -> tuple[int, ...]:
    """The deck's cards as hand bits in dealing order (a second copy shifted 32 places): what the shuffle deals."""
    return tuple(BITS.bit[c] << (_COPY * i) for c in _deck(ranks)[::2] for i in range(2))


TRUMP_CHOICES = tuple(TrumpChoice(s) for s in (*SUITS, None))
_TRUMP_CHOICE_IDS = frozenset(map(id, TRUMP_CHOICES))    # the legal choices themselves: let in without comparing

# Hands as bitmasks: 8 bits a suit, the ranks in display order (J 9 A T K Q 8 7).
BITS = CardBits([CARDS[s * 13 + RANK_CHARS.index(r)] for s in SUITS for r in RANKS], 8)
_SUIT_CARDS = tuple(BITS.suit_table(s) for s in range(4))
"""``_SUIT_CARDS[suit][bits]``: the cards of one suit's 8 bits (tuples: indexing them is fastest)."""
_S, _H, _D, _C = _SUIT_CARDS
_BIT = BITS.bit

# ``_TRICK_KEYS[trump][led][card]``: play.trick_key for every card, trump and suit led (trump 4: none), times 8,
# plus the card's points (below 8): one lookup a card ranks it and counts it.
_TRICK_KEYS = tuple(tuple(tuple(trick_key(c, led, t) * 8 + POINTS[c] for c in CARDS) for led in range(4))
                    for t in (*SUITS, None))


class Deal56(Deal):
    """A deal of 56.

    >>> d = Deal56.from_seed(Rules56.from_json("56-6"), seed=7)
    >>> d.phase, len(d.hands[0])
    ('auction', 8)
    """

    game = "56"
    rules: Rules56
    BITS = BITS
    COPIES = 2

    def __init__(self, rules: Rules56, dealer: int, hands: Sequence[Sequence[Card]]) -> None:
        super().__init__(rules, dealer, hands)
        self._start(rules)

    def _start(self, rules: Rules56) -> None:
        """56's own part of a new deal (after the hands are dealt)."""
        self.phase = AUCTION
        first = self.to_move = self.trick_leader     # first hand: it calls first and leads first
        self.auction = Auction56(rules, first)
        self.contract: Contract | None = None
        self.trump: Strain = None          # the chosen trump once known to the rules
        self.trump_chosen = False
        self.revealed = rules.trump != "hidden"
        self.revealed_at: int | None = None  # trick index where a hidden trump was turned up
        self.points = [0] * rules.n_teams
        self.claimed_by: int | None = None
        self._last = self.dealer     # who plays a trick's last card: the seat before its leader

    @classmethod
    def from_seed(cls, rules: Rules56, seed: int | None = None, dealer: int | None = None,
                  rng: random.Random | None = None) -> Deal56:
        """Shuffle and deal with a seeded generator: the same seed gives the same deal.

        The dealer, if not given, is drawn from the same generator.
        """
        deck = deck_bits(rules.ranks)     # the deck's cards as bits: the same shuffle deals the same
        if rng is None:
            drawn, bits = seeded_shuffle(deck, seed, rules.players if dealer is None else 0, rules.hand_size)
            dealer = drawn if dealer is None else dealer
        else:
            if dealer is None:
                dealer = rng.randrange(rules.players)
            bits = list(deck)
            shuffle(bits, rng)
        k = rules.hand_size
        once: list[int] = []
        twice: list[int] = []
        for i in range(0, rules.players * k, k):
            held = sum(bits[i:i + k])       # every bit apart (see _COPY): the sum is the union
            first, second = held & _ONE_COPY, held >> _COPY
            once.append(first | second)
            twice.append(first & second)
        return cls.from_masks(rules, dealer, once, twice)

    @classmethod
    def from_masks(cls, rules: Rules56, dealer: int, once: list[int], twice: list[int]) -> Deal56:
        """A new deal from each seat's card masks (``BITS``: the cards held, and those held twice), known to be a
        valid deal of ``rules`` (the lists are kept): what :meth:`from_seed` deals, for a caller that shuffled
        the same way itself (the vector env's compiled dealing)."""
        deal = cls.__new__(cls)
        deal._deal_masks(rules, dealer, once, twice)
        deal._start(rules)
        return deal

    def sort_hand(self, cards: Sequence[Card]) -> list[Card]:
        return sorted(cards, key=_SORT_KEY.__getitem__)

    # -- trumps --------------------------------------------------------------------------------------
    @property
    def active_trump(self) -> Suit | None:
        """The suit that acts as trump now (``None`` at no-trumps or while a trump is hidden)."""
        if not self.revealed:
            return None
        return self.trump

    # -- legal moves ---------------------------------------------------------------------------------
    @property
    def must_trump(self) -> bool:
        """The seat to move has just asked for the hidden trump: it must play a trump if it holds one."""
        log = self._log
        return bool(log) and isinstance(log[-1][2], Reveal) and log[-1][0] == self.cards_played()

    def push(self, move: Move | str, seat: int | None = None) -> Move:
        """Validate and apply one move; returns the move as applied (:meth:`Deal.push <.core.deal.Deal.push>`).

        :raises NotationError: if a text move is malformed.
        :raises IllegalMoveError: (a precise subclass) if the move is not legal now.
            Nothing changes when an error is raised.
        """
        # A legal card goes straight in, and the next seat's legal cards are worked out here while they are
        # at hand (when it can follow suit); anything else takes the general path of Deal.push.
        if move.__class__ is Card:
            legal = self._legal
            if legal is None:
                legal = self.legal_moves()
            to: int = self.to_move  # type: ignore[assignment]
            if move in legal and (seat is None or seat == to):
                b = _BIT[move]
                twice = self._twice
                if twice[to] & b:
                    twice[to] ^= b
                else:
                    self._once[to] ^= b
                cards = self.trick_cards
                cards.append(move)
                if to == self._last:    # the trick's last card (cheaper to ask than its length)
                    self._legal = None
                    self._end_trick()
                else:
                    to = self.to_move = self._next_seat[to]
                    once = self._once[to]
                    led = SUIT[cards[0]]
                    legal = _SUIT_CARDS[led][once >> 8 * led & 255]
                    if not legal:   # any card; with ? added while the trump is hidden (see legal_moves)
                        legal = (_S[once & 255] + _H[once >> 8 & 255] + _D[once >> 16 & 255] + _C[once >> 24]
                                 if self.revealed else None)
                    self._legal = legal
                return move
        elif move.__class__ is Call and self.phase == AUCTION and (seat is None or seat == self.to_move):
            # a legal call, likewise (with the next seat's calls, while the auction is at hand)
            to = self.to_move  # type: ignore[assignment]
            auction = self.auction
            legal = auction.push_if_legal(move)
            if legal is not None:
                self._log.append((0, to, move))    # (no card is played before the auction ends)
                if auction.done:
                    self._legal = None
                    self._end_auction()
                else:
                    self.to_move = auction.to_move
                    self._legal = legal
                return move
        elif id(move) in _TRUMP_CHOICE_IDS and self.phase == TRUMP and (seat is None or seat == self.to_move):
            # a trump choice of TRUMP_CHOICES (all legal now) goes straight in; any other goes the general way
            choice: TrumpChoice = move  # type: ignore[assignment]
            self.push_unchecked(choice)
            return choice
        return super().push(move, seat)

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves the seat to move may make now, in a stable order (empty when the deal is over)."""
        legal = self._legal
        if legal is not None:
            return legal
        if self.phase == PLAY:
            # The rule of play.legal_cards, on masks: the distinct cards of the suit led if any, else all.
            once = self._once[self.to_move]   # type: ignore[index]
            cards = self.trick_cards
            if cards:
                led = SUIT[cards[0]]
                legal = _SUIT_CARDS[led][once >> 8 * led & 255]
                if not legal:
                    legal = self._discards(once)
            else:
                legal = _S[once & 255] + _H[once >> 8 & 255] + _D[once >> 16 & 255] + _C[once >> 24]
                if self.rules.claim and self.outcome_decided():
                    legal = (*legal, CLAIM)
        elif self.phase == AUCTION:
            legal = self.auction.legal()
        else:
            legal = self._compute_legal()
        self._legal = legal
        return legal

    def _discards(self, once: int) -> tuple[Move, ...]:
        """Legal moves of a player who cannot follow suit: a trump after asking for it, ``?`` while hidden."""
        legal = _S[once & 255] + _H[once >> 8 & 255] + _D[once >> 16 & 255] + _C[once >> 24]
        if self.revealed_at is None:    # no trump turned up this deal: nobody asked
            return legal if self.revealed else (*legal, REVEAL)
        trump = self.trump
        if trump is not None and self.must_trump:
            trumps = _SUIT_CARDS[trump][once >> 8 * trump & 255]
            if trumps:
                return trumps
        return legal

    def _compute_legal(self) -> tuple[Move, ...]:
        phase = self.phase
        if phase == PLAY:
            self._legal = None
            return self.legal_moves()
        if phase == AUCTION:
            return self.auction.legal()
        if phase == TRUMP:
            return TRUMP_CHOICES
        return ()

    def outcome_decided(self) -> bool:
        """Whether the contract is sure to be made or sure to fail, whatever is still played."""
        c = self.contract
        if c is None or self.phase != PLAY:
            return False
        have = self.points[c.team]
        left = 56 - sum(self.points)
        return have >= c.value or have + left < c.value

    def is_legal(self, move: Move) -> bool:
        if self.phase == AUCTION:
            return (move.__class__ is Call or isinstance(move, Call)) and self.auction.is_legal(move)
        return move in self.legal_moves()

    def _refuse(self, move: Move) -> IllegalMoveError:
        legal = self.legal_moves()
        if self.phase == AUCTION and isinstance(move, Call):
            try:
                self.auction.check(move)
            except IllegalMoveError as e:
                return e
        if self.phase == PLAY and isinstance(move, Card):
            seat = self.to_move
            led = self.trick_cards[0].suit if self.trick_cards else None
            text: str
            if self.must_trump and self.trump is not None:
                text = Meaning("seat {seat} asked for trumps and must play a trump: has {cards}",
                               {"seat": seat, "cards": " ".join(str(c) for c in legal)})
            else:
                text = Meaning("seat {seat} must follow {suit}: has {cards}",
                               {"seat": seat, "suit": suit_word(led.word) if led is not None else "",
                                "cards": " ".join(str(c) for c in legal if isinstance(c, Card))})
            return self._card_refusal(move, legal, text)
        if self.phase == PLAY and isinstance(move, Reveal):
            why = (Meaning("the trump is not hidden") if self.rules.trump != "hidden" else
                   Meaning("the trump is already turned up") if self.revealed else
                   Meaning("only a player who cannot follow suit may ask for the trump"))
            return WrongPhaseError(Meaning("? refused: {why}", {"why": why}), [str(m) for m in legal])
        if isinstance(move, Claim):
            why = (Meaning("claims are off (option claim)") if not self.rules.claim else
                   Meaning("the outcome can still change, or a trick is in progress"))
            return WrongPhaseError(Meaning("CLAIM refused: {why}", {"why": why}), [str(m) for m in legal])
        return self._phase_refusal(move)

    # -- parsing ---------------------------------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        """Read a move for the current phase: a call, a trump (``H``, ``NT``), a card, ``?`` or ``CLAIM``.

        :raises NotationError: if the text is none of these.
        :raises IllegalMoveError: if an announcement's written number does not add up.
        """
        if not isinstance(text, str):
            raise NotationError(Meaning("malformed move {text}", {"text": repr(text)}))
        t = plain(text)
        if self.phase == TRUMP:
            if t in ("NT", "N", "NOTRUMPS", "NO-TRUMPS"):
                return TRUMP_CHOICES[4]
            try:
                return TRUMP_CHOICES[Suit.parse(t)]
            except NotationError:
                raise NotationError(Meaning("malformed trump {text}; choose S, H, D, C or NT",
                                            {"text": repr(text)})) from None
        if self.phase == AUCTION:
            try:
                return self.parse_call(text)
            except NotationError:
                try:
                    return Card.parse(text, RANKS)   # refused later with a clear reason
                except NotationError:
                    pass
                raise
        if t == "?":
            return REVEAL
        if t == "CLAIM":
            return CLAIM
        try:
            return Card.parse(text, RANKS)
        except NotationError:
            try:
                return parse_call(text, self.rules.bidding)[0]   # refused later: the auction is over
            except NotationError:
                pass
            raise

    def parse_call(self, text: str) -> Call:
        """Read a call of this deal's bidding system.

        :raises NotationError: if the text is no call.
        :raises IllegalMoveError: if an announcement's written resulting number does not add up.
        """
        call, written = parse_call(text, self.rules.bidding)
        if written is not None and call.is_bid and self.phase == AUCTION:
            v = resulting_value(call, self.auction.value)
            if v != written:
                raise CallNotAllowedError(
                    f"{text.strip()} does not add up: {call.text} over {self.auction.value} makes {v}",
                    [str(m) for m in self.legal_moves()])
        return call

    def play_texts(self) -> list[str]:
        """The record's ``play`` field: cards in order, with ``?`` before a card that asked for trumps."""
        return [str(m) for _, m in self.history if isinstance(m, (Card, Reveal, Claim))]

    def over_text(self) -> str:
        if self.claimed_by is not None:
            return Meaning("the deal is over: seat {seat} claimed the rest", {"seat": self.claimed_by})
        return Meaning("the deal is over: all {n} cards have been played", {"n": self.rules.deck_size})

    def not_ready_text(self) -> str:
        return Meaning("trumps have not been chosen yet; no card may be played")

    # -- applying ------------------------------------------------------------------------------------
    def _apply(self, move: Move) -> None:
        phase = self.phase
        if phase == AUCTION:
            assert isinstance(move, Call)
            self.auction.push_unchecked(move)
            if self.auction.done:
                self._end_auction()
            else:
                self.to_move = self.auction.to_move
        elif phase == PLAY:     # cards are played by _play (see push_unchecked)
            if isinstance(move, Reveal):
                self.revealed = True
                self.revealed_at = len(self._trick_rows)
            else:
                self.claimed_by = self.to_move
                self._finish()
        else:
            assert isinstance(move, TrumpChoice)
            self.trump = move.strain
            self.trump_chosen = True
            self.phase = PLAY
            self.to_move = self.first_hand

    def _end_auction(self) -> None:
        contract = self.contract = self.auction.contract()
        assert contract is not None
        self.trump = contract.strain
        if self.rules.trump == "bid":
            self.phase = PLAY
            self.to_move = self.first_hand
        else:
            self.phase = TRUMP
            self.to_move = contract.declarer

    def _end_trick(self) -> None:
        # Deal._end_trick with the trick scored inline: this runs once a trick.
        leader, cards = self.trick_leader, tuple(self.trick_cards)
        keys = _TRICK_KEYS[4 if self.trump is None or not self.revealed else self.trump][SUIT[cards[0]]]
        best = best_i = points = 0
        for i, c in enumerate(cards):
            k = keys[c]
            if k > best:        # strictly higher: of two identical cards the first wins
                best, best_i = k, i
            points += k & 7
        winner = (leader + best_i) % self.n
        self.points[self.rules.team_of[winner]] += points
        self._trick_rows.append((leader, cards, winner, points))
        self.trick_cards = []
        self.trick_leader = self.to_move = winner
        self._last = (winner or self.n) - 1
        once = self._once[winner]
        if not once:
            self._finish()
        elif not self.rules.claim:  # the next lead: any card held (a claim is worked out in legal_moves)
            self._legal = _S[once & 255] + _H[once >> 8 & 255] + _D[once >> 16 & 255] + _C[once >> 24]

    def _score_trick(self, leader: int, cards: Sequence[Card]) -> tuple[int, int]:
        raise NotImplementedError("56 scores its tricks in _end_trick")

    # -- outcome ----------------------------------------------------------------------------------------
    def made(self) -> bool | None:
        if self.phase != OVER or self.contract is None:
            return None
        return is_made(self.contract, self.points)

    def score(self) -> list[int] | None:
        """Nominal payments of this deal per team (uncapped; a match caps them to what teams hold)."""
        made = self.made()
        if made is None or self.contract is None:
            return None
        return deal_score(self.rules, self.contract, made)

    def result(self) -> DealResult:
        return {
            "complete": self.phase == OVER,
            "contract": self.contract.to_json() if self.contract else None,
            "tricks": [t.to_json() for t in self.tricks],
            "points": list(self.points),
            "made": self.made(),
            "score": self.score(),
        }

    def waiting_for(self) -> str:
        if self.phase == TRUMP:
            return Meaning("the declarer (seat {to_move}) to choose trumps", {"to_move": self.to_move})
        if self.phase == AUCTION:
            return Meaning("seat {to_move} to call", {"to_move": self.to_move})
        if self.phase == PLAY:
            return Meaning("seat {to_move} to play", {"to_move": self.to_move})
        return Meaning("the deal is over")

    def trump_text(self) -> str | None:
        return strain_text(self.trump) if self.trump_chosen else None

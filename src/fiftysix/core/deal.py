"""What both games share about one deal: phases, the seat to move, the one transition function
(:meth:`Deal.push`), tricks, copies and the move history.

Each game subclasses :class:`Deal` and fills in its auction, its card rules and its scoring.  The deal is
a plain mutable object, like a chess board: :meth:`push` validates and applies a move (a refused move
changes nothing), :meth:`push_unchecked` applies a move already known to be legal (for search), and
:meth:`copy` gives an independent deal.

Hands are kept as bitmasks (:mod:`.cardbits`): ``_once[seat]`` the cards held, ``_twice[seat]`` those held
twice (56 only).  :attr:`Deal.hands` gives them as lists of cards; completed tricks are kept as plain tuples
and become :class:`Trick` objects when :attr:`Deal.tricks` is read.
"""

from __future__ import annotations

import copy as _copy
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar, NotRequired, Protocol, TypedDict

from .cardbits import CardBits
from .cards import Card
from .errors import (
    CardNotHeldError,
    DealOverError,
    IllegalMoveError,
    MustFollowError,
    NotationError,
    NotYourTurnError,
    WrongPhaseError,
)
from .meaning import N_, Meaning
from .moves import Call, Move
from .options import Rules
from .tricks import Trick, TrickJSON

AUCTION = "auction"
DISCARD = "discard"
TRUMP = "trump"
PLAY = "play"
OVER = "over"

_NEXT_SEAT = {n: tuple((seat + 1) % n for seat in range(n)) for n in range(1, 17)}
"""The seat after each seat, per number of players."""


class Contract(Protocol):
    """What the views and records need of any game's contract."""

    def to_json(self) -> dict[str, object]:
        """The contract as records.md writes it."""
        ...


class DealResult(TypedDict):
    """A deal's result as ``fiftysix check`` prints it, without ``valid`` (records.md)."""

    complete: bool
    contract: dict[str, object] | None
    tricks: list[TrickJSON]
    points: list[int]
    made: bool | None
    score: list[int] | None
    highest_trump: NotRequired[dict[str, object] | None]   # 55: the highest trump played, its seat and card


class Deal(ABC):
    """One deal of a trick-taking game with an auction.

    :ivar rules: the game's options object.
    :ivar dealer: the dealer's seat; first hand (the seat after) calls first and leads first.
    :ivar dealt: each seat's cards as dealt, in canonical order.
    :ivar hands: each seat's cards still held.
    :ivar history: every move so far with the seat that made it, in order (worked out when read: the cards
        played are kept in the tricks only, the other moves in a short log).
    :ivar tricks: the completed tricks.
    :ivar is_over: whether the deal has ended (``phase == "over"``).
    """

    game: ClassVar[str]
    BITS: ClassVar[CardBits]
    """How the game lays its cards out as bits."""
    COPIES: ClassVar[int] = 1
    _bit: ClassVar[tuple[int, ...]]
    """``BITS.bit``, looked up once per class (see ``__init_subclass__``)."""
    phase: str
    to_move: int | None
    contract: Contract | None
    """Once the auction has ended (``None`` before, or when every seat passed)."""
    points: list[int]
    """Card points taken so far, per team or side."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        # a class attribute, not one per deal: a deal keeps few attributes (28; tests/games/test_engine_paths.py)
        # because CPython reads them fast only while there are fewer than 30 (a 30th cost 9% of the play's
        # instructions, bench/engine_count.py)
        if "BITS" in cls.__dict__:
            cls._bit = cls.BITS.bit

    def __init__(self, rules: Rules, dealer: int, hands: Sequence[Sequence[Card]]) -> None:
        """Deal ``hands`` (any order; kept sorted) with ``dealer`` dealing.

        :raises ValueError: for a card that is not in the game, or a hand holding one card more often than
            the game has copies of it (records are checked before, with a message naming the seat).
        """
        masks, copies = self.BITS.masks, self.COPIES
        once: list[int] = []
        twice: list[int] = []
        for h in hands:
            o, t = masks(h, copies)
            once.append(o)
            twice.append(t)
        self._deal_masks(rules, dealer, once, twice)

    def _deal_masks(self, rules: Rules, dealer: int, once: list[int], twice: list[int]) -> None:
        """The shared part of dealing, from each seat's masks (known to be valid; the lists are kept)."""
        self.rules = rules
        self.n: int = rules.players
        self.dealer = dealer
        self._next_seat = _NEXT_SEAT[self.n]
        self._once = once
        self._twice = twice
        self._dealt_masks = (tuple(once), tuple(twice))
        self._dealt: tuple[tuple[Card, ...], ...] | None = None
        self._hands: tuple[int, list[list[Card]]] | None = None     # (moves made, hands) once read
        self._log: list[tuple[int, int, Move]] = []     # (cards played before, seat, move) of every move but cards
        self._history: list[tuple[int, Move]] | None = None
        self._tricks: list[Trick] = []
        self._trick_rows: list[tuple[int, tuple[Card, ...], int, int]] = []
        self.trick_leader = self._next_seat[dealer]     # first hand
        self.trick_cards: list[Card] = []
        self._legal: tuple[Move, ...] | None = None
        self.is_over = False

    @property
    def dealt(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards as dealt, in display order (worked out when first read)."""
        dealt = self._dealt
        if dealt is None:
            hand, cards = self.BITS.hand, self.BITS.cards
            dealt = self._dealt = tuple(tuple(hand(o, t)) if t else cards(o)    # masks are in display order
                                        for o, t in zip(*self._dealt_masks, strict=True))
        return dealt

    @property
    def hands(self) -> list[list[Card]]:
        """Each seat's cards still held, in display order (read them; moves change them)."""
        cached, at = self._hands, self.moves_made()
        if cached is not None and cached[0] == at:
            return cached[1]
        hand = self.BITS.hand
        hands = [hand(o, t) for o, t in zip(self._once, self._twice, strict=True)]
        self._hands = (at, hands)
        return hands

    def cards_played(self) -> int:
        """How many cards have been played in this deal."""
        return len(self._trick_rows) * self.n + len(self.trick_cards)

    def moves_made(self) -> int:
        """How many moves have been made (``len(history)``, without working the history out)."""
        return len(self._log) + self.cards_played()

    @property
    def history(self) -> list[tuple[int, Move]]:
        """Every move so far with the seat that made it, in order (read it; moves change it).

        Pushing a card only adds it to its trick (a tuple a move cost the play some 6% of its time): the
        history merges the tricks' cards with the log of the other moves when it is read.
        """
        cached = self._history
        if cached is not None and len(cached) == self.moves_made():
            return cached
        log, rows, current = self._log, self._trick_rows, self.trick_cards
        following = self._next_seat
        cards: list[tuple[int, Card]] = []
        for leader, played, _, _ in (*rows, (self.trick_leader, current, 0, 0)):
            seat = leader
            for c in played:
                cards.append((seat, c))
                seat = following[seat]
        history: list[tuple[int, Move]] = []
        at = 0
        for before, seat, move in log:
            if before > at:
                history.extend(cards[at:before])
                at = before
            history.append((seat, move))
        history.extend(cards[at:])
        self._history = history
        return history

    @property
    def first_hand(self) -> int:
        """The seat after the dealer: it calls first and leads first."""
        return self._next_seat[self.dealer]

    @property
    def tricks(self) -> list[Trick]:
        """The completed tricks, in order."""
        tricks, rows = self._tricks, self._trick_rows
        if len(tricks) < len(rows):
            tricks.extend(Trick(*row) for row in rows[len(tricks):])
        return tricks

    # -- the game's parts ----------------------------------------------------------------------------
    @abstractmethod
    def sort_hand(self, cards: Sequence[Card]) -> list[Card]:
        """Cards in the game's display order."""

    @abstractmethod
    def _compute_legal(self) -> tuple[Move, ...]:
        """Legal moves of the seat to move, in a stable order."""

    @abstractmethod
    def _apply(self, move: Move) -> None:
        """Apply a move known to be legal."""

    @abstractmethod
    def _refuse(self, move: Move) -> IllegalMoveError:
        """The precise error for a move that is not legal now."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """Read a move in the notation of the current phase.

        :raises NotationError: if the text is not a move of the game at all.
        """

    @abstractmethod
    def result(self) -> DealResult:
        """The deal's result as ``fiftysix check`` prints it (records.md)."""

    # -- what a record is read and written with (records.py) --------------------------------------------
    @abstractmethod
    def parse_call(self, text: str) -> Call:
        """Read a call of the auction.

        :raises NotationError: if the text is no call of the game.
        """

    @abstractmethod
    def play_texts(self) -> list[str]:
        """The record's ``play`` field."""

    @abstractmethod
    def over_text(self) -> str:
        """Why no card may be played once the deal is over, in words."""

    @abstractmethod
    def not_ready_text(self) -> str:
        """Why no card may be played yet after the auction (trumps or a discard awaited), in words."""

    # -- the transition function -----------------------------------------------------------------------
    def _finish(self) -> None:
        """End the deal."""
        self.phase = OVER
        self.to_move = None
        self.is_over = True
        self._legal = ()

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves the seat to move may make now, in a stable order (empty when the deal is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = () if self.phase == OVER else self._compute_legal()
        return legal

    def is_legal(self, move: Move) -> bool:
        return move in self.legal_moves()

    def push(self, move: Move | str, seat: int | None = None) -> Move:
        """Validate and apply one move; returns the move as applied.

        :param move: a move object or its notation (read leniently for the current phase).
        :param seat: if given, the seat that offers the move; it must be the seat to move.
        :raises NotationError: if a text move is malformed.
        :raises IllegalMoveError: (a precise subclass) if the move is not legal now.
            Nothing changes when an error is raised.
        """
        # The card play first: a legal card goes straight in (the body of _play, inlined for speed);
        # anything else takes the general path below.
        # (Only the play's legal moves hold cards, so the phase needs no test.)
        if move.__class__ is Card:
            legal = self._legal
            if legal is None:
                legal = self.legal_moves()
            to: int = self.to_move  # type: ignore[assignment]
            if move in legal and (seat is None or seat == to):
                self._legal = None
                b = self._bit[move]
                if self._twice[to] & b:
                    self._twice[to] ^= b
                else:
                    self._once[to] ^= b
                cards = self.trick_cards
                cards.append(move)
                if len(cards) == self.n:
                    self._end_trick()
                else:
                    self.to_move = self._next_seat[to]
                return move
        if self.phase == OVER:
            raise DealOverError(N_("the deal is over; no more moves"))
        if isinstance(move, str):
            move = self.parse_move(move)
        if seat is not None and seat != self.to_move:
            raise NotYourTurnError(Meaning("it is seat {to_move}'s turn, not seat {seat}'s",
                                           {"to_move": self.to_move, "seat": seat}),
                                   [str(m) for m in self.legal_moves()])
        if not self.is_legal(move):
            raise self._refuse(move)
        self.push_unchecked(move)
        return move

    def push_unchecked(self, move: Move) -> None:
        """Apply a move that is known to be legal (search and replay of checked moves)."""
        if move.__class__ is Card and self.phase == PLAY:
            self._play(move)
            return
        assert self.to_move is not None
        self._log.append((self.cards_played() if self.phase == PLAY else 0, self.to_move, move))
        self._legal = None
        self._apply(move)

    # Attributes that never change after the deal is built or hold immutable values only: shared by copies.
    _SHARED: ClassVar[frozenset[str]] = frozenset(("rules", "contract"))
    # Flat lists of immutable values: copied with one slice.
    _FLAT: ClassVar[frozenset[str]] = frozenset(
        ("_once", "_twice", "_log", "_tricks", "_trick_rows", "trick_cards", "points", "tricks_won"))
    # Worked out when read: a copy works them out again.
    _CACHES: ClassVar[frozenset[str]] = frozenset(("_hands", "_history"))
    # Objects whose attributes are immutable values or flat lists of them (the auction).
    _FLAT_OBJECTS: ClassVar[frozenset[str]] = frozenset(("auction",))

    def copy(self) -> Deal:
        """An independent copy: moves pushed on one never show in the other."""
        return _copy.deepcopy(self)

    def __deepcopy__(self, memo: dict[int, object]) -> Deal:
        # setattr (not the new object's __dict__) keeps the copy's attributes in CPython's fast layout
        new = object.__new__(type(self))
        shared, flat, objects, caches = self._SHARED, self._FLAT, self._FLAT_OBJECTS, self._CACHES
        memo[id(self.rules)] = self.rules
        for key, value in self.__dict__.items():
            if key in caches:
                setattr(new, key, None)
            elif key in shared or value is None or isinstance(value, (int, str, tuple, frozenset)):
                setattr(new, key, value)
            elif key in flat:
                setattr(new, key, value[:])
            elif key in objects:
                part = object.__new__(type(value))
                for k, v in value.__dict__.items():
                    setattr(part, k, v[:] if type(v) is list else v)
                setattr(new, key, part)
            else:
                setattr(new, key, _copy.deepcopy(value, memo))
        return new

    # -- shared card play ------------------------------------------------------------------------------
    def _play(self, card: Card) -> None:
        """Play ``card`` (known to be legal) for the seat to move; score the trick once it is full."""
        seat = self.to_move
        assert seat is not None
        self._legal = None
        b = self._bit[card]
        if self._twice[seat] & b:
            self._twice[seat] ^= b
        else:
            self._once[seat] ^= b
        cards = self.trick_cards
        cards.append(card)
        if len(cards) == self.n:
            self._end_trick()
        else:
            self.to_move = self._next_seat[seat]

    def _end_trick(self) -> None:
        leader, cards = self.trick_leader, tuple(self.trick_cards)
        winner, points = self._score_trick(leader, cards)
        self._trick_rows.append((leader, cards, winner, points))
        self._on_trick()
        self.trick_cards = []
        self.trick_leader = winner
        self.to_move = winner
        if not self._once[winner]:
            self._finish()

    @abstractmethod
    def _score_trick(self, leader: int, cards: Sequence[Card]) -> tuple[int, int]:
        """Winner seat and points of a full trick."""

    def _on_trick(self) -> None:  # noqa: B027 - an optional hook, empty by default
        """Hook after each completed trick (the last row of ``_trick_rows``)."""

    def _card_refusal(self, card: Card, legal: Sequence[Move], follow_text: str) -> IllegalMoveError:
        seat = self.to_move
        hand = self.hands[seat] if seat is not None else []
        texts = [str(m) for m in legal]
        if card not in hand:
            held = " ".join(str(c) for c in hand)
            return CardNotHeldError(Meaning("seat {seat} does not hold {card}; holds {held}",
                                            {"seat": seat, "card": card, "held": held}), texts)
        return MustFollowError(follow_text, texts)

    def _phase_refusal(self, move: Move) -> IllegalMoveError:
        legal = [str(m) for m in self.legal_moves()]
        if isinstance(move, Card):
            if self.phase == AUCTION:
                return WrongPhaseError(N_("the auction has not ended; no card may be played yet"), legal)
            return WrongPhaseError(Meaning("no card may be played now: {waiting}",
                                           {"waiting": self.waiting_for()}), legal)
        if isinstance(move, Call):
            return WrongPhaseError(N_("the auction is over; no more calls"), legal)
        return WrongPhaseError(Meaning("{move} is not a move now: {waiting}",
                                       {"move": move, "waiting": self.waiting_for()}), legal)

    def waiting_for(self) -> str:
        """What the deal waits for, in words."""
        if self.phase == OVER:
            return "the deal is over"
        return f"seat {self.to_move} to {self.phase}"

    # -- convenience -------------------------------------------------------------------------------
    def moves_text(self) -> list[str]:
        return [str(m) for _, m in self.history]

    def card_notation_error(self, text: object) -> NotationError:
        return NotationError(Meaning("malformed card {text}", {"text": repr(text)}))

"""The seam between the games and everything generic (records, views, bots, solver, arena, server, CLI).

Each game package exposes one :class:`GameSpec`; :data:`fiftysix.games.GAMES` maps ``"56"`` and ``"55"`` to
them.  Generic code reaches a game only through it and never branches on the game's name: a third game
would add a package with its own spec and touch nothing else.

A spec gives

* the rules (``rules_from_json``, presets and their one-sentence descriptions, the option ``choices``);
* the play rule (:class:`PlayRule`: ``legal_cards``, ``trick_winner``, the card points) that the deal, the
  solver, the samplers and the bots all use;
* the record and view fields of the game, and the meaning of each call (``describe_call``);
* a seat's knowledge built from the deal (:meth:`GameSpec.observation`, an :class:`Observation` whose JSON is
  the seat's view) or read back from that view (:meth:`GameSpec.observe`), and a sampler of
  whole deals consistent with it (:meth:`GameSpec.sampler`, OpenSpiel's ``ResampleFromInfostate``);
* the state of the play for the double-dummy solver (:meth:`GameSpec.play_state`);
* the legal moves as structured objects for the browser (:meth:`GameSpec.legal_moves`);
* the fixed vocabulary of a fixed action space (the research adapters): every call, the longest auction,
  the kitty, the choices after the calls, the range of a deal's score.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..core.cards import Card, Suit
from ..core.deal import Deal
from ..core.moves import Call
from ..core.options import Rules
from .observation import JSONObject as JSONObject
from .observation import Observation as Observation
from .observation import TrickSeen as TrickSeen


class MatchLike(Protocol):
    @property
    def rules(self) -> Rules: ...

    @property
    def deal_rules(self) -> Rules: ...

    dealer: int
    over: bool
    winner: int | None
    standings: list[int]
    results: list[dict[str, object]]
    deals_booked: int       # how many deals have been booked
    end_reason: str

    @property
    def deal_number(self) -> int: ...

    def deal_from(self, hands: list[list[Card]]) -> Deal: ...

    def new_deal(self, seed: int | None = None) -> Deal: ...

    def finish(self, deal: Deal) -> dict[str, object]: ...

    def current_scores(self) -> list[int]: ...


class PlayRule(Protocol):
    """One game's card play: the one definition the deal, the solver, the samplers and the bots share.

    Each game's ``play`` module is its play rule (modules fit protocols).
    """

    COPIES: int
    """How often each card is in the pack."""
    TRICK_BONUS: int
    """What a trick is worth besides the points of its cards (55: 5, 56: 0)."""
    FAMILY: str
    """Which of the solver kernel's card-play families the rule is: ``follow`` (follow suit, no duty to
    trump) or ``trump-or-follow`` (free trumping on a plain lead; a trump lead must be trumped, with the
    renege privilege)."""
    POINTS: tuple[int, ...]
    """Card points by the card's int value."""

    def legal_cards(self, hand: Sequence[Card], trick: Sequence[Card], trump: Suit | None) -> tuple[Card, ...]:
        """The distinct cards of ``hand`` that may be played to ``trick`` (empty: a lead)."""
        ...

    def trick_winner(self, cards: Sequence[Card], trump: Suit | None) -> int:
        """The index in ``cards`` (led first) of the card winning the trick; of two identical cards the first."""
        ...

    def trick_points(self, cards: Sequence[Card]) -> int:
        """What a complete trick of ``cards`` is worth: its card points and :attr:`TRICK_BONUS`."""
        ...

    def slot(self, card: Card, trump: Suit | None) -> int:
        """The card's place for the solver kernel: ``16 * suit in play + order``, order 0 the highest."""
        ...

    def is_privileged(self, card: Card, trump: Suit | None) -> bool:
        """Whether the card has a legality rule of its own (55's renege privilege)."""
        ...


class SamplingError(Exception):
    """No deal agrees with the view (an impossible view, or the samples kept failing)."""


class Sampler(Protocol):
    """Draws whole deals consistent with one observation, each replayed to the observation's position."""

    def sample(self, rng: random.Random) -> Deal:
        """One deal consistent with the observation.

        :raises SamplingError: if no consistent deal was found.
        """
        ...


@dataclass(frozen=True)
class PlayState:
    """The play of a deal as the double-dummy solver sees it (every hand known)."""

    hands: tuple[tuple[Card, ...], ...]
    trick: tuple[Card, ...]
    leader: int
    trump: Suit | None
    team_of: tuple[int, ...]
    points: tuple[int, ...]
    bonus_team: int | None = None
    must_trump: bool = False
    approximate: bool = False
    """The solver's answer is approximate (56: a hidden trump not yet turned up acts as no trumps)."""


@dataclass(frozen=True)
class ScoreRange:
    """What one team (side) can score in one deal.

    :ivar zero_sum: whether the teams' scores of every deal sum to zero.
    """

    lowest: int
    highest: int
    zero_sum: bool


@dataclass(frozen=True)
class LegalMove:
    """A legal move for the browser: its notation, what kind of move it is, its suit and a label."""

    move: str
    kind: str           # "card", "trump", "discard", "reveal", "claim", or the call's: "bid", "pass", "double"...
    suit: str | None    # "S", "H", "D", "C" for a card or a suit trump; else None
    label: str

    def to_json(self) -> dict[str, object]:
        return {"move": self.move, "kind": self.kind, "suit": self.suit, "label": self.label}


class GameSpec(Protocol):
    name: str
    ranks: str          # rank letters the game uses, high to low (for notation and messages)
    copies: int         # how often each card exists
    side_word: str      # "team" or "side" in messages
    default_preset: str

    @property
    def play(self) -> PlayRule:
        """The game's card play."""
        ...

    choices: Mapping[str, tuple[object, ...]]
    """Every option and its allowed values (what the create form offers); a ``range`` among them allows each
    ``int`` in it (:func:`fiftysix.core.options.allows`)."""
    preset_descriptions: Mapping[str, str]
    """One sentence per preset."""
    option_descriptions: Mapping[str, Mapping[str, str]]
    """One sentence per option value worth explaining (option → value text → sentence)."""

    def rules_from_json(self, data: object) -> Rules:
        """:raises RulesError: for an unknown preset or option, or a value not allowed."""
        ...

    def rules_to_json(self, rules: Rules, full: bool = False) -> object: ...

    def presets(self) -> Mapping[str, Mapping[str, object]]: ...

    def deck(self, rules: Rules) -> list[Card]: ...

    def new_deal(self, rules: Rules, seed: int | None = None, dealer: int | None = None) -> Deal: ...

    def new_match(self, rules: Rules, first_dealer: int | None = None, seed: int | None = None) -> MatchLike: ...

    def read_setup(self, record: JSONObject, rules: Rules, dealer: int,
                   hands: list[list[Card]], match: MatchLike | None) -> Deal:
        """Check the game's own setup fields (55: the kitty) and build the deal.

        :raises RecordError:
        """
        ...

    def check_trump_field(self, record: JSONObject, rules: Rules) -> None:
        """Check the ``trump`` field's form before the auction is replayed.

        :raises RecordError:
        """
        ...

    def replay_extra(self, record: JSONObject, deal: Deal) -> None:
        """Apply what the record holds between the auction and the play (trump, 55 discard).

        :raises RecordError:
        """
        ...

    def record_extra(self, deal: Deal) -> dict[str, object]:
        """Fields the game adds to a deal record (``trump``, 55's ``kitty`` and ``discard``)."""
        ...

    def observation(self, deal: Deal, seat: int | None, match: MatchLike | None = None) -> Observation:
        """What ``seat`` may know of ``deal`` now, built from the deal (``None``: a spectator): the one rule of
        what a seat sees; the JSON view is its ``to_json()`` (:func:`fiftysix.views.view`).

        :param match: the match the deal belongs to, for the scores and the deal number.
        """
        ...

    def describe_call(self, deal: Deal, index: int) -> str:
        """The public meaning of the ``index``-th call of the auction."""
        ...

    def observe(self, view: JSONObject) -> Observation:
        """What the seat of ``view`` knows, typed.

        :raises ValueError: if the view is not a view of this game.
        """
        ...

    def sampler(self, observation: Observation, *, use_bids: bool = True, infer: bool = True,
                tries: int = 300) -> Sampler:
        """Whole deals consistent with ``observation``.

        :raises SamplingError: if no deal agrees with it.
        """
        ...

    def play_state(self, deal: Deal) -> PlayState:
        """The play of ``deal`` (in its play phase) for the solver."""
        ...

    def legal_moves(self, deal: Deal) -> list[LegalMove]:
        """The legal moves of the seat to move, structured for the browser, in ``legal_moves()`` order."""
        ...

    # -- a fixed action space (OpenSpiel, PettingZoo) ---------------------------------------------------
    def call_vocabulary(self, rules: Rules) -> list[Call]:
        """Every call an auction under ``rules`` can ever allow, in a fixed order."""
        ...

    def auction_bound(self, rules: Rules) -> int:
        """The most calls an auction under ``rules`` can hold."""
        ...

    def winning_form(self, auction: Sequence[str], rules: Rules) -> str | None:
        """The written form of the auction's last bid (a public convention: 56's ``28H`` is "number-suit"),
        ``None`` for a game whose bids have no forms or an auction without a bid (history's stats by form)."""
        ...

    def kitty_size(self, rules: Rules) -> int:
        """How many cards are dealt to the kitty (0: none)."""
        ...

    def choice_texts(self, rules: Rules) -> list[str]:
        """The moves besides calls and cards, as texts in a fixed order (trump choices, ``?``, ``CLAIM`` where
        the rules have them)."""
        ...

    def score_range(self, rules: Rules) -> ScoreRange:
        """What a team can score in one deal under ``rules``."""
        ...

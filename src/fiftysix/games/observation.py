"""What one seat knows, typed (:class:`Observation`), and its JSON, the seat's view (:class:`SeatView`).

Each game builds its observation from the deal (:meth:`~fiftysix.games.spec.GameSpec.observation`: the one rule
of what a seat may see) and reads one back from a view (:meth:`~fiftysix.games.spec.GameSpec.observe`, for
views that came from outside the process).  The view is written from the observation alone
(:meth:`Observation.to_json`), so the JSON and what the bots decide from cannot say different things.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import NotRequired, TypedDict

from ..core.cards import Card
from ..core.deal import DealResult
from ..core.options import Rules
from ..core.tricks import TrickJSON

JSONObject = Mapping[str, object]
"""A record or a view, as read from JSON."""


class TrickView(TypedDict):
    """The trick being played: who led and the cards so far."""

    leader: int
    cards: list[str]


class SeatView(TypedDict):
    """A view as JSON-ready data: the fields of ``views-and-bots.md`` (the game's own fields not required)."""

    game: str
    rules: object   # the rules as JSON (rules_to_json, full)
    seat: int | None
    dealer: int
    to_move: int | None
    phase: str
    hand: list[str] | None
    hand_sizes: list[int]
    auction: list[str]
    auction_meanings: list[str]
    contract: dict[str, object] | None
    tricks: list[TrickJSON]
    trick: TrickView | None
    points: list[int]
    match: dict[str, object] | None
    legal: NotRequired[list[str]]
    result: NotRequired[DealResult]
    trump: NotRequired[str | None]
    trump_hidden: NotRequired[bool]
    declarer: NotRequired[int | None]
    kitty_size: NotRequired[int]
    bidder: NotRequired[int | None]
    discard: NotRequired[list[str] | None]
    highest_trump: NotRequired[dict[str, object] | None]


@dataclass(frozen=True)
class TrickSeen:
    """A trick as a view shows it; ``winner`` and ``points`` are ``None`` for the trick in progress."""

    leader: int
    cards: tuple[Card, ...]
    winner: int | None = None
    points: int | None = None


@dataclass(frozen=True)
class MatchSeen:
    """The match a deal belongs to, as every seat sees it: the scores by the deal's teams, the deal's number."""

    scores: tuple[int, ...]
    deal_number: int


@dataclass(frozen=True)
class Observation:
    """What one seat knows (each game adds its own fields in a subclass): what every bot receives
    (:meth:`fiftysix.bots.base.Bot.choose`); its JSON is the seat's view (:meth:`to_json`).

    :ivar hand: the seat's cards (empty for a spectator, whose view says ``null``).
    :ivar auction_meanings: the public meaning of each call.
    :ivar contract: the contract as records write it, once the auction is over.
    :ivar trick: the trick in progress during the play, else ``None``.
    :ivar legal: the seat's legal moves when it is to move, else ``None``.
    :ivar trump_text: the view's ``trump`` field (``"H"``, ``"NT"``) or ``None``.
    :ivar contract_team: :ivar contract_value: the contract's, for the bots (``None`` and 0 without one).
    :ivar result: the deal's result once it is over.
    """

    game: str
    rules: Rules
    seat: int | None
    dealer: int
    phase: str
    to_move: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    auction: tuple[str, ...]
    auction_meanings: tuple[str, ...]
    contract: JSONObject | None
    tricks: tuple[TrickSeen, ...]
    trick: TrickSeen | None
    points: tuple[int, ...]
    match: MatchSeen | None
    legal: tuple[str, ...] | None
    trump_text: str | None
    contract_team: int | None
    contract_value: int
    result: DealResult | None

    @property
    def n(self) -> int:
        return len(self.hand_sizes)

    @property
    def first_hand(self) -> int:
        return (self.dealer + 1) % self.n

    @property
    def my_team(self) -> int | None:
        return None if self.seat is None else self.rules.team_of[self.seat]

    def all_tricks(self) -> tuple[TrickSeen, ...]:
        """The completed tricks and the trick in progress if it has cards."""
        if self.trick is not None and self.trick.cards:
            return (*self.tricks, self.trick)
        return self.tricks

    def plays(self) -> list[tuple[int, Card]]:
        """Every card played, with its seat, in order."""
        return [((t.leader + i) % self.n, c) for t in self.all_tricks() for i, c in enumerate(t.cards)]

    def to_json(self) -> SeatView:
        """The seat's view (:func:`fiftysix.views.view`): what leaves the process (the server's messages, the bot
        protocol).  A new object each time, its fields in the order views have always had."""
        trick = self.trick
        out: SeatView = {
            "game": self.game,
            "rules": self.rules.to_json(True),
            "seat": self.seat,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "phase": self.phase,
            "hand": [str(c) for c in self.hand] if self.seat is not None else None,
            "hand_sizes": list(self.hand_sizes),
            "auction": list(self.auction),
            "auction_meanings": list(self.auction_meanings),
            "contract": dict(self.contract) if self.contract is not None else None,
            "tricks": [{"leader": t.leader, "cards": [str(c) for c in t.cards],
                        "winner": t.winner or 0, "points": t.points or 0} for t in self.tricks],
            "trick": {"leader": trick.leader, "cards": [str(c) for c in trick.cards]} if trick is not None else None,
            "points": list(self.points),
            "match": ({"scores": list(self.match.scores), "deal_number": self.match.deal_number}
                      if self.match is not None else None),
        }
        out.update(self.game_json())  # type: ignore[typeddict-item]  # the game's own fields
        if self.result is not None:
            out["result"] = copy.deepcopy(self.result)
        if self.legal is not None:
            out["legal"] = list(self.legal)
        return out

    def game_json(self) -> dict[str, object]:
        """The view fields the game adds (each game's subclass says which, in its order)."""
        return {}

    def with_legal(self, legal: Sequence[str]) -> Observation:
        """The same knowledge with fewer legal moves (a searching bot asks its ``rules`` player to choose among
        the moves it kept); the JSON says the same, so an outside program sees what the bot sees."""
        return replace(self, legal=tuple(legal))

"""What the game-agnostic search bots need from a game that is not a rule of the game: its heuristic player,
its rollout policy, how it chooses calls by simulation, how deep the play is solved and what a side plays for
(the heuristic player itself registers as ``rules:<game>``).

Each game's heuristic package registers one :class:`GameKit` in :data:`KITS` (by game name, as
:data:`fiftysix.games.GAMES`); search bots (:mod:`.search`) find it with :func:`kit_for` and never branch on
the game's name.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from ..core.deal import Deal
from ..core.moves import Move
from ..games.spec import Observation, Sampler
from .base import Bot, Seen, View


@dataclass(frozen=True)
class SearchSettings:
    """The settings of a searching bot (``pimc`` or a variant of it) that its search helpers read: the
    deals sampled per card (``None``: by depth) and per call, the fast setting, the CPU seconds a decision may
    take, what a card's average points add to its chance of the goal, what a bid must gain over passing
    (``None``: the helper's own margin), whether sampled deals are weighted by the values bid, whether a
    call looks ahead to the opponents bidding on, and what 56's contract model is fitted on."""

    samples: int | None
    bid_samples: int
    fast: bool
    time_limit: float | None
    points_weight: float
    bid_margin: float | None
    weights: bool = False
    compete: bool = True
    contract_model: str = "rules"


@dataclass(frozen=True)
class SearchContext:
    """What a search helper (a game's choosers, :mod:`.search.ddplay`, :mod:`.search.alphamu`) is given for
    one decision: what the seat knows, its game's kit, the bot's settings and random generator, where its
    deals come from (``sampler()``: a new sampler at each call, as the bot makes them) and the game's ``rules``
    player for what is not searched.  The helper answers a :class:`Decision` and writes nothing back, so it
    needs neither the bot nor an import of it (typed here, below the search bots)."""

    obs: Observation
    kit: GameKit
    settings: SearchSettings
    rng: random.Random
    sampler: Callable[[], Sampler]
    fallback: Bot


@dataclass(frozen=True)
class Decision:
    """A search helper's answer: the move and the note of how it was chosen, which the bot keeps as its
    ``last`` (``how``, ``samples``, ``scores``...; :mod:`.why` reads it); ``None``: nothing searched (the
    ``rules`` player chose), the bot's note stays as it was."""

    move: str
    note: dict[str, object] | None = None


Chooser = Callable[[SearchContext, list[str]], Decision]
"""``(context, legal) → decision``: how the ``pimc`` bot makes a decision of one phase by simulation."""


class IsmctsPolicy(Protocol):
    """What ISMCTS needs to know about a game: its candidate moves, rollouts and rewards."""

    def candidates(self, deal: Deal) -> list[tuple[object, Move]]:
        """(tree key, move) pairs of the seat to move."""
        ...

    def solvable(self, deal: Deal, solve_from: int | None) -> bool:
        """Whether an iteration values this position double dummy instead of playing it out."""
        ...

    def finish(self, deal: Deal, rng: random.Random, epsilon: float, solve_from: int | None) -> list[float]:
        """Play the deal out (or solve its end) and reward each team."""
        ...


class Likelihood(Protocol):
    """How likely a sampled deal is, given what one seat knows (log, up to a constant)."""

    def log_weight(self, deal: Deal) -> float:
        ...


class CardModel(Protocol):
    """A game's learned model of where the unseen cards lie."""

    def likelihood(self, seen: Seen, strength: float = 1.0) -> Likelihood:
        """The weight of a sampled deal for ``seen`` (``strength`` 0: every deal alike; 1: the model)."""
        ...


class Goal(Protocol):
    """What a side plays for in the play phase, for the double-dummy play of ``pimc``."""

    @property
    def scale(self) -> float:
        """Points of a whole deal, to weigh a card's average points."""
        ...

    @property
    def cap(self) -> int | None:
        """The most points a contract needs (55: a bid of 60 needs all tricks, 30 points)."""
        ...

    @property
    def zero_sum(self) -> bool:
        """With two teams every point one side takes the other loses (56)."""
        ...

    def defence(self, defeat: float, n_teams: int) -> float:
        """What a defending side's card is worth when it brings the bidder's ``defeat`` (0 or 1)."""
        ...


class Trust(Protocol):
    """A game's rules of a partner people trust, judged from what a seat knows (56: :mod:`.heuristic.trust56`)."""

    def sure_for_partner(self, seen: Seen) -> bool:
        """A teammate's card is winning the trick and no later player can beat it."""
        ...

    def overtakes(self, seen: Seen, move: str) -> bool:
        """Playing ``move`` takes the trick from the teammate now winning it."""
        ...

    def overtake_avoidable(self, seen: Seen) -> list[str]:
        """When a teammate's card is sure to win: the legal cards that do not take the trick from it."""
        ...


class GameKit(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def goal(self) -> Goal: ...

    @property
    def pimc_choosers(self) -> Mapping[str, Chooser]:
        """By phase (``auction``, ``trump``, ``discard``): how ``pimc`` decides it; the play is generic."""
        ...

    @property
    def levels(self) -> Mapping[str, str]:
        """The table page's levels (``beginner``, ``club``, ``expert``), each the name of a bot of the game."""
        ...

    @property
    def replays_from_hands(self) -> bool:
        """Every card of a deal is in the seats' hands or tricks (no kitty), so a sampled deal can be replayed
        from its first move (what ``kermit``'s weighting needs)."""
        ...

    @property
    def sage_bid_margin(self) -> float | None:
        """What a bid of the ``sage`` bot must gain over passing, in the game's score (56: tables), chosen by
        duplicate-arena runs; ``None``: ``pimc``'s own margin."""
        ...

    @property
    def card_model(self) -> CardModel | None:
        """A learned model of where the unseen cards lie (what ``reader`` weighs its sampled deals by), or
        ``None``."""
        ...

    @property
    def trust(self) -> Trust | None:
        """What a trusted partner does not do in this game (``pimc``'s ``trusty``, the reasons), or ``None``."""
        ...

    def ismcts_policy(self) -> IsmctsPolicy: ...

    def dd_tricks(self, players: int, fast: bool = False) -> tuple[int, int]:
        """(exact, reach): holding at most ``exact`` cards ``pimc`` solves sampled deals for every card's value;
        at most ``reach`` it asks only whether each card keeps its goal in reach."""
        ...

    def search_depth(self, players: int) -> int:
        """Cards held at which ``ismcts`` searches the play by default (above, it plays the ``rules`` card)."""
        ...


KITS: dict[str, GameKit] = {}


def register_kit(kit: GameKit) -> None:
    KITS[kit.name] = kit


def kit_for(game: str) -> GameKit:
    """:raises ValueError: for a game without bots."""
    try:
        return KITS[game]
    except KeyError:
        raise ValueError(f"no bots for the game {game!r}; games with bots: {', '.join(KITS)}") from None


__all__ = ["KITS", "CardModel", "Chooser", "Decision", "GameKit", "Goal", "IsmctsPolicy", "Likelihood", "SearchContext",
           "SearchSettings", "View", "kit_for",
           "register_kit"]

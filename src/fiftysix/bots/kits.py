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
from typing import Any, Protocol

from ..core.deal import Deal
from ..core.moves import Move
from ..games.spec import Observation, Sampler
from .base import Bot, Seen, View


class SearchingBot(Protocol):
    """What the search helpers (a game's choosers, :mod:`.search.ddplay`, :mod:`.search.alphamu`) read of the
    bot they decide for, ``pimc`` or a variant of it, and the note of the decision they write back (``last``).
    Typed here, below the search bots, so that the helpers need not import the bot that imports them."""

    rng: random.Random
    samples: int | None
    bid_samples: int
    fast: bool
    time_limit: float | None
    points_weight: float
    bid_margin: float | None
    last: dict[str, Any]

    def sampler(self, obs: Observation) -> Sampler:
        """Where the bot's deals come from for what ``obs`` knows."""
        ...

    def fallback(self, game: str) -> Bot:
        """The game's ``rules`` bot, for what is not searched."""
        ...


Chooser = Callable[[SearchingBot, Observation, list[str]], str]
"""``(pimc bot, observation, legal) → move``: how the ``pimc`` bot makes a decision of one phase by simulation."""


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


__all__ = ["KITS", "CardModel", "Chooser", "GameKit", "Goal", "IsmctsPolicy", "Likelihood", "View", "kit_for",
           "register_kit"]

"""The in-process bot interface: a bot is given what a seat knows and answers one legal move.

A bot never receives anything but views (``docs/spec/views-and-bots.md``), so what it may know is
decided by the game's :meth:`~fiftysix.games.spec.GameSpec.observation` alone.  Inside the process a bot is
handed that :class:`~fiftysix.games.spec.Observation`, built from the deal (the server's tables, the arena, the
terminal, the suggested call); the JSON view is its ``to_json()``.  Where JSON comes in (the bot protocol, a
research table), :func:`observed` is the one place where it is read into an observation, once per decision.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from typing import Protocol, TypeVar

from ..games import DEFAULT_GAME, GAMES
from ..games.spec import Observation
from ..views import SeatView

View = SeatView
"""A seat's view (:func:`fiftysix.views.view`), the typed JSON that leaves the process."""

Seen = Observation | Mapping[str, object]
"""What a bot's ``choose`` is given: the seat's observation, or its JSON view (read once by :func:`observed`)."""


def observed(seen: Seen) -> Observation:
    """The observation of ``seen``: itself, or its JSON view read by the view's game (the one place in the
    bots where a view dict is read by key: the boundary between the JSON and the typed knowledge).

    :raises ValueError: for a malformed view or an unknown game.
    """
    if isinstance(seen, Observation):
        return seen
    game = GAMES.get(str(seen.get("game")))
    if game is None:
        raise ValueError(f"a view of an unknown game {seen.get('game')!r}")
    return game.observe(seen)


O = TypeVar("O", bound=Observation)


def observed_as(seen: Seen, kind: type[O], game: str) -> O:
    """The observation of ``seen`` (:func:`observed`) for a player of ``game`` only.

    :raises ValueError: for a view of another game.
    """
    obs = observed(seen)
    if not isinstance(obs, kind):
        raise ValueError(f"a {game} player was given a view of {obs.game}")
    return obs


def legal_moves(seen: Seen) -> list[str]:
    """The seat's legal moves (read without the rest of the view: the ``random`` bot needs nothing else).

    :raises ValueError: when it is not this seat's turn (no legal moves).
    """
    legal = seen.legal if isinstance(seen, Observation) else seen.get("legal")
    if not legal or not isinstance(legal, (list, tuple)):
        raise ValueError("the view has no legal moves: it is not this seat's turn")
    return [str(m) for m in legal]


def view_json(seen: Seen) -> Mapping[str, object]:
    """The JSON view of ``seen`` (for what leaves the process: the bot protocol's ``move`` message)."""
    return seen.to_json() if isinstance(seen, Observation) else seen


class Bot(Protocol):
    name: str

    def choose(self, seen: Seen) -> str:
        """A move from the observation's ``legal``, in notation (``seen`` read by :func:`observed`)."""
        ...


def clock() -> float:
    """The CPU time of this thread, for searching bots' time budgets: a decision's budget counts the bot's
    own work only, so that a busy machine (an arena with many workers) does not make it play worse."""
    return time.thread_time()


class RandomBot:
    """Plays uniformly among the legal moves, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, seen: Seen) -> str:
        legal = legal_moves(seen)
        return legal[self.rng.randrange(len(legal))]


Factory = Callable[..., Bot]
"""Makes a bot: ``factory(seed=..., **options)``."""


class BotRegistry:
    """Every bot by name: those that play any game (``random``, ``ismcts``) and each game's own (its heuristic
    player ``rules``; the search bots built on its kit, :mod:`.kits`).  A name asked for a game finds the
    game's own bot first, then one that plays any game."""

    def __init__(self) -> None:
        self.anywhere: dict[str, Factory] = {}
        self.games: dict[str, dict[str, Factory]] = {}
        self.unlisted: set[str] = set()
        """Bots made by spec only (measurement wrappers such as ``cardplay``): not offered to tables."""

    def register(self, name: str, factory: Factory, game: str | None = None, listed: bool = True) -> None:
        (self.anywhere if game is None else self.games.setdefault(game, {}))[name] = factory
        if not listed:
            self.unlisted.add(name)

    def factory(self, name: str, game: str) -> Factory | None:
        """The factory of ``name`` for a deal of ``game``; ``None`` when no such bot plays it."""
        return self.games.get(game, {}).get(name) or self.anywhere.get(name)

    def names(self, game: str | None = None) -> list[str]:
        """The bots that play ``game`` (``None``: every bot of every game), in the order registered."""
        own = [n for g, bots in self.games.items() if game is None or g == game for n in bots]
        return [n for n in dict.fromkeys([*self.anywhere, *own]) if n not in self.unlisted]

    def entries(self) -> list[tuple[str, str | None, Factory]]:
        """``(name, game or None, factory)`` of every registered bot."""
        return [(n, None, f) for n, f in self.anywhere.items()] + [
            (n, g, f) for g, bots in self.games.items() for n, f in bots.items()]

    def find(self, name: str, game: str, also: str = "") -> Factory:
        """:raises ValueError: for a name no bot of ``game`` has, listing the known ones (and ``also``)."""
        found = self.factory(name, game)
        if found is None:
            raise ValueError(f"unknown bot {name!r}; bots are {', '.join(sorted(self.names()))}{also}")
        return found


BOTS = BotRegistry()
BOTS.register("random", RandomBot)


def register(name: str, factory: Factory, game: str | None = None, listed: bool = True) -> None:
    """Register a bot under ``name``, for every game or for ``game`` only (``listed=False``: made by spec only,
    never offered to a table)."""
    BOTS.register(name, factory, game, listed)


def make_bot(name: str, seed: int | None = None, game: str = DEFAULT_GAME) -> Bot:
    """A bot by name (``random``, ``rules``).  ``rules`` picks the game's own heuristic bot.

    :raises ValueError: for an unknown name, listing the known ones.
    """
    return BOTS.find(name, game)(seed=seed)

"""The in-process bot interface: a bot is given what a seat knows and answers one legal move.

A bot never receives anything but views (``docs/spec/views-and-bots.md``), so what it may know is
decided by :func:`fiftysix.views.view` alone.  Inside the process a bot reads the view typed, as the game's
:class:`~fiftysix.games.spec.Observation`; the JSON view is that observation's ``to_json()``.  Callers may
still hand a bot the JSON view (the server's tables, the bot protocol, the arena): :func:`observed` is the
one place where it is read into an observation, once per decision.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ..games import DEFAULT_GAME, GAMES
from ..games.spec import Observation
from ..views import SeatView

View = SeatView
"""A seat's view (:func:`fiftysix.views.view`), the typed JSON that leaves the process."""

Seen = Observation | Mapping[str, Any]
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


def legal_moves(seen: Seen) -> list[str]:
    """The seat's legal moves (read without the rest of the view: the ``random`` bot needs nothing else).

    :raises ValueError: when it is not this seat's turn (no legal moves).
    """
    legal = seen.legal if isinstance(seen, Observation) else seen.get("legal")
    if not legal:
        raise ValueError("the view has no legal moves: it is not this seat's turn")
    return list(legal)


def view_json(seen: Seen) -> Mapping[str, Any]:
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


BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}


def register(name: str, factory: Callable[..., Bot]) -> None:
    BOTS[name] = factory


def make_bot(name: str, seed: int | None = None, game: str = DEFAULT_GAME) -> Bot:
    """A bot by name (``random``, ``rules``).  ``rules`` picks the game's own heuristic bot.

    :raises ValueError: for an unknown name, listing the known ones.
    """
    key = f"{name}:{game}" if f"{name}:{game}" in BOTS else name
    if key not in BOTS:
        known = sorted({k.split(":")[0] for k in BOTS})
        raise ValueError(f"unknown bot {name!r}; bots are {', '.join(known)}")
    return BOTS[key](seed=seed)

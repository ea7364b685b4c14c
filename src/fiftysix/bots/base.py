"""The in-process bot interface: a bot is given a seat's view and answers one legal move.

A bot never receives anything but views (``docs/spec/views-and-bots.md``), so what it may know is
decided by :func:`fiftysix.views.view` alone.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Protocol

from ..games import DEFAULT_GAME
from ..views import SeatView

View = SeatView
"""A seat's view (:func:`fiftysix.views.view`), the typed JSON a bot receives; typed seat knowledge comes from
the game's :meth:`~fiftysix.games.spec.GameSpec.observe`."""


class Bot(Protocol):
    name: str

    def choose(self, view: View) -> str:
        """A move from ``view["legal"]``, in notation."""
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

    def choose(self, view: View) -> str:
        legal: list[str] = view["legal"]
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

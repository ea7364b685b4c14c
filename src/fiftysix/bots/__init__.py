"""Computer players.  Each takes a seat view and answers a legal move (see :mod:`.base`)."""

from __future__ import annotations

import contextlib
import importlib

from .base import BOTS, Bot, RandomBot, make_bot, register

__all__ = ["BOTS", "Bot", "RandomBot", "make_bot", "register"]

# Game-specific heuristic bots register themselves as "rules:56" / "rules:55" on import; search bots
# ("ismcts") by their plain name.
for _module in ("rules56", "rules55", "ismcts", "pimc"):
    with contextlib.suppress(ModuleNotFoundError):
        importlib.import_module(f"{__name__}.{_module}")

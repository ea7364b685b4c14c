"""Computer players.  Each takes a seat view and answers a legal move (see :mod:`.base`).

:mod:`.heuristic` holds each game's own players (``rules:56``, ``rules:55``) and what the search bots need of
the game (:mod:`.kits`); :mod:`.search` the game-agnostic search bots (``pimc``, ``ismcts``); :mod:`.cardplay`
a bot that calls as ``rules`` and plays as another (the card play measured alone).
"""

from __future__ import annotations

from . import cardplay, heuristic, search
from .base import BOTS, Bot, RandomBot, make_bot, register

cardplay.register_games()

__all__ = ["BOTS", "Bot", "RandomBot", "cardplay", "heuristic", "make_bot", "register", "search"]

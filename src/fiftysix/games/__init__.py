"""The games: each registers one GameSpec here."""

from __future__ import annotations

from typing import Any

from ..core.errors import RulesError
from .fifty_six import GAME as FIFTY_SIX

GAMES: dict[str, Any] = {"56": FIFTY_SIX}

try:  # 55 registers itself when present
    from . import fifty_five

    GAMES["55"] = fifty_five.GAME  # type: ignore[attr-defined,unused-ignore]
except (ImportError, AttributeError):  # pragma: no cover
    pass


def game_named(name: str) -> Any:
    """:raises RulesError: for an unknown game."""
    try:
        return GAMES[name]
    except KeyError:
        raise RulesError(f"unknown game {name!r}; games are {', '.join(GAMES)}") from None


def game_of_preset(preset: str) -> Any:
    """The game a preset name belongs to (``56-6`` → 56, ``55-teams-4`` → 55).

    :raises RulesError: for an unknown preset.
    """
    for game in GAMES.values():
        if preset in game.presets():
            return game
    names = [p for g in GAMES.values() for p in g.presets()]
    raise RulesError(f"unknown preset {preset!r}; presets are {', '.join(names)}")

"""The games: each registers one :class:`~fiftysix.games.spec.GameSpec` here."""

from __future__ import annotations

from ..core.errors import RulesError
from ..core.meaning import Meaning
from ..core.options import Rules
from .fifty_five import GAME as FIFTY_FIVE
from .fifty_six import GAME as FIFTY_SIX
from .spec import GameSpec

GAMES: dict[str, GameSpec] = {"56": FIFTY_SIX, "55": FIFTY_FIVE}

DEFAULT_PRESET = FIFTY_SIX.default_preset
"""The preset used when none is given (the command line, the create form, a view without rules)."""
DEFAULT_GAME = FIFTY_SIX.name
"""The game of :data:`DEFAULT_PRESET`."""


def game_named(name: str) -> GameSpec:
    """:raises RulesError: for an unknown game."""
    try:
        return GAMES[name]
    except KeyError:
        raise RulesError(Meaning("unknown game {name}; games are {games}",
                                 {"name": repr(name), "games": ", ".join(GAMES)})) from None


def game_of_preset(preset: str) -> GameSpec:
    """The game a preset name belongs to (``56-6`` → 56, ``55-teams-4`` → 55).

    :raises RulesError: for an unknown preset.
    """
    for game in GAMES.values():
        if preset in game.presets():
            return game
    names = [p for g in GAMES.values() for p in g.presets()]
    raise RulesError(Meaning("unknown preset {name}; presets are {presets}",
                             {"name": repr(preset), "presets": ", ".join(names)}))


def resolve_rules(text: object = None) -> tuple[GameSpec, Rules]:
    """The game and the rules of a preset name or a rules object (``{"preset": ..., option: value}``); the
    one place where "preset → game and rules" is decided.  ``None`` means :data:`DEFAULT_PRESET`.

    :raises RulesError: for an unknown preset, option or value.
    """
    if text is None:
        text = DEFAULT_PRESET
    if isinstance(text, str):
        preset = text
    elif isinstance(text, dict):
        preset = str(text.get("preset", DEFAULT_PRESET))
    else:
        raise RulesError(Meaning("rules must be a preset name or an object of options, not {value}",
                                 {"value": repr(text)}))
    game = game_of_preset(preset)
    return game, game.rules_from_json(text)

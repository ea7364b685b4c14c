"""The event form a club owner sends, checked (pure): every refusal a sentence for the player's language."""

from __future__ import annotations

from typing import TypedDict

from ...core.errors import RulesError
from ...core.meaning import N_, Meaning
from ...games import game_of_preset
from ..edge.names import check_name
from ..state.typed_json import Received

MAX_BOARDS, MAX_TABLES = 32, 16
EVENT_NAME = 40
MAX_AHEAD = 366 * 86400     # an event starts within a year (a bigger number would not fit the database's column)


class FormError(ValueError):
    """A refused event form; its argument the :class:`Meaning` to show."""


def _count(body: Received, key: str, low: int, high: int) -> int:
    value = body.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise FormError(Meaning(N_("{what} must be a whole number from {low} to {high}"),
                                {"what": key, "low": low, "high": high}))
    return value


class NightForm(TypedDict):
    """An event's columns, checked (:func:`check_form`)."""

    name: str
    game: str
    preset: str
    level: str
    starts: int | None      # unix time; ``None``: when every table is full
    boards: int
    tables: int


def check_form(body: Received, now: int) -> NightForm:
    """The event's columns from ``body``: name, preset (its game), boards, tables, level, starts.

    :raises FormError: naming the first field refused.
    """
    try:
        name = check_name(body.get("name"), "event name", EVENT_NAME)
        game = game_of_preset(str(body.get("preset")))
    except (ValueError, RulesError) as e:
        raise FormError(e.args[0]) from None
    from ...bots.levels import levels_for  # the bots when an event is made, not at the server's start

    level = body.get("level", "club")
    if not isinstance(level, str) or level not in levels_for(game.name):
        raise FormError(Meaning(N_("level must be one of {levels}"), {"levels": ", ".join(levels_for(game.name))}))
    starts = body.get("starts")
    if starts is not None and (not isinstance(starts, int) or isinstance(starts, bool)
                               or not now <= starts <= now + MAX_AHEAD):
        raise FormError(Meaning(N_("the start time must be a time in the coming year: seconds since 1970 from "
                                   "{now} to {last}, or empty to start when every table is full"),
                                {"now": now, "last": now + MAX_AHEAD}))
    return NightForm(name=name, game=game.name, preset=str(body["preset"]), level=level, starts=starts,
                     boards=_count(body, "boards", 1, MAX_BOARDS), tables=_count(body, "tables", 2, MAX_TABLES))

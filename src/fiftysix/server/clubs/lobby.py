"""Finding a game: the public tables with a free seat, each with its host's rating.

The tables of this process are read from memory; with many processes (``--redis``) the lobbies other processes
hold are read from the database too (their rows' status and live lease, their short logs: ``Hub.lobbies_elsewhere``),
so every process lists the same tables.  One process asks nothing more of the database than the hosts' ratings.

Only a table its host made public (``"public": true`` in the create form) is listed; private tables (the
default, joined by their link's secret) and club tables never are, so the list tells nobody about them.  The
host's rating is of the table's game family, as a profile shows it (``display``, the one figure pages show;
``mu``, ``sigma``, ``provisional``, ``matches``), or ``None`` before their first rated match; the hosts' ratings
are read in one query for the whole list.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from ..matches.queries import Rating, ratings_of
from ..serving import Server
from ..state.table import LOBBY, TableState
from ..table.messages import level_of
from .store import Clubs

MOST = 100      # the list's length: newest first


def computers(state: TableState) -> tuple[str | None, str | None]:
    """The table's computer player and its level (beginner, club, expert; ``None`` for a bot of no level): of
    the seats' bots, else the bot filling empty seats; ``(None, None)`` without computers."""
    bots = [s.bot for s in state.seats if s.bot is not None] or ([state.fill] if state.fill else [])
    return (bots[0], level_of(state.game.name, bots[0])) if bots else (None, None)


class Listed(TypedDict):
    """A table the lobby lists (``host_rating`` added when the list is made)."""

    code: str
    name: str
    game: str
    preset: object
    seats: int
    free: int
    bot: str | None
    level: str | None
    host: str
    url: str
    host_rating: NotRequired[Rating | None]


def listing(state: TableState) -> Listed | None:
    """What the list shows of a table, or ``None`` when it is not listed (private, started, full)."""
    if state.created is None or state.private or state.status != LOBBY:
        return None
    free = sum(1 for seat in state.seats if seat.empty)
    if free == 0:
        return None
    rules = state.game.rules_to_json(state.rules, full=True)
    preset = rules.get("preset") if isinstance(rules, dict) else None
    bot, level = computers(state)
    return Listed(code=state.code, name=state.name, game=state.game.name, preset=preset, seats=len(state.seats),
                  free=free, bot=bot, level=level, host=state.players.get(state.host, ""), url=f"/t/{state.code}")


async def open_tables(server: Server, clubs: Clubs) -> list[Listed]:
    here = [(table.last_active, table.state) for table in list(server.hub.tables.values())]
    found = []
    for active, state in here + await server.hub.lobbies_elsewhere(4 * MOST):
        item = listing(state)
        # a club table is private already; asked again so a change there cannot leak one
        if item is not None and await clubs.club_of_table(state.code) is None:
            found.append((active, (state.host or "", state.game.name), item))
    found.sort(key=lambda entry: -entry[0])
    shown = found[:MOST]
    rated = await ratings_of(clubs.engine, {host for _, host, _ in shown})
    return [Listed(**item, host_rating=rated.get(host)) for _, host, item in shown]

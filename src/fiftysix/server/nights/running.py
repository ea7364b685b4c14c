"""Running a club night: its tables made with the teams in their seats, the owner's pause, resume and replace at
every table, the standings, and the close (the event rated once as one match).

The event's owner hosts every table of the event without a seat of their own (unless their team plays there):
the server seats each signed-up team in its direction's seats and starts the match on board 1 at once; the
seats no team took are the event level's computers.  A seated person who is not there is covered by the computer
after the table's grace period, and plays again when they come (the table's usual rule).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypedDict

from sqlalchemy.ext.asyncio import AsyncConnection

from ...core.meaning import N_
from ..edge.names import TABLE_NAME
from ..matches.store import rate_teams
from ..serving import Server, table_link
from ..state import events as ev
from ..state.table import LOBBY
from ..table.client_messages import ClientMessage
from ..table.live import LiveTable
from ..table.protocol import send_as
from .boards import directions
from .scoring import Seat, Standing, places, standings
from .store import EventTable, Night, Nights, TeamRow
from .visibility import CLOSED, shown_boards

RUNNING, PAUSED = "running", "paused"


class MadeTable(TypedDict):
    """An event table as the start answers it: its number, code and link (with its secret: for the owner)."""

    table: int
    code: str
    url: str


def event_bot(night: Night) -> str:
    """The computer player of the event's level: it fills the seats no team took and replaces members."""
    from ...bots.levels import levels_for  # the bots when an event runs, not at the server's start

    return levels_for(night["game"]).get(night["level"], "random")


@dataclass(frozen=True)
class Team:
    name: str
    seat: Seat
    players: tuple[str, ...]


def teams_of(rows: list[TeamRow]) -> list[Team]:
    return [Team(r["name"], Seat(r["table"], r["direction"]), tuple(r["players"])) for r in rows]


async def event_standings(store: Nights, night: Night) -> tuple[list[Standing], list[int]]:
    """The standings from the boards that may be shown (every table finished them, or the event is closed:
    then the others are dropped), and those boards."""
    progress = await store.progress(night["id"])
    assert progress is not None
    shown = shown_boards(progress)
    done = await store.finished(night["id"])
    results = {k: v["results"] for k, v in done.items() if k[1] in shown}
    seats = {t.name: t.seat for t in teams_of(await store.teams(night["id"]))}
    return standings(results, night["tables"], night["boards"], seats), shown


def table_name(event: str, number: int) -> str:
    """An event table's name: the event's and the table's number, the event's cut to fit a table name."""
    return f"{event[:TABLE_NAME - 1 - len(str(number))].rstrip()} {number}"


async def start_event(server: Server, store: Nights, night: Night, owner_name: str,
                      names: Mapping[str, str]) -> list[MadeTable]:
    """Make the event's tables not made yet (a start cut short goes on where it stopped), seat the teams and
    deal board 1; the tables with their links.  ``names``: the club members' names by id.

    :raises TableError, QuotaError: when a table cannot be made (the tables made so far stay)."""
    from ..clubs.routes import clubs_of

    bot = event_bot(night)
    teams = teams_of(await store.teams(night["id"]))
    made: list[EventTable] = await store.tables_of(night["id"])
    for number in range(len(made) + 1, night["tables"] + 1):
        table = await server.hub.create(night["owner"], owner_name, {
            "preset": night["preset"], "fill": bot, "name": table_name(night["name"], number), "public": False,
            "boards": night["boards"]},
            event=night["id"])
        await clubs_of(server).add_table(table.code, night["club_id"])
        await store.add_table(night["id"], number, table.code)
        made.append({"table": number, "code": table.code})
        # seated and dealt at once, by the process that writes it: a start cut short (a quota) and gone on with
        # at another process finds every table made so far dealt (a replica here could not seat it)
        await _seat_and_deal(table, night, [t for t in teams if t.seat.table == number], names)
    out: list[MadeTable] = []
    for row in made:
        live = await server.hub.get(row["code"])
        if live is None:
            continue
        if live.state.status == LOBBY:     # made by a start that stopped before dealing it
            await _seat_and_deal(live, night, [t for t in teams if t.seat.table == row["table"]], names)
        out.append({"table": row["table"], "code": row["code"], "url": table_link(row["code"], live.state.secret)})
    return out


async def _seat_and_deal(table: LiveTable, night: Night, teams: list[Team],
                         names: Mapping[str, str]) -> None:
    """The owner leaves the seat every host gets; each team sits in its direction's seats; board 1 is dealt."""
    owner = night["owner"]
    direction = directions(night["preset"])
    async with table.lock:
        state = table.state
        if state.status != LOBBY:
            return
        if state.seat_of(owner) is not None:
            await table.commit(ev.Stand(player=owner))
        for team in teams:
            seats = [s for s, d in enumerate(direction) if d == team.seat.direction]
            for player, seat in zip(team.players, seats, strict=False):
                if player not in state.players:
                    await table.commit(ev.Join(player=player, name=names.get(player, "?")))
                await table.commit(ev.Sit(player=player, seat=seat))
        seed, _fixed = await table.next_seed()
        await table.commit(ev.Start(player=owner, seed=seed, dealer=0))
    table.expect_seated()


async def at_every_table(server: Server, store: Nights, night: Night, message: ClientMessage) -> list[str]:
    """Send ``message`` to every table of the event as its host (the owner), on whichever process writes it;
    the tables' refusals."""
    refusals = []
    for row in await store.tables_of(night["id"]):
        table = await server.hub.get(row["code"])
        if table is not None:
            refusals += await send_as(server.handle, table, night["owner"], message)
    return refusals


NOT_SEATED = N_("that member has no seat at this event's tables")


async def seat_of(server: Server, store: Nights, night: Night, player: str
                  ) -> tuple[LiveTable, int] | None:
    """The event table and seat where ``player`` sits, if any."""
    for row in await store.tables_of(night["id"]):
        table = await server.hub.get(row["code"])
        seat = table.state.seat_of(player) if table is not None else None
        if table is not None and seat is not None:
            return table, seat
    return None


async def close_if_played(store: Nights, night: Night) -> None:
    """Close a running event whose every table has finished every board (from any process, any number of
    times: :func:`close_event` does it once)."""
    if night["status"] == CLOSED:
        return
    progress = await store.progress(night["id"])
    if progress is not None and progress.all_played:
        await close_event(store, night)


async def close_event(store: Nights, night: Night) -> bool:
    """Close the event and rate it once as one match of its family: the teams ranked by the final standings
    (ties share a place), people only (computers in empty seats take no part).  ``True`` if this call closed it.
    Safe to call again and from any process: the rating is written in the transaction that marks it done."""
    first = await store.set_status(night["id"], CLOSED)
    closed: Night = {**night, "status": CLOSED}
    table, _shown = await event_standings(store, closed)
    teams = {t.name: t for t in teams_of(await store.teams(night["id"]))}
    ranked = [list(teams[s.team].players) for s in table]

    async def rate(conn: AsyncConnection) -> None:
        await rate_teams(conn, night["game"], ranked, places(table), f"event:{night['id']}")
    await store.rate_once(night["id"], rate)
    return first

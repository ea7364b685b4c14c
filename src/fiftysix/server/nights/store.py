"""The club nights' rows (migrations 0009, 0010, 0011): events, teams, their tables, and the members a club's
owner allows to make events.

A finished board has no row of its own: board k is finished at table t when t's table has stored its k-th deal
(the ``deals`` row, written in the same transaction as the deal's last move). So a board is finished exactly
when its deal is stored, on every process, after any restart or kill -9: nothing can be lost between the two.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypedDict

from sqlalchemy import Boolean, Column, Integer, MetaData, String, Table, Text, delete, literal, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ..matches.schema import matches
from ..state.typed_json import Received
from ..storage.columns import CODE, FAMILY, ID, NAME, SECONDS, key, optional, required
from ..storage.db import deals
from .boards import board_result, directions
from .form import NightForm
from .scoring import Seat
from .visibility import CLOSED, Progress

metadata = MetaData()

events = Table(
    "club_events", metadata,
    *key(id=ID),
    *required(club_id=ID, owner=String(64), name=NAME, game=FAMILY, preset=String(32), boards=Integer,
              tables=Integer, level=String(16)),
    *optional(starts=SECONDS),
    *required(seed=String(64), status=String(12), created=SECONDS),
    Column("rated", Boolean, nullable=False, default=False),
)
teams = Table("club_event_teams", metadata, *key(event_id=ID, name=NAME),
              *required(table_no=Integer, direction=Integer, players=Text))
event_tables = Table("club_event_tables", metadata, *key(event_id=ID, table_no=Integer),
                     Column("code", CODE, nullable=False, unique=True))
makers = Table("club_event_makers", metadata,    # migration 0011: the members a club's owner allows to make events
               *key(club_id=ID, player=String(64)), *required(granted=SECONDS))


class Night(TypedDict):
    """An event as it leaves the store (every column but the seed)."""

    id: str
    club_id: str
    owner: str
    name: str
    game: str
    preset: str
    boards: int
    tables: int
    level: str
    starts: int | None
    status: str


class TeamRow(TypedDict):
    name: str
    table: int
    direction: int
    players: list[str]


class EventTable(TypedDict):
    table: int
    code: str


class BoardSummary(TypedDict):
    contract: Received | None       # as the deal's stored result gives it
    made: object
    code: str
    deal: int


class BoardDone(TypedDict):
    """Board ``deal`` finished at one table: each direction's result and what the board page shows of it."""

    results: list[int]
    summary: BoardSummary


PUBLIC = (events.c.id, events.c.club_id, events.c.owner, events.c.name, events.c.game, events.c.preset,
          events.c.boards, events.c.tables, events.c.level, events.c.starts, events.c.status)
"""Every column but the seed, which never leaves the server (it would give away every board)."""


class Nights:
    """The club nights in the database (``engine``: the server's)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._table_event: dict[str, tuple[str, int] | None] = {}   # code -> (event, number): never changes

    async def create(self, club_id: str, owner: str, form: NightForm) -> str:
        """A new open event; ``form`` is checked already (name, game, preset, boards, tables, level, starts)."""
        event_id = secrets.token_urlsafe(16)
        async with self.engine.begin() as conn:
            await conn.execute(events.insert().values(
                id=event_id, club_id=club_id, owner=owner, seed=secrets.token_hex(32), status="open",
                created=int(time.time()), **{k: form[k] for k in
                                             ("name", "game", "preset", "boards", "tables", "level", "starts")}))
        return event_id

    async def makers(self, club_id: str) -> list[str]:
        """The members the club's owner allows to make events (besides the owner), in the order allowed."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(makers.c.player).where(makers.c.club_id == club_id)
                                       .order_by(makers.c.granted, makers.c.player))).all()
        return [str(r.player) for r in rows]

    async def allow_maker(self, club_id: str, player: str, allowed: bool) -> None:
        """Allow ``player`` to make the club's events, or no longer (either any number of times)."""
        async with self.engine.begin() as conn:
            await conn.execute(delete(makers).where(makers.c.club_id == club_id, makers.c.player == player))
            if allowed:
                await conn.execute(makers.insert().values(club_id=club_id, player=player, granted=int(time.time())))

    async def get(self, event_id: str) -> Night | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(*PUBLIC).where(events.c.id == event_id))).first()
        return None if row is None else _night(row)

    async def seed(self, event_id: str) -> str:
        async with self.engine.connect() as conn:
            return str((await conn.execute(select(events.c.seed).where(events.c.id == event_id))).scalar_one())

    async def of_club(self, club_id: str) -> list[Night]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(*PUBLIC).where(events.c.club_id == club_id)
                                       .order_by(events.c.created.desc()).limit(100))).all()
        return [_night(r) for r in rows]

    async def set_status(self, event_id: str, status: str, was: tuple[str, ...] = ()) -> bool:
        """Move the event to ``status`` (from one of ``was`` when given; a closed event stays closed): ``True``
        if this call changed it, so that two processes starting or closing at once do it once."""
        query = update(events).where(events.c.id == event_id, events.c.status != CLOSED,
                                     events.c.status != status)
        if was:
            query = query.where(events.c.status.in_(was))
        async with self.engine.begin() as conn:
            return bool((await conn.execute(query.values(status=status))).rowcount)

    async def rate_once(self, event_id: str, rate: Callable[[AsyncConnection], Awaitable[None]]) -> bool:
        """Run ``rate`` in the transaction that marks the closed event rated, unless it is marked already."""
        async with self.engine.begin() as conn:
            marked = await conn.execute(update(events).where(events.c.id == event_id, events.c.status == CLOSED,
                                                             events.c.rated.is_(False)).values(rated=True))
            if not marked.rowcount:
                return False
            await rate(conn)
        return True

    async def sign_up(self, event_id: str, name: str, players: list[str], seat: Seat) -> bool:
        """``False`` (nothing changed) when the name or the place is taken, or a player has a team already."""
        async with self.engine.begin() as conn:
            rows = (await conn.execute(select(teams.c.players).where(teams.c.event_id == event_id))).all()
            taken = {p for r in rows for p in json.loads(r.players)}
            if taken & set(players):
                return False
            try:
                async with conn.begin_nested():
                    await conn.execute(teams.insert().values(event_id=event_id, name=name, table_no=seat.table,
                                                             direction=seat.direction, players=json.dumps(players)))
            except IntegrityError:
                return False
        return True

    async def teams(self, event_id: str) -> list[TeamRow]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(teams).where(teams.c.event_id == event_id)
                                       .order_by(teams.c.table_no, teams.c.direction))).all()
        return [{"name": str(r.name), "table": int(r.table_no), "direction": int(r.direction),
                 "players": [str(p) for p in json.loads(r.players)]} for r in rows]

    async def add_table(self, event_id: str, table_no: int, code: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(event_tables.insert().values(event_id=event_id, table_no=table_no, code=code))
        self._table_event[code] = (event_id, table_no)

    async def tables_of(self, event_id: str) -> list[EventTable]:
        """The event's tables made so far, by number."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(event_tables.c.table_no, event_tables.c.code)
                                       .where(event_tables.c.event_id == event_id)
                                       .order_by(event_tables.c.table_no))).all()
        return [{"table": int(r.table_no), "code": str(r.code)} for r in rows]

    async def running_tables(self, codes: list[str]) -> set[str]:
        """Those of ``codes`` that are tables of an event not yet closed: their matches are not shown yet."""
        if not codes:
            return set()
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(event_tables.c.code)
                                       .join(events, events.c.id == event_tables.c.event_id)
                                       .where(event_tables.c.code.in_(codes), events.c.status != CLOSED))).all()
        return {str(r.code) for r in rows}

    async def table_of(self, code: str) -> tuple[str, int] | None:
        """The event and table number of a table code, if it is an event's table (cached, as a club's table)."""
        if code in self._table_event:
            return self._table_event[code]
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(event_tables.c.event_id, event_tables.c.table_no)
                                      .where(event_tables.c.code == code))).first()
        found = None if row is None else (str(row.event_id), int(row.table_no))
        if len(self._table_event) > 50_000:
            self._table_event.clear()
        self._table_event[code] = found
        return found

    async def finished(self, event_id: str) -> dict[tuple[int, int], BoardDone]:
        """(table, board) -> {"results", "summary"} for every board finished somewhere: the event tables' stored
        deals 1..boards.  Internal: what leaves the server goes through :mod:`.visibility` first."""
        async with self.engine.connect() as conn:
            event = (await conn.execute(select(events.c.boards, events.c.preset)
                                        .where(events.c.id == event_id))).first()
            if event is None:
                return {}
            boards, width = int(event.boards), max(directions(str(event.preset))) + 1
            rows = (await conn.execute(
                select(event_tables.c.table_no, event_tables.c.code, deals.c.number, deals.c.result)
                .join(deals, deals.c.table_code == event_tables.c.code)
                .where(event_tables.c.event_id == event_id, deals.c.number <= boards))).all()
        out: dict[tuple[int, int], BoardDone] = {}
        for r in rows:
            result = r.result if isinstance(r.result, dict) else json.loads(r.result)
            results, contract, made = board_result(result, width)
            out[(int(r.table_no), int(r.number))] = BoardDone(results=results, summary=BoardSummary(
                contract=contract, made=made, code=str(r.code), deal=int(r.number)))
        return out

    async def progress(self, event_id: str) -> Progress | None:
        event = await self.get(event_id)
        if event is None:
            return None
        done = await self.finished(event_id)
        seated = {p: t["table"] for t in await self.teams(event_id) for p in t["players"]}
        return Progress(event["status"], event["tables"], event["boards"], frozenset(done), seated)


def _night(row: Any) -> Night:
    r = row._mapping
    return {"id": str(r["id"]), "club_id": str(r["club_id"]), "owner": str(r["owner"]), "name": str(r["name"]),
            "game": str(r["game"]), "preset": str(r["preset"]), "boards": int(r["boards"]),
            "tables": int(r["tables"]), "level": str(r["level"]),
            "starts": None if r["starts"] is None else int(r["starts"]), "status": str(r["status"])}


async def running_matches(conn: AsyncConnection) -> list[int]:
    """The matches at the tables of club nights not closed (from ``club_events_open`` to their tables and
    ``matches_table``: few): the only ones the nights withhold (:func:`fiftysix.server.matches.queries.profile`)."""
    return [r.id for r in await conn.execute(
        select(matches.c.id).select_from(events)
        .join(event_tables, event_tables.c.event_id == events.c.id)
        .join(matches, matches.c.table_code == event_tables.c.code)
        .where(events.c.status != literal(CLOSED, literal_execute=True)))]     # as the partial index says it

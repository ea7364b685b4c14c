"""The daily sets' rows (migration 0015): who claimed which set on which day, and the table that plays it.

A set is claimed once (the primary key day, preset, player): a second start finds the claim and resumes its
table, on any process.  A board is finished when the set's table has stored its k-th deal (the ``deals`` row,
written in the same transaction as the deal's last move), so a kill -9 either keeps a board or loses its last
move with it, and a stored board is never played again (the table deals board k only as its k-th deal).
"""

from __future__ import annotations

import json
import time
from typing import TypedDict

from sqlalchemy import Column, Integer, MetaData, String, Table, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ..nights.boards import board_result, directions
from ..state.typed_json import Received
from ..storage.columns import CODE, SECONDS, key, required
from ..storage.db import deals
from .rule import Day

metadata = MetaData()
sets = Table("daily_sets", metadata, *key(day=String(10), preset=String(32), player=String(64)),
             *required(boards=Integer, level=String(16), claimed=SECONDS),
             Column("code", CODE, nullable=True, unique=True))

STALE = 60
"""Seconds after which a claim whose table was never made (its process died making it) may be taken over."""


class Claim(TypedDict):
    day: str
    preset: str
    player: str
    boards: int
    level: str
    code: str | None


class Played(TypedDict):
    """Board ``board`` as one player's table played it."""

    results: list[int]
    contract: Received | None       # as the deal's stored result gives it
    made: object
    code: str


class DailyStore:
    """Today's deals in the database (``engine``: the server's)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._of_code: dict[str, Claim | None] = {}     # a table code's claim: never changes once made

    async def claim(self, day: str, preset: str, player: str, boards: int, level: str,
                    now: float | None = None) -> tuple[Claim, bool]:
        """The player's claim on the set, and whether this call may make its table (it made the claim, or took
        over one whose table was never made within :data:`STALE` seconds).  A second start gets the first claim
        and ``False``: one set per player per day."""
        now = time.time() if now is None else now
        async with self.engine.begin() as conn:
            try:
                async with conn.begin_nested():
                    await conn.execute(sets.insert().values(day=day, preset=preset, player=player, boards=boards,
                                                            level=level, claimed=int(now), code=None))
                return {"day": day, "preset": preset, "player": player, "boards": boards, "level": level,
                        "code": None}, True
            except IntegrityError:
                pass
            took = await conn.execute(update(sets).where(
                sets.c.day == day, sets.c.preset == preset, sets.c.player == player, sets.c.code.is_(None),
                sets.c.claimed < int(now) - STALE).values(claimed=int(now)))
            row = (await conn.execute(select(sets).where(sets.c.day == day, sets.c.preset == preset,
                                                         sets.c.player == player))).one()
        return _claim(row), bool(took.rowcount)

    async def set_code(self, claim: Claim, code: str) -> bool:
        """Record the table made for ``claim`` (once: ``False`` if another process recorded one first)."""
        async with self.engine.begin() as conn:
            done = await conn.execute(update(sets).where(
                sets.c.day == claim["day"], sets.c.preset == claim["preset"], sets.c.player == claim["player"],
                sets.c.code.is_(None)).values(code=code))
        self._of_code.pop(code, None)
        return bool(done.rowcount)

    async def get(self, day: str, preset: str, player: str) -> Claim | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(sets).where(sets.c.day == day, sets.c.preset == preset,
                                                         sets.c.player == player))).first()
        return None if row is None else _claim(row)

    async def of_code(self, code: str) -> Claim | None:
        """The claim whose table ``code`` is, if it is a daily table (cached: a table's claim never changes)."""
        if code in self._of_code:
            return self._of_code[code]
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(sets).where(sets.c.code == code))).first()
        found = None if row is None else _claim(row)
        if len(self._of_code) > 50_000:
            self._of_code.clear()
        self._of_code[code] = found
        return found

    async def played(self, day: str, preset: str) -> dict[tuple[str, int], Played]:
        """(player, board) -> what that player's table did on it, for every stored board of the day's set.
        Internal: what leaves the server goes through :func:`.rule.may_read` first."""
        async with self.engine.connect() as conn:
            return await played_in(conn, day, preset)

    async def day(self, day: str, preset: str, boards: int, over: bool) -> tuple[Day, dict[tuple[str, int], Played]]:
        """What the read rule needs of the day's set, and the stored boards it judges."""
        played = await self.played(day, preset)
        finished: dict[str, set[int]] = {}
        for player, board in played:
            finished.setdefault(player, set()).add(board)
        return Day(over, boards, {p: frozenset(b) for p, b in finished.items()}), played


async def played_in(conn: AsyncConnection, day: str, preset: str) -> dict[tuple[str, int], Played]:
    """:meth:`DailyStore.played` read in ``conn`` (the transaction that rates the day reads its field there)."""
    width = max(directions(preset)) + 1
    rows = (await conn.execute(
        select(sets.c.player, sets.c.code, sets.c.boards, deals.c.number, deals.c.result)
        .join(deals, deals.c.table_code == sets.c.code)
        .where(sets.c.day == day, sets.c.preset == preset))).all()
    out: dict[tuple[str, int], Played] = {}
    for r in rows:
        if int(r.number) > int(r.boards):
            continue
        result = r.result if isinstance(r.result, dict) else json.loads(r.result)
        results, contract, made = board_result(result, width)
        out[(str(r.player), int(r.number))] = {"results": results, "contract": contract, "made": made,
                                              "code": str(r.code)}
    return out


def _claim(row: object) -> Claim:
    r = row._mapping     # type: ignore[attr-defined]
    return {"day": str(r["day"]), "preset": str(r["preset"]), "player": str(r["player"]),
            "boards": int(r["boards"]), "level": str(r["level"]),
            "code": None if r["code"] is None else str(r["code"])}

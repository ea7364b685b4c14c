"""The asks to see a hand, in the database (migration 0012): every process of a cluster sees the same asks,
"always" answers and seen hands, and they survive the table's writer moving to another process (or a restart).

One table ``peeks``, a row per fact: ``ask`` (watcher, seat -> the watcher's name), ``always`` (watcher, seated
player) and ``seen`` (watcher -> the match number of the last hand they saw).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from sqlalchemy import Float, Integer, MetaData, String, Table, Text, and_, delete, func, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ..storage.columns import CODE, key, optional, required

if TYPE_CHECKING:
    from sqlalchemy import ColumnElement

metadata = MetaData()

peeks = Table(
    "peeks", metadata,
    *key(code=CODE, kind=String(8), watcher=String(64), other=String(64)),
    *optional(name=Text, match_no=Integer),
    *required(made=Float),
)

ASKS_MOST = 50      # a table's open asks stay few: the oldest goes


class PeekStore:
    """The ``peeks`` rows (``engine``: the server's)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def _put(self, conn: AsyncConnection, code: str, kind: str, watcher: str, other: str,
                   name: str | None = None, match_no: int | None = None) -> None:
        """One row, replacing the same key's (delete and insert: the same on SQLite and PostgreSQL)."""
        await conn.execute(delete(peeks).where(self._key(code, kind, watcher, other)))
        await conn.execute(peeks.insert().values(code=code, kind=kind, watcher=watcher, other=other, name=name,
                                                 match_no=match_no, made=time.time()))

    @staticmethod
    def _key(code: str, kind: str, watcher: str, other: str) -> ColumnElement[bool]:
        return and_(peeks.c.code == code, peeks.c.kind == kind, peeks.c.watcher == watcher, peeks.c.other == other)

    async def ask(self, code: str, watcher: str, seat: int, name: str) -> None:
        async with self.engine.begin() as conn:
            count = (await conn.execute(select(func.count()).select_from(peeks)
                                        .where(peeks.c.code == code, peeks.c.kind == "ask"))).scalar_one()
            if count >= ASKS_MOST:
                oldest = (await conn.execute(select(peeks.c.watcher, peeks.c.other).where(
                    peeks.c.code == code, peeks.c.kind == "ask").order_by(peeks.c.made).limit(1))).one()
                await conn.execute(delete(peeks).where(self._key(code, "ask", oldest[0], oldest[1])))
            await self._put(conn, code, "ask", watcher, str(seat), name=name)

    async def take_ask(self, code: str, watcher: str, seat: int) -> bool:
        """Remove ``watcher``'s ask of ``seat``; whether there was one (answered once, on whichever process)."""
        async with self.engine.begin() as conn:
            done = await conn.execute(delete(peeks).where(self._key(code, "ask", watcher, str(seat))))
            return bool(done.rowcount)

    async def allow_always(self, code: str, seated: str, watcher: str) -> None:
        async with self.engine.begin() as conn:
            await self._put(conn, code, "always", watcher, seated)

    async def allowed_always(self, code: str, seated: str, watcher: str) -> bool:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(peeks.c.made).where(self._key(code, "always", watcher, seated)))).first()
        return row is not None

    async def saw(self, code: str, watcher: str, match_no: int) -> None:
        async with self.engine.begin() as conn:
            await self._put(conn, code, "seen", watcher, "", match_no=match_no)

    async def seen_in(self, code: str, watcher: str) -> int | None:
        """The match in which ``watcher`` last saw a hand at table ``code``, or ``None``."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(peeks.c.match_no).where(self._key(code, "seen", watcher, "")))).first()
        return None if row is None or row[0] is None else int(row[0])

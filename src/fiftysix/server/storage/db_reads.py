"""Reads of the stored tables: which exist, their logs, their finished deals; and the lobby's upkeep (when a
table was last used, closing the idle lobbies).

Part of :class:`fiftysix.server.storage.db.Database` (a mixin sharing its engine).  Lookups by a code or deal number
from a URL return "not found" for a key no row can have: PostgreSQL, unlike SQLite, refuses a NUL character
in text and an integer beyond 32 bits outright.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

from sqlalchemy import bindparam, func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from ..state.typed_json import Received
from .db_schema import EXPIRED, deals, events, tables


class TableReads:
    """What the stored tables hold, read back."""

    url: str
    engine: AsyncEngine

    async def exists(self, code: str) -> bool:
        """Whether a table of this code is stored and not closed."""
        if not _storable(code):
            return False
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(tables.c.status).where(tables.c.code == code))).first()
            return row is not None and row[0] != EXPIRED

    async def codes(self, status: str | None = None) -> list[str]:
        """The codes of the stored tables (of one status), oldest first."""
        query = select(tables.c.code)
        if status is not None:
            query = query.where(tables.c.status == status)
        async with self.engine.connect() as conn:
            return [r[0] for r in await conn.execute(query.order_by(tables.c.created))]

    async def touch(self, last_used: dict[str, float]) -> None:
        """Note when tables were last in use (unix times; when they leave memory), in one transaction."""
        if not last_used:
            return
        newest = func.max if self.url.startswith("sqlite") else func.greatest
        query = (tables.update().where(tables.c.code == bindparam("c"), tables.c.status != EXPIRED)
                 .values(active=newest(func.coalesce(tables.c.active, 0), bindparam("a"))))
        async with self.engine.begin() as conn:
            await conn.execute(query, [{"c": c, "a": int(t)} for c, t in last_used.items()])

    async def expire_lobbies(self, before: float, keep: set[str]) -> int:
        """Close the lobby tables last in use before unix time ``before`` (except the codes in ``keep``:
        loaded, so in use or watched); returns how many."""
        query = select(tables.c.code).where(tables.c.status == "lobby",
                                            func.coalesce(tables.c.active, tables.c.created) < int(before))
        async with self.engine.begin() as conn:
            codes = [r[0] for r in await conn.execute(query) if r[0] not in keep]
            if codes:
                await conn.execute(tables.update().where(tables.c.code.in_(codes), tables.c.status == "lobby")
                                   .values(status=EXPIRED))
            return len(codes)

    async def deal_summaries(self, code: str, before: int, limit: int) -> list[tuple[int, Received]]:
        """Up to ``limit`` finished deals numbered below ``before``, newest first: ``(number, result)``."""
        if not _storable(code) or not -2**31 <= before < 2**31:
            return []
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(deals.c.number, deals.c.result)
                                      .where(deals.c.table_code == code, deals.c.number < before)
                                      .order_by(deals.c.number.desc()).limit(limit))
            return [(int(r[0]), _json(r[1])) for r in rows]

    async def deal_records(self, code: str, first: int, last: int) -> list[Received]:
        """The records of the finished deals numbered ``first`` to ``last``, in order (as a match's record is
        made of them: :meth:`~fiftysix.server.state.base.TableBase.match_record`)."""
        if not _storable(code):
            return []
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(deals.c.record)
                                      .where(deals.c.table_code == code, deals.c.number >= first,
                                             deals.c.number <= last).order_by(deals.c.number))
            return [_json(r[0]) for r in rows]

    async def events_of(self, code: str) -> list[Received]:
        if not _storable(code):
            return []
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(events.c.data).where(events.c.table_code == code)
                                      .order_by(events.c.version))
            return [_json(r[0]) for r in rows]

    async def events_of_tables(self, codes: list[str]) -> dict[str, list[Received]]:
        """The logs of a few short tables (lobbies) in one query, each in order."""
        found: dict[str, list[Received]] = {code: [] for code in codes}
        if not codes:
            return found
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(events.c.table_code, events.c.data).where(events.c.table_code.in_(codes))
                                      .order_by(events.c.table_code, events.c.version))
            for code, data in rows:
                found[code].append(_json(data))
        return found

    async def events_count(self, code: str) -> int:
        if not _storable(code):
            return 0
        async with self.engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(events)
                                           .where(events.c.table_code == code))).scalar_one())

    async def stream_events(self, code: str) -> AsyncIterator[Received]:
        """A table's events in order, read a batch at a time (a long log is never all in memory), as a table's
        history holds them (:class:`~fiftysix.server.table.history.History`)."""
        if not _storable(code):
            return
        async with self.engine.connect() as conn:
            rows = await conn.stream(select(events.c.data).where(events.c.table_code == code)
                                     .order_by(events.c.version).execution_options(yield_per=1000))
            async for row in rows:
                yield {**_json(row[0])}

    async def deal_record(self, code: str, number: int) -> Received | None:
        if not _storable(code) or not -2**31 <= number < 2**31:
            return None
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(deals.c.record).where(deals.c.table_code == code,
                                                                   deals.c.number == number))).first()
            return _json(row[0]) if row is not None else None


def _storable(code: str) -> bool:
    """Whether ``code`` could be a stored table code (a ``String(16)`` without NUL)."""
    return len(code) <= 16 and "\x00" not in code


def _json(value: object) -> Received:
    """A JSON column's object (SQLite's driver gives text, PostgreSQL's a dict already)."""
    loaded = json.loads(value) if isinstance(value, str) else value
    if not isinstance(loaded, dict):
        raise ValueError(f"a stored JSON object was expected, not {type(loaded).__name__}")
    return dict(loaded)     # a copy: what the caller changes is not the driver's object

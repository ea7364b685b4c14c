"""Every row of every table of a server's database, to show that a refused request changed nothing."""

from __future__ import annotations

from typing import Any

from sqlalchemy import MetaData, select
from sqlalchemy.ext.asyncio import AsyncEngine

Snapshot = dict[str, list[str]]

BOOKKEEPING = {"account_sessions": {"seen"}}
"""Columns any signed-in request may write, refused or not: when a device was last seen (for the device list)."""


_REFLECTED: dict[int, MetaData] = {}


async def snapshot(engine: AsyncEngine, skip: frozenset[str] = frozenset()) -> Snapshot:
    """Each table's rows (as sorted reprs, so the order a database returns them in does not matter), but the
    tables in ``skip`` and the :data:`BOOKKEEPING` columns.  The tables are those of the engine's first snapshot
    (reflected once: the migrations have run by then)."""
    meta = _REFLECTED.get(id(engine))
    async with engine.connect() as conn:
        if meta is None:
            meta = _REFLECTED[id(engine)] = MetaData()
            await conn.run_sync(meta.reflect)
        out: Snapshot = {}
        for name, table in sorted(meta.tables.items()):
            if name in skip:
                continue
            columns = [c for c in table.columns if c.name not in BOOKKEEPING.get(name, set())]
            rows = (await conn.execute(select(*columns))).all()
            out[name] = sorted(repr(tuple(row)) for row in rows)
    return out


def changed(before: Snapshot, after: Snapshot) -> dict[str, Any]:
    """The tables whose rows differ: name -> (rows gone, rows new)."""
    out: dict[str, Any] = {}
    for name in sorted(set(before) | set(after)):
        old, new = set(before.get(name, [])), set(after.get(name, []))
        if old != new:
            out[name] = (sorted(old - new)[:3], sorted(new - old)[:3])
    return out


class FileSnapshots:
    """:func:`snapshot` of a SQLite file read directly (some fifty times faster than through the async engine:
    one connection, no round trip through the event loop), for tests that take thousands of snapshots."""

    def __init__(self, path: str) -> None:
        import sqlite3

        self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)     # autocommit: each
        self.queries: dict[str, str] = {}                                                   # read sees the latest
        names = [r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                                 "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        for name in names:
            columns = [r[1] for r in self.conn.execute(f'PRAGMA table_info("{name}")')
                       if r[1] not in BOOKKEEPING.get(name, set())]
            self.queries[name] = f'SELECT {", ".join(chr(34) + c + chr(34) for c in columns)} FROM "{name}"'

    def __call__(self) -> Snapshot:
        return {name: sorted(repr(tuple(row)) for row in self.conn.execute(query))
                for name, query in self.queries.items()}

    def close(self) -> None:
        self.conn.close()

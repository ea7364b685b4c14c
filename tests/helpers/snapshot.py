"""Every row of every table of a server's database, to show that a refused request changed nothing."""

from __future__ import annotations

from typing import Any

from sqlalchemy import MetaData, select
from sqlalchemy.ext.asyncio import AsyncEngine

Snapshot = dict[str, list[str]]

BOOKKEEPING = {"account_sessions": {"seen"}}
"""Columns any signed-in request may write, refused or not: when a device was last seen (for the device list)."""


async def snapshot(engine: AsyncEngine, skip: frozenset[str] = frozenset()) -> Snapshot:
    """Each table's rows (as sorted reprs, so the order a database returns them in does not matter), but the
    tables in ``skip`` and the :data:`BOOKKEEPING` columns."""
    meta = MetaData()
    async with engine.connect() as conn:
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

"""The group commit's fast path on SQLite: a whole batch of appends in one call on one writer thread.

Through SQLAlchemy and aiosqlite every statement of a batch is a round trip to aiosqlite's thread (begin,
each ``executemany``, commit), and SQLAlchemy binds every row in Python: at 500 busy tables that was a third of
the server's CPU.  Here the event loop encodes the batch (orjson) and hands it over once; the writer thread runs
the same inserts and updates as :meth:`Database._write` with the standard library's ``sqlite3`` in one
transaction.  The schema stays Alembic's; the other queries still go through SQLAlchemy.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import orjson


def to_text(value: Any) -> str:
    """JSON text as SQLAlchemy's JSON column reads it back (orjson; ``json.dumps`` for what orjson refuses)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value)


@dataclass
class Batch:
    """One transaction's rows, already encoded."""

    created: list[tuple[str, int, str]] = field(default_factory=list)       # code, created, status
    status: list[tuple[str, int, str]] = field(default_factory=list)        # status, active, code
    events: list[tuple[str, int, str]] = field(default_factory=list)        # code, version, data
    deals: list[tuple[str, int, str, str]] = field(default_factory=list)    # code, number, record, result


class SqliteWriter:
    """One connection on one thread, for the appends only."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite writer")
        self._conn: sqlite3.Connection | None = None

    async def write(self, batch: Batch) -> None:
        """Commit ``batch`` in one transaction (nothing of it on failure).

        :raises sqlite3.Error: as SQLite refused it (a duplicate version, a locked database past its timeout).
        """
        await asyncio.get_running_loop().run_in_executor(self._thread, self._write, batch)

    def _connect(self) -> sqlite3.Connection:
        if self._conn is None:
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=True)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            self._conn = conn
        return self._conn

    def _write(self, batch: Batch) -> None:
        conn = self._connect()
        conn.execute("BEGIN IMMEDIATE")
        try:
            if batch.created:
                conn.executemany("INSERT INTO tables (code, created, status) VALUES (?, ?, ?)", batch.created)
            if batch.status:
                conn.executemany("UPDATE tables SET status = ?, active = ? WHERE code = ?", batch.status)
            conn.executemany("INSERT INTO events (table_code, version, data) VALUES (?, ?, ?)", batch.events)
            if batch.deals:
                conn.executemany("INSERT INTO deals (table_code, number, record, result) VALUES (?, ?, ?, ?)",
                                 batch.deals)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    async def close(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self._thread, self._close)
        self._thread.shutdown(wait=True)

"""The group commit's fast path on SQLite: a whole batch of appends in one transaction, on the event loop.

Through SQLAlchemy and aiosqlite every statement of a batch is a round trip to aiosqlite's thread (begin,
each ``executemany``, commit), and SQLAlchemy binds every row in Python: at 500 busy tables that was a third of
the server's CPU.  Here the batch is encoded by orjson and committed with the standard library's ``sqlite3`` in
one ``BEGIN IMMEDIATE … COMMIT``, directly on the event loop: about 40 µs of CPU for a batch, where even one hop
to a thread costs some 110 µs more.  That is safe because the loop never waits for SQLite here:

- the loop's connection has no busy timeout: when another connection holds the write lock (the server's other,
  rare writes go through SQLAlchemy, whose transactions need the loop to finish), the batch goes to this writer's
  own thread, which may wait;
- its commits never checkpoint the WAL (``wal_autocheckpoint=0``, and WAL commits at ``synchronous=NORMAL`` do
  not sync): every ``CHECKPOINT_ROWS`` rows a passive checkpoint runs on the writer's thread.

The schema stays Alembic's; the other queries still go through SQLAlchemy.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy.engine import make_url


def to_text(value: object) -> str:
    """JSON text as SQLAlchemy's JSON column reads it back (orjson; ``json.dumps`` for what orjson refuses)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value)


class LogGap(Exception):
    """Appends that would not follow the last stored event of their table (nothing of the batch is stored).

    The writer's memory is ahead of the log: an event it was told was stored is not there (a database that
    lost acknowledged commits, or another writer).  ``gaps``: code -> (last version stored, first version sent).
    """

    def __init__(self, gaps: dict[str, tuple[int, int]]) -> None:
        self.gaps = gaps
        super().__init__("; ".join(f"table {c}: the log ends at version {have}, not {want - 1}"
                                   for c, (have, want) in sorted(gaps.items())))


def first_versions(events: Iterable[tuple[str, int]]) -> dict[str, int]:
    """Each table's first version among ``(code, version)`` pairs (a table's rows come in order)."""
    first: dict[str, int] = {}
    for code, version in events:
        first.setdefault(code, version)
    return first


def gaps_of(first: dict[str, int], last: dict[str, int]) -> dict[str, tuple[int, int]]:
    """The tables whose first version does not follow the last one stored (``last``: code -> version; absent:
    nothing stored)."""
    return {c: (last.get(c, 0), v) for c, v in first.items() if last.get(c, 0) != v - 1}


@dataclass
class Batch:
    """One transaction's rows, already encoded."""

    created: list[tuple[str, int, str]] = field(default_factory=list)       # code, created, status
    status: list[tuple[str, int, str]] = field(default_factory=list)        # status, active, code
    events: list[tuple[str, int, str]] = field(default_factory=list)        # code, version, data
    deals: list[tuple[str, int, str, str]] = field(default_factory=list)    # code, number, record, result
    more: list[tuple[str, list[tuple[Any, ...]]]] = field(default_factory=list)   # other rows: (sql, rows)


CHECKPOINT_ROWS = 4000
"""Rows appended between two checkpoints of the WAL (on the writer's thread)."""

_BUSY = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED}


class SqliteWriter:
    """The appends' connection on the event loop, and a thread for the batches and checkpoints that may wait."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite writer")
        self._loop_conn: sqlite3.Connection | None = None      # used on the event loop's thread only
        self._thread_conn: sqlite3.Connection | None = None    # used on the writer's thread only
        self._rows = 0
        self._checkpoint: asyncio.Future[None] | None = None

    async def write(self, batch: Batch) -> None:
        """Commit ``batch`` in one transaction (nothing of it on failure).

        :raises sqlite3.Error: as SQLite refused it (a duplicate version, a database locked past 30 s).
        """
        loop = asyncio.get_running_loop()
        try:
            self._write(self._on_loop(), batch)
        except sqlite3.OperationalError as e:
            if getattr(e, "sqlite_errorcode", None) not in _BUSY:
                raise
            await loop.run_in_executor(self._thread, self._write_waiting, batch)    # another writer: wait there
        self._rows += len(batch.events)
        if self._rows >= CHECKPOINT_ROWS and (self._checkpoint is None or self._checkpoint.done()):
            self._rows = 0
            self._checkpoint = loop.run_in_executor(self._thread, self._checkpoint_wal)

    def _on_loop(self) -> sqlite3.Connection:
        if self._loop_conn is None:
            conn = sqlite3.connect(self.path, timeout=0, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA wal_autocheckpoint=0")
            self._loop_conn = conn
        return self._loop_conn

    def _waiting(self) -> sqlite3.Connection:
        if self._thread_conn is None:
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA wal_autocheckpoint=0")
            self._thread_conn = conn
        return self._thread_conn

    def _write_waiting(self, batch: Batch) -> None:
        self._write(self._waiting(), batch)

    def _checkpoint_wal(self) -> None:
        self._waiting().execute("PRAGMA wal_checkpoint(PASSIVE)")

    @staticmethod
    def _write(conn: sqlite3.Connection, batch: Batch) -> None:
        conn.execute("BEGIN IMMEDIATE")
        try:
            # one query a batch: an event only follows a stored one
            first = first_versions((e[0], e[1]) for e in batch.events)
            marks = ",".join("?" * len(first))
            last = dict(conn.execute(f"SELECT table_code, MAX(version) FROM events WHERE table_code IN ({marks}) "
                                     "GROUP BY table_code", list(first)).fetchall())
            gaps = gaps_of(first, last)
            if gaps:
                raise LogGap(gaps)
            if batch.created:
                conn.executemany("INSERT INTO tables (code, created, status) VALUES (?, ?, ?)", batch.created)
            if batch.status:
                conn.executemany("UPDATE tables SET status = ?, active = ? WHERE code = ?", batch.status)
            conn.executemany("INSERT INTO events (table_code, version, data) VALUES (?, ?, ?)", batch.events)
            if batch.deals:
                conn.executemany("INSERT INTO deals (table_code, number, record, result) VALUES (?, ?, ?, ?)",
                                 batch.deals)
            for sql, rows in batch.more:
                conn.executemany(sql, rows)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def _close_thread_conn(self) -> None:
        if self._thread_conn is not None:
            self._thread_conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            self._thread_conn.close()
            self._thread_conn = None

    async def close(self) -> None:
        if self._checkpoint is not None:
            await asyncio.gather(self._checkpoint, return_exceptions=True)
        if self._loop_conn is not None:
            self._loop_conn.close()
            self._loop_conn = None
        await asyncio.get_running_loop().run_in_executor(self._thread, self._close_thread_conn)
        self._thread.shutdown(wait=True)


def for_url(url: str) -> SqliteWriter | None:
    """The fast writer for a SQLite file (none for another database or an in-memory one)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:" \
            or parsed.database.startswith("file:"):
        return None
    return SqliteWriter(parsed.database)

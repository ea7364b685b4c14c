"""The database: an append-only log of table events, the records of finished deals, and a few settings.

The schema is created and upgraded by the Alembic migrations in :mod:`fiftysix.server.migrations`, which
run when the server starts.  Any SQLAlchemy async URL works; the server tests run on ``sqlite+aiosqlite``
(the default) and on ``postgresql+asyncpg`` (a throwaway cluster, ``tests/pg.py``).

What an append guarantees (:meth:`Database.append`): when it returns, the event is committed, durably
(PostgreSQL sessions of the server commit synchronously whatever the cluster's ``synchronous_commit``), and
it follows its table's last stored event (version N only after N-1, checked in the same transaction, one
query per table per batch): the log never has a gap.  When it raises, nothing of that table's appends in the
batch is stored: :class:`LogGap` when the log does not end where the writer believed (the table must be read
again), :class:`Fenced` when another process holds the table's lease, or the database's own error (it is
away: reported to :attr:`Database.services`, and asked every second whether it is back).

Lookups by a code or deal number from a URL return "not found" for a key no row can have: PostgreSQL,
unlike SQLite, refuses a NUL character in text and an integer beyond 32 bits outright.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    event,
    func,
    select,
    text,
)
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from . import sqlite_writer
from .matches import store as match_store
from .matches.capture import MatchEnd
from .services import DATABASE, Services, service_of
from .sqlite_writer import LogGap, first_versions, gaps_of

__all__ = ["Database", "Fenced", "LogGap"]

metadata = MetaData()

tables = Table(
    "tables", metadata,
    Column("code", String(16), primary_key=True),
    Column("created", BigInteger, nullable=False),      # unix seconds
    Column("status", String(16), nullable=False),       # the table's status, or "expired" (closed for good)
    Column("active", BigInteger, nullable=True),        # unix seconds of the last change or connection
    # the writer's lease with many processes (server/cluster/lease.py); unused by a single process
    Column("lease_owner", String(64), nullable=True),
    Column("lease_epoch", Integer, nullable=False, server_default="0"),
    Column("lease_until", Float, nullable=True),
)

EXPIRED = "expired"

events = Table(
    "events", metadata,
    Column("table_code", String(16), primary_key=True),
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("data", JSON, nullable=False),
)

deals = Table(
    "deals", metadata,
    Column("table_code", String(16), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("record", JSON, nullable=False),
    Column("result", JSON, nullable=False),
)

settings = Table(
    "settings", metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

player_generations = Table(
    "player_generations", metadata,
    Column("player_id", String(32), primary_key=True),
    Column("generation", Integer, nullable=False),     # tokens of an older generation are refused
)

MIGRATIONS = Path(__file__).with_name("migrations")


def _migrate(connection: Connection) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, "head")


BATCH = 512
PROBE_EVERY = 1.0
"""Seconds between two questions to a database that is away: is it back?"""
ACTIVE_EVERY = 60
"""Seconds between two writes of a busy table's ``active`` time (a status change is written at once)."""


@dataclass
class _Append:
    code: str
    version: int
    data: dict[str, Any]
    status: str
    finished: tuple[int, dict[str, Any], dict[str, Any]] | None
    done: asyncio.Future[None]
    epoch: int | None = None
    deal_facts: dict[str, Any] | None = None     # who played the finished deal (server/matches)
    match_end: MatchEnd | None = None            # the match it finished: stored and rated in this transaction


class Fenced(Exception):
    """An append by a writer whose lease another process has taken since (its fencing epoch is old)."""


class Database:
    """The server's one way to the database."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: AsyncEngine = create_async_engine(url, **_engine_options(url))
        if url.startswith("sqlite"):
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self._pending: asyncio.Queue[_Append] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self._stored: dict[str, tuple[str, int]] = {}   # code -> (status, active) last written
        self._fast = _sqlite_writer(url)
        self.services = Services()      # whether the database (and, with many processes, Redis) answers
        self.services.listeners.append(self._watch_service)
        self._probe: asyncio.Task[None] | None = None

    def _watch_service(self, service: str, ok: bool) -> None:
        """While the database is away, ask it every second whether it is back (so tables waiting for a person,
        with nothing to write, hear of its return too)."""
        if service == DATABASE and not ok and (self._probe is None or self._probe.done()):
            self._probe = asyncio.get_running_loop().create_task(self._probe_loop(), name="database probe")

    async def _probe_loop(self) -> None:
        while not self.services.ok(DATABASE):
            await asyncio.sleep(PROBE_EVERY)
            try:
                async with self.engine.connect() as conn:
                    await conn.execute(text("SELECT 1"))
            except Exception:
                continue
            self.services.report(DATABASE, True)

    async def migrate(self) -> None:
        """Create or upgrade the schema (Alembic, programmatically).  On PostgreSQL processes starting at
        once take turns (a transaction-scoped advisory lock), so only the first one migrates."""
        async with self.engine.begin() as conn:
            if self.url.startswith("postgresql"):
                await conn.execute(text("SELECT pg_advisory_xact_lock(5655)"))
            await conn.run_sync(_migrate)

    async def close(self) -> None:
        if self._probe is not None:
            self._probe.cancel()
        if self._writer is not None:
            while not self._pending.empty():
                await asyncio.sleep(0.01)
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
        if self._fast is not None:
            await self._fast.close()
        await self.engine.dispose()

    async def secret(self) -> str:
        """The key that signs player tokens, made once and kept so tokens survive a restart."""
        async with self.engine.begin() as conn:
            row = (await conn.execute(select(settings.c.value).where(settings.c.key == "secret"))).first()
            if row is not None:
                return str(row[0])
            value = secrets.token_urlsafe(32)
            await conn.execute(settings.insert().values(key="secret", value=value))
            return value

    async def generations(self) -> dict[str, int]:
        """Every player who ever signed out everywhere, and their current token generation."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(player_generations.c.player_id, player_generations.c.generation))
            return {r[0]: int(r[1]) for r in rows}

    async def sign_out(self, player_id: str) -> int:
        """Bump ``player_id``'s token generation (committed); the new generation."""
        async with self.engine.begin() as conn:
            row = (await conn.execute(select(player_generations.c.generation)
                                      .where(player_generations.c.player_id == player_id))).first()
            if row is None:
                await conn.execute(player_generations.insert().values(player_id=player_id, generation=1))
                return 1
            generation = int(row[0]) + 1
            await conn.execute(player_generations.update().where(player_generations.c.player_id == player_id)
                               .values(generation=generation))
            return generation

    async def append(self, code: str, version: int, data: dict[str, Any], status: str,
                     finished: tuple[int, dict[str, Any], dict[str, Any]] | None = None,
                     epoch: int | None = None, deal_facts: dict[str, Any] | None = None,
                     match_end: MatchEnd | None = None) -> None:
        """Store one event (and the record of the deal it finished); returns once it is committed.

        ``deal_facts`` and ``match_end`` (:mod:`.matches`): the finished deal's people and the match it
        finished, written (and the match rated) in the same transaction as the event.

        Appends from all tables are committed together by one writer task (group commit), so a busy
        server pays for one transaction per batch, not per move.  ``epoch`` (many processes only): the
        writer's lease epoch, checked against the table's row in the same transaction.

        An event is stored only right after the last stored event of its table (version N after N-1, checked
        in the same transaction), so the log never has a gap, whatever the writer believed was stored.

        :raises Fenced: when the table's lease epoch is no longer ``epoch`` (nothing is stored).
        :raises LogGap: when the table's log does not end at ``version - 1`` (nothing is stored).
        """
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_loop(), name="database writer")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.put_nowait(_Append(code, version, data, status, finished, done, epoch, deal_facts, match_end))
        await done

    async def _write_loop(self) -> None:
        while True:
            batch = [await self._pending.get()]
            while not self._pending.empty() and len(batch) < BATCH:
                batch.append(self._pending.get_nowait())
            try:
                await self._write(batch)
            except Exception as e:
                if service_of(e) == DATABASE:     # the database is away: every append of the batch fails
                    self.services.report(DATABASE, False)
                    for item in batch:
                        if not item.done.done():
                            item.done.set_exception(e)
                    continue
                for item in batch:      # one bad append must not fail the others: write them one by one
                    try:
                        await self._write([item])
                    except Exception as e:
                        if not item.done.done():
                            item.done.set_exception(e)
                    else:
                        if not item.done.done():
                            item.done.set_result(None)
            else:
                self.services.report(DATABASE, True)
                for item in batch:
                    if not item.done.done():
                        item.done.set_result(None)

    async def _write(self, batch: list[_Append]) -> None:
        now = int(time.time())
        # a table's row changes when its status does, or (for lobby expiry) every ACTIVE_EVERY seconds of
        # use, not at every move of a busy table
        changed = [(c, st) for c, st in {a.code: a.status for a in batch}.items() if self._row_stale(c, st, now)]
        if self._fast is not None and not any(a.match_end is not None for a in batch):   # a match end: below
            text = sqlite_writer.to_text
            await self._fast.write(sqlite_writer.Batch(
                created=[(a.code, int(a.data.get("time", 0)), a.status) for a in batch
                         if a.data.get("kind") == "create"],
                status=[(st, now, c) for c, st in changed],
                events=[(a.code, a.version, text(a.data)) for a in batch],
                deals=[(a.code, a.finished[0], text(a.finished[1]), text(a.finished[2]))
                       for a in batch if a.finished is not None],
                more=[(match_store.DEAL_SEATS_SQL, [(r["table_code"], r["number"], r["match_no"], text(r["facts"]))
                                                   for r in _deal_rows(batch)])]))
        else:
            await self._write_through_engine(batch, changed, now)
        if len(self._stored) >= 50_000:
            self._stored.clear()
        for c, st in changed:   # committed: remember what the rows now hold
            self._stored[c] = (st, now)

    async def _write_through_engine(self, batch: list[_Append], changed: list[tuple[str, str]], now: int) -> None:
        async with self.engine.begin() as conn:
            created = [a for a in batch if a.data.get("kind") == "create"]
            if created:
                await conn.execute(tables.insert(), [{"code": a.code, "created": int(a.data.get("time", 0)),
                                                      "status": a.status} for a in created])
            fenced = {a.code: a.epoch for a in batch if a.epoch is not None}
            if fenced:      # rows locked: a new holder's epoch bump waits for this transaction, or this sees it
                leases = await conn.execute(select(tables.c.code, tables.c.lease_epoch)
                                            .where(tables.c.code.in_(list(fenced))).with_for_update())
                held = {r[0]: int(r[1]) for r in leases}
                lost = sorted(c for c, e in fenced.items() if held.get(c) != e)
                if lost:
                    raise Fenced(f"lease lost for table {', '.join(lost)}: another process writes it now")
            first = first_versions([(a.code, a.version) for a in batch])   # an event only follows a stored one
            last = {r[0]: int(r[1]) for r in await conn.execute(
                select(events.c.table_code, func.max(events.c.version))
                .where(events.c.table_code.in_(list(first))).group_by(events.c.table_code))}
            gaps = gaps_of(first, last)
            if gaps:
                raise LogGap(gaps)
            rows = [{"c": c, "s": st, "a": now} for c, st in changed]
            if rows:
                await conn.execute(tables.update().where(tables.c.code == bindparam("c"))
                                   .values(status=bindparam("s"), active=bindparam("a")), rows)
            await conn.execute(events.insert(), [{"table_code": a.code, "version": a.version, "data": a.data}
                                                 for a in batch])
            deals_done = [a for a in batch if a.finished is not None]
            if deals_done:
                await conn.execute(deals.insert(), [{"table_code": a.code, "number": a.finished[0],
                                                     "record": a.finished[1], "result": a.finished[2]}
                                                    for a in deals_done if a.finished is not None])
            await match_store.write_deals(conn, _deal_rows(batch))
            for a in batch:
                if a.match_end is not None:
                    await match_store.record_match(conn, a.match_end)

    def forget_row(self, code: str) -> None:
        """Another process may have written the table's row since this one did (many processes): write it at
        the next append, whatever this process last wrote."""
        self._stored.pop(code, None)

    def _row_stale(self, code: str, status: str, now: int) -> bool:
        stored = self._stored.get(code)
        return stored is None or stored[0] != status or status == "lobby" or now - stored[1] >= ACTIVE_EVERY

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

    async def deal_summaries(self, code: str, before: int, limit: int) -> list[tuple[int, dict[str, Any]]]:
        """Up to ``limit`` finished deals numbered below ``before``, newest first: ``(number, result)``."""
        if not _storable(code) or not -2**31 <= before < 2**31:
            return []
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(deals.c.number, deals.c.result)
                                      .where(deals.c.table_code == code, deals.c.number < before)
                                      .order_by(deals.c.number.desc()).limit(limit))
            return [(int(r[0]), _json(r[1])) for r in rows]

    async def deal_records(self, code: str, first: int, last: int) -> list[dict[str, Any]]:
        """The records of the finished deals numbered ``first`` to ``last``, in order."""
        if not _storable(code):
            return []
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(deals.c.record)
                                      .where(deals.c.table_code == code, deals.c.number >= first,
                                             deals.c.number <= last).order_by(deals.c.number))
            return [_json(r[0]) for r in rows]

    async def events_of(self, code: str) -> list[dict[str, Any]]:
        if not _storable(code):
            return []
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(events.c.data).where(events.c.table_code == code)
                                      .order_by(events.c.version))
            return [_json(r[0]) for r in rows]

    async def events_count(self, code: str) -> int:
        if not _storable(code):
            return 0
        async with self.engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(events)
                                           .where(events.c.table_code == code))).scalar_one())

    async def stream_events(self, code: str) -> AsyncIterator[dict[str, Any]]:
        """A table's events in order, read a batch at a time (a long log is never all in memory)."""
        if not _storable(code):
            return
        async with self.engine.connect() as conn:
            rows = await conn.stream(select(events.c.data).where(events.c.table_code == code)
                                     .order_by(events.c.version).execution_options(yield_per=1000))
            async for row in rows:
                yield _json(row[0])

    async def deal_record(self, code: str, number: int) -> dict[str, Any] | None:
        if not _storable(code) or not -2**31 <= number < 2**31:
            return None
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(deals.c.record).where(deals.c.table_code == code,
                                                                   deals.c.number == number))).first()
            return _json(row[0]) if row is not None else None


def _deal_rows(batch: list[_Append]) -> list[dict[str, Any]]:
    return [match_store.deal_row(a.code, a.finished[0], a.deal_facts.get("match_no", 0), a.deal_facts)
            for a in batch if a.finished is not None and a.deal_facts is not None]


def _engine_options(url: str) -> dict[str, Any]:
    """PostgreSQL: every commit of ours is durable before it is acknowledged (``synchronous_commit`` on for our
    sessions, whatever the cluster's default: an acknowledged move must survive the database's crash), and a
    pooled connection is checked before use, so the connections a restart of the database killed are replaced
    instead of failing one request each."""
    if make_url(url).get_backend_name() != "postgresql":
        return {}
    options: dict[str, Any] = {"pool_pre_ping": True}
    if make_url(url).get_driver_name() == "asyncpg":
        options["connect_args"] = {"server_settings": {"synchronous_commit": "on"}, "timeout": 5}
    return options


def _storable(code: str) -> bool:
    """Whether ``code`` could be a stored table code (a ``String(16)`` without NUL)."""
    return len(code) <= 16 and "\x00" not in code


def _json(value: Any) -> dict[str, Any]:
    return json.loads(value) if isinstance(value, str) else dict(value)


def _sqlite_writer(url: str) -> sqlite_writer.SqliteWriter | None:
    """The fast writer for a SQLite file (none for another database or an in-memory one)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:" \
            or parsed.database.startswith("file:"):
        return None
    return sqlite_writer.SqliteWriter(parsed.database)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()

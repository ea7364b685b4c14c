"""The database: an append-only log of table events, the records of finished deals, and a few settings.

:class:`Database` is composed of its parts: the engine, the migrations and the service probe (here), the log's
writer (:mod:`.db_writer`, ``append``), the reads of stored tables (:mod:`.db_reads`), and the schema
(:mod:`.db_schema`).

The schema is created and upgraded by the Alembic migrations in :mod:`fiftysix.server.storage.migrations`, which
run when the server starts.  Any SQLAlchemy async URL works; the server tests run on ``sqlite+aiosqlite``
(the default) and on ``postgresql+asyncpg`` (a throwaway cluster, ``tests/pg.py``).

What an append guarantees (:meth:`Database.append`): when it returns, the event is committed, durably
(PostgreSQL sessions of the server commit synchronously whatever the cluster's ``synchronous_commit``), and
it follows its table's last stored event (version N only after N-1, checked in the same transaction, one
query per table per batch): the log never has a gap.  When it raises, nothing of that table's appends in the
batch is stored: :class:`LogGap` when the log does not end where the writer believed (the table must be read
again), :class:`Fenced` when another process holds the table's lease, or the database's own error (it is
away: reported to :attr:`Database.services`, and asked every second whether it is back).
"""

from __future__ import annotations

import ast
import asyncio
import functools
import secrets
from typing import TypedDict

from sqlalchemy import event, select, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from ..services import DATABASE, Services
from .db_reads import TableReads
from .db_schema import EXPIRED, MIGRATIONS, deals, events, metadata, player_generations, settings, tables
from .db_writer import Fenced, TableLogWriter
from .sqlite_writer import LogGap

__all__ = ["EXPIRED", "MIGRATIONS", "Database", "Fenced", "LogGap", "deals", "events", "metadata", "tables"]

PROBE_EVERY = 1.0
"""Seconds between two questions to a database that is away: is it back?"""


def _migrate(connection: Connection) -> None:
    from alembic import command  # only when the schema is not at the head (:func:`heads`): a quick start
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, "head")


@functools.cache
def heads() -> frozenset[str]:
    """The head revisions of the migrations, read from their files' ``revision`` and ``down_revision`` (without
    importing Alembic, which takes a second of a start)."""
    revisions: set[str] = set()
    below: set[str] = set()
    for path in (MIGRATIONS / "versions").glob("*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target, expression = node.targets[0], node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:     # revision: str = "..."
                target, expression = node.target, node.value
            else:
                continue
            if isinstance(target, ast.Name) and target.id in ("revision", "down_revision"):
                value = ast.literal_eval(expression)
                names = {value} if isinstance(value, str) else set(value or ())
                (revisions if target.id == "revision" else below).update(names)
    return frozenset(revisions - below)


class Database(TableLogWriter, TableReads):
    """The server's one way to the database."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: AsyncEngine = create_async_engine(url, **_engine_options(url))
        if url.startswith("sqlite"):
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self._init_writer(url)
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
        once take turns (a transaction-scoped advisory lock), so only the first one migrates.  A database at the
        head already (the stored revision, read first) is left alone without importing Alembic."""
        if await self._at_head():
            return
        async with self.engine.begin() as conn:
            if self.url.startswith("postgresql"):
                await conn.execute(text("SELECT pg_advisory_xact_lock(5655)"))
            await conn.run_sync(_migrate)

    async def _at_head(self) -> bool:
        """Whether the stored revision is the migrations' head (no table of revisions: not yet)."""
        try:
            async with self.engine.connect() as conn:
                stored = {str(r[0]) for r in await conn.execute(text("SELECT version_num FROM alembic_version"))}
        except SQLAlchemyError:
            return False
        try:
            return bool(stored) and stored == heads()
        except (ValueError, SyntaxError):       # a migration file this reading does not follow: Alembic decides
            return False

    async def close(self) -> None:
        if self._probe is not None:
            self._probe.cancel()
        await self._close_writer()
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


class _ConnectArgs(TypedDict):
    server_settings: dict[str, str]
    timeout: float


class _EngineOptions(TypedDict, total=False):
    pool_pre_ping: bool
    connect_args: _ConnectArgs


def _engine_options(url: str) -> _EngineOptions:
    """PostgreSQL: every commit of ours is durable before it is acknowledged (``synchronous_commit`` on for our
    sessions, whatever the cluster's default: an acknowledged move must survive the database's crash), and a
    pooled connection is checked before use, so the connections a restart of the database killed are replaced
    instead of failing one request each."""
    if make_url(url).get_backend_name() != "postgresql":
        return {}
    options = _EngineOptions(pool_pre_ping=True)
    if make_url(url).get_driver_name() == "asyncpg":
        options["connect_args"] = _ConnectArgs(server_settings={"synchronous_commit": "on"}, timeout=5)
    return options


def _sqlite_pragmas(dbapi_connection: DBAPIConnection, _record: object) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()

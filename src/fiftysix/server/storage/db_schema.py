"""The database's tables (SQLAlchemy Core): the tables, their event logs, finished deals, settings and
sign-out generations.  The schema is made and upgraded by the Alembic migrations in ``MIGRATIONS``."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import JSON, BigInteger, Column, Float, Integer, MetaData, String, Table, Text

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

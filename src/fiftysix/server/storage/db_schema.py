"""The database's tables (SQLAlchemy Core): the tables, their event logs, finished deals, settings and
sign-out generations.  The schema is made and upgraded by the Alembic migrations in ``MIGRATIONS``."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import JSON, Column, Float, Integer, MetaData, String, Table, Text

from .columns import CODE, PLAYER, SECONDS, key, optional, required

metadata = MetaData()

tables = Table(
    "tables", metadata,
    *key(code=CODE),
    *required(created=SECONDS, status=String(16)),      # status: the table's, or "expired" (closed for good)
    *optional(active=SECONDS),                           # the last change or connection
    # the writer's lease with many processes (server/cluster/lease.py); unused by a single process
    *optional(lease_owner=String(64)),
    Column("lease_epoch", Integer, nullable=False, server_default="0"),
    *optional(lease_until=Float),
)

EXPIRED = "expired"

events = Table("events", metadata, *key(table_code=CODE, version=Integer), *required(data=JSON))

deals = Table("deals", metadata, *key(table_code=CODE, number=Integer), *required(record=JSON, result=JSON))

settings = Table("settings", metadata, *key(key=String(64)), *required(value=Text))

player_generations = Table(
    "player_generations", metadata,
    *key(player_id=PLAYER),
    *required(generation=Integer),      # tokens of an older generation are refused
)

MIGRATIONS = Path(__file__).with_name("migrations")

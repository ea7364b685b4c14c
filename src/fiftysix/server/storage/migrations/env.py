"""Alembic environment: the server passes an open connection in ``config.attributes``."""

from __future__ import annotations

from alembic import context

from fiftysix.server.storage.db import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the server always passes its connection
    raise RuntimeError("run the migrations through fiftysix.server.storage.db.Database.migrate")
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()

"""The first schema: tables, their event log, finished deals and settings.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fiftysix.server.storage.columns import CODE, SECONDS, key, required

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table("tables", *key(code=CODE), *required(created=SECONDS, status=sa.String(16)))
    op.create_table("events", *key(table_code=CODE, version=sa.Integer), *required(data=sa.JSON))
    op.create_table("deals", *key(table_code=CODE, number=sa.Integer), *required(record=sa.JSON, result=sa.JSON))
    op.create_table("settings", *key(key=sa.String(64)), *required(value=sa.Text))


def downgrade() -> None:
    for name in ("settings", "deals", "events", "tables"):
        op.drop_table(name)

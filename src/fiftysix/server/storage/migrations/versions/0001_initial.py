"""The first schema: tables, their event log, finished deals and settings.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("created", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("table_code", sa.String(16), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("data", sa.JSON, nullable=False),
    )
    op.create_table(
        "deals",
        sa.Column("table_code", sa.String(16), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("record", sa.JSON, nullable=False),
        sa.Column("result", sa.JSON, nullable=False),
    )
    op.create_table(
        "settings",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for name in ("settings", "deals", "events", "tables"):
        op.drop_table(name)

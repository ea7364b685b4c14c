"""Asks to see a hand (issue 43), kept in the database so that every process sees them and they outlive the
table's writer: open asks, "always" answers and who saw a hand in which match.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_peeks"
down_revision = "0011_club_event_makers"


def upgrade() -> None:
    op.create_table(
        "peeks",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("kind", sa.String(8), primary_key=True),       # ask, always, seen
        sa.Column("watcher", sa.String(64), primary_key=True),
        sa.Column("other", sa.String(64), primary_key=True),     # ask: the seat; always: the seated player
        sa.Column("name", sa.Text, nullable=True),                # ask: the watcher's name
        sa.Column("match_no", sa.Integer, nullable=True),         # seen: the match the hand was seen in
        sa.Column("made", sa.Float, nullable=False),              # when (seconds since 1970)
    )


def downgrade() -> None:
    op.drop_table("peeks")

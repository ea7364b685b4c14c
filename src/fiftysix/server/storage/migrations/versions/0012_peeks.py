"""Asks to see a hand (issue 43), kept in the database so that every process sees them and they outlive the
table's writer: open asks, "always" answers and who saw a hand in which match.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fiftysix.server.storage.columns import CODE, key, optional, required

revision = "0012_peeks"
down_revision = "0011_club_event_makers"


def upgrade() -> None:
    op.create_table(
        "peeks",
        *key(code=CODE,
             kind=sa.String(8),                             # ask, always, seen
             watcher=sa.String(64),
             other=sa.String(64)),                          # ask: the seat; always: the seated player
        *optional(name=sa.Text,                             # ask: the watcher's name
                  match_no=sa.Integer),                     # seen: the match the hand was seen in
        *required(made=sa.Float),                           # when (seconds since 1970)
    )


def downgrade() -> None:
    op.drop_table("peeks")

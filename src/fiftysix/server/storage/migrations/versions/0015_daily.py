"""Today's deals (issue 58): one row per player, day and set, claimed once (a second start resumes it), with the
code of the table that plays the set.  A board's result is that table's stored deal (no row of its own).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fiftysix.server.storage.columns import CODE, SECONDS, key, optional, required

revision = "0015_daily"
down_revision = "0014_person_stats"


def upgrade() -> None:
    op.create_table(
        "daily_sets",
        *key(day=sa.String(10), preset=sa.String(32), player=sa.String(64)),   # UTC date, the set, who plays
        *required(boards=sa.Integer, level=sa.String(16), claimed=SECONDS),     # the set's size, computers' level
        *optional(code=CODE),                          # the player's table, once made (NULL while it is made)
    )
    op.create_index("daily_sets_code", "daily_sets", ["code"], unique=True)


def downgrade() -> None:
    op.drop_index("daily_sets_code", table_name="daily_sets")
    op.drop_table("daily_sets")

"""The day's own rating (issue 58): one row per day and set once its ranking has fed the "daily" ratings, written
in the transaction of those rating changes, so a set's day is rated exactly once whichever process closes it.
The ratings themselves are rows of ``ratings`` under a family of their own (``daily-56``, ``daily-55``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fiftysix.server.storage.columns import SECONDS, key, required

revision = "0016_daily_rating"
down_revision = "0015_daily"


def upgrade() -> None:
    op.create_table(
        "daily_rated",
        *key(day=sa.String(10), preset=sa.String(32)),      # UTC date, the set
        *required(rated=SECONDS, players=sa.Integer),       # when, and how many finishers it rated
    )


def downgrade() -> None:
    op.drop_table("daily_rated")

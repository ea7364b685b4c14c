"""A name for each signed-in device (issue 57): its owner names it when it signs in ("Asha's phone"), so two
phones of one make ("Chrome · Android") are told apart.  NULL until named; the list then shows the label.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_device_names"
down_revision = "0016_daily_rating"


def upgrade() -> None:
    op.add_column("account_sessions", sa.Column("name", sa.String(40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("account_sessions") as batch:
        batch.drop_column("name")

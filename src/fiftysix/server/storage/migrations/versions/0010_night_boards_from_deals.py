"""Club nights: a board is finished when its table's deal is stored (the ``deals`` row), so the boards' own rows
go; an event notes that its one rating update is done (issue 44: club nights).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_night_boards_from_deals"
down_revision = "0009_club_nights"


def upgrade() -> None:
    op.drop_table("club_event_boards")
    op.add_column("club_events", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("club_events") as batch:
        batch.drop_column("rated")
    op.create_table(
        "club_event_boards",
        sa.Column("event_id", sa.String(40), primary_key=True),
        sa.Column("table_no", sa.Integer, primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("results", sa.Text, nullable=False),
        sa.Column("summary", sa.Text, nullable=False),
        sa.Column("finished", sa.BigInteger, nullable=False),
    )

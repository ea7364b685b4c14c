"""Club nights: a board is finished when its table's deal is stored (the ``deals`` row), so the boards' own rows
go; an event notes that its one rating update is done (issue 44: club nights).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fiftysix.server.storage.columns import ID, SECONDS, key, required

revision = "0010_night_boards_from_deals"
down_revision = "0009_club_nights"


def upgrade() -> None:
    op.drop_table("club_event_boards")
    op.add_column("club_events", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("club_events") as batch:
        batch.drop_column("rated")
    op.create_table("club_event_boards", *key(event_id=ID, table_no=sa.Integer, board=sa.Integer),
                    *required(results=sa.Text, summary=sa.Text, finished=SECONDS))

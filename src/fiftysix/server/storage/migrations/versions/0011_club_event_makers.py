"""Club nights: the members a club's owner allows to make events (issue 44: "a club's owner, or a member they
allow, creates an event").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fiftysix.server.storage.columns import ID, SECONDS, key, required

revision = "0011_club_event_makers"
down_revision = "0010_night_boards_from_deals"


def upgrade() -> None:
    op.create_table(
        "club_event_makers",                                # a row while the owner allows that member
        *key(club_id=ID, player=sa.String(64)),
        *required(granted=SECONDS),                         # when (seconds since 1970)
    )


def downgrade() -> None:
    op.drop_table("club_event_makers")

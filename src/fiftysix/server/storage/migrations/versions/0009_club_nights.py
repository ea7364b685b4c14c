"""Club nights: duplicate events of a club, their teams, their tables and each table's finished boards
(issue 44: club nights).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fiftysix.server.storage.columns import CODE, FAMILY, ID, NAME, SECONDS, key, optional, required

revision = "0009_club_nights"
down_revision = "0008_clubs"


def upgrade() -> None:
    op.create_table(
        "club_events",
        *key(id=ID),                                        # unguessable, like a club's id
        *required(club_id=ID,
                  owner=sa.String(64),                      # who made it (the club's owner or an allowed member)
                  name=NAME, game=FAMILY, preset=sa.String(32), boards=sa.Integer, tables=sa.Integer,
                  level=sa.String(16)),                     # the computers' level for empty seats
        *optional(starts=SECONDS),                          # None: start when full
        *required(seed=sa.String(64),                       # the boards' seeds derive from it; never served
                  status=sa.String(12),                     # open, running, paused, closed
                  created=SECONDS),
    )
    op.create_index("club_events_club", "club_events", ["club_id"])
    op.create_table(
        "club_event_teams",
        *key(event_id=ID, name=NAME),
        *required(table_no=sa.Integer, direction=sa.Integer,
                  players=sa.Text),                         # JSON list of player ids
        sa.UniqueConstraint("event_id", "table_no", "direction", name="club_event_teams_place"),
    )
    op.create_table("club_event_tables", *key(event_id=ID, table_no=sa.Integer),
                    sa.Column("code", CODE, nullable=False, unique=True))
    op.create_table(
        "club_event_boards",                                # a row once board k is finished at table t
        *key(event_id=ID, table_no=sa.Integer, board=sa.Integer),
        *required(results=sa.Text,                          # JSON: the result of each direction
                  summary=sa.Text,                          # JSON: contract, declarer, made, the record's id
                  finished=SECONDS),
    )


def downgrade() -> None:
    op.drop_table("club_event_boards")
    op.drop_table("club_event_tables")
    op.drop_table("club_event_teams")
    op.drop_table("club_events")

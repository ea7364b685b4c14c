"""Club nights: duplicate events of a club, their teams, their tables and each table's finished boards
(issue 44: club nights).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_club_nights"
down_revision = "0008_clubs"


def upgrade() -> None:
    op.create_table(
        "club_events",
        sa.Column("id", sa.String(40), primary_key=True),      # unguessable, like a club's id
        sa.Column("club_id", sa.String(40), nullable=False),
        sa.Column("owner", sa.String(64), nullable=False),     # who made it (the club's owner or an allowed member)
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("game", sa.String(8), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("boards", sa.Integer, nullable=False),
        sa.Column("tables", sa.Integer, nullable=False),
        sa.Column("level", sa.String(16), nullable=False),     # the computers' level for empty seats
        sa.Column("starts", sa.BigInteger, nullable=True),     # None: start when full
        sa.Column("seed", sa.String(64), nullable=False),      # the boards' seeds derive from it; never served
        sa.Column("status", sa.String(12), nullable=False),    # open, running, paused, closed
        sa.Column("created", sa.BigInteger, nullable=False),
    )
    op.create_index("club_events_club", "club_events", ["club_id"])
    op.create_table(
        "club_event_teams",
        sa.Column("event_id", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("direction", sa.Integer, nullable=False),
        sa.Column("players", sa.Text, nullable=False),         # JSON list of player ids
        sa.UniqueConstraint("event_id", "table_no", "direction", name="club_event_teams_place"),
    )
    op.create_table(
        "club_event_tables",
        sa.Column("event_id", sa.String(40), primary_key=True),
        sa.Column("table_no", sa.Integer, primary_key=True),
        sa.Column("code", sa.String(16), nullable=False, unique=True),
    )
    op.create_table(
        "club_event_boards",                                   # a row once board k is finished at table t
        sa.Column("event_id", sa.String(40), primary_key=True),
        sa.Column("table_no", sa.Integer, primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("results", sa.Text, nullable=False),         # JSON: the result of each direction
        sa.Column("summary", sa.Text, nullable=False),         # JSON: contract, declarer, made, the record's id
        sa.Column("finished", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("club_event_boards")
    op.drop_table("club_event_tables")
    op.drop_table("club_event_teams")
    op.drop_table("club_events")

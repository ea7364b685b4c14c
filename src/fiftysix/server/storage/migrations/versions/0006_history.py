"""Finished matches, who played each deal, and ratings (issue 43: history and ratings).

Matches finished before this revision are not in the history: their deals' players were never stored (the
deal records hold seats, not people), so they could only be guessed.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_history"
down_revision = "0004_lease"    # the lead re-chains it after 0005 (accounts)


def upgrade() -> None:
    op.create_table(
        "deal_seats",
        sa.Column("table_code", sa.String(16), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("match_no", sa.Integer, nullable=False),
        sa.Column("facts", sa.JSON, nullable=False),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("table_code", sa.String(16), nullable=False),
        sa.Column("match_no", sa.Integer, nullable=False),
        sa.Column("game", sa.String(8), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("finished", sa.BigInteger, nullable=False),
        sa.Column("first_deal", sa.Integer, nullable=False),
        sa.Column("last_deal", sa.Integer, nullable=False),
        sa.Column("summary", sa.JSON, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
    )
    op.create_table(
        "match_players",
        sa.Column("match_id", sa.String(40), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("finished", sa.BigInteger, nullable=False),
        sa.Column("team", sa.Integer, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("stats", sa.JSON, nullable=False),
        sa.Column("rating", sa.JSON, nullable=True),
    )
    op.create_index("match_players_player", "match_players", ["player_id", "finished"])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("family", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("last_match", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_index("match_players_player", "match_players")
    for name in ("ratings", "match_players", "matches", "deal_seats"):
        op.drop_table(name)

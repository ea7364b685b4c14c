"""Finished matches, who played each deal, and ratings (issue 43: history and ratings).

Matches finished before this revision are not in the history: their deals' players were never stored (the
deal records hold seats, not people), so they could only be guessed.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fiftysix.server.storage.columns import CODE, FAMILY, ID, PLAYER, SECONDS, key, optional, required

revision = "0006_history"
down_revision = "0004_lease"    # the lead re-chains it after 0005 (accounts)


def upgrade() -> None:
    op.create_table("deal_seats", *key(table_code=CODE, number=sa.Integer),
                    *required(match_no=sa.Integer, facts=sa.JSON))
    op.create_table(
        "matches",
        *key(id=ID),
        *required(table_code=CODE, match_no=sa.Integer, game=FAMILY, preset=sa.String(32), finished=SECONDS,
                  first_deal=sa.Integer, last_deal=sa.Integer, summary=sa.JSON, rated=sa.Boolean),
    )
    op.create_table(
        "match_players",
        *key(match_id=ID, player_id=PLAYER),
        *required(finished=SECONDS, team=sa.Integer, rank=sa.Integer, stats=sa.JSON),
        *optional(rating=sa.JSON),
    )
    op.create_index("match_players_player", "match_players", ["player_id", "finished"])
    op.create_table(
        "ratings",
        *key(player_id=PLAYER, family=FAMILY),
        *required(mu=sa.Float, sigma=sa.Float, matches=sa.Integer, last_match=ID),
    )


def downgrade() -> None:
    op.drop_index("match_players_player", "match_players")
    for name in ("ratings", "match_players", "matches", "deal_seats"):
        op.drop_table(name)

"""Player generations: "sign out everywhere" bumps a player's generation, refusing older tokens.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_generations"
down_revision = "0002_activity"


def upgrade() -> None:
    op.create_table(
        "player_generations",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("generation", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("player_generations")

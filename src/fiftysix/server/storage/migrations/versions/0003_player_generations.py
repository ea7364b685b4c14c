"""Player generations: "sign out everywhere" bumps a player's generation, refusing older tokens.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fiftysix.server.storage.columns import PLAYER, key, required

revision = "0003_generations"
down_revision = "0002_activity"


def upgrade() -> None:
    op.create_table("player_generations", *key(player_id=PLAYER), *required(generation=sa.Integer))


def downgrade() -> None:
    op.drop_table("player_generations")

"""When each table was last in use, so lobby tables left alone can be closed (and need not be loaded).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_activity"
down_revision = "0001"


def upgrade() -> None:
    op.add_column("tables", sa.Column("active", sa.BigInteger, nullable=True))
    op.execute("UPDATE tables SET active = created")


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("active")

"""The writer's lease of each table, for many server processes on one database (``serve --redis``).

``lease_owner`` is the process that may write the table until ``lease_until`` (unix seconds, the database's
clock); ``lease_epoch`` goes up with every new holder and every append checks it in its own transaction (the
fencing token): a writer that lost its lease cannot append, however long it was paused.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_lease"
down_revision = "0003_generations"


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("lease_owner", sa.String(64), nullable=True))
        batch.add_column(sa.Column("lease_epoch", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("lease_until", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("lease_until")
        batch.drop_column("lease_epoch")
        batch.drop_column("lease_owner")

"""Clubs: a named group of players with an owner, one revocable invite (its hash) and the club's tables
(issue 43: clubs).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_clubs"
down_revision = "0007_accounts"


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(40), primary_key=True),      # unguessable: clubs are never listed by id
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("invite_hash", sa.String(64), nullable=True),    # sha256 of the invite secret; None: revoked
        sa.Column("watchers", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created", sa.BigInteger, nullable=False),
    )
    op.create_index("clubs_invite", "clubs", ["invite_hash"], unique=True)
    op.create_table(
        "club_members",
        sa.Column("club_id", sa.String(40), primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("joined", sa.BigInteger, nullable=False),
    )
    op.create_index("club_members_player", "club_members", ["player"])
    op.create_table(
        "club_tables",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("club_id", sa.String(40), nullable=False),
        sa.Column("created", sa.BigInteger, nullable=False),
    )
    op.create_index("club_tables_club", "club_tables", ["club_id"])


def downgrade() -> None:
    op.drop_table("club_tables")
    op.drop_table("club_members")
    op.drop_table("clubs")

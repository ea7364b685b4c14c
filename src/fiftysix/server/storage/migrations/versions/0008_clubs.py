"""Clubs: a named group of players with an owner, one revocable invite (its hash) and the club's tables
(issue 43: clubs).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fiftysix.server.storage.columns import CODE, ID, NAME, SECONDS, key, optional, required

revision = "0008_clubs"
down_revision = "0007_accounts"


def upgrade() -> None:
    op.create_table(
        "clubs",
        *key(id=ID),                                        # unguessable: clubs are never listed by id
        *required(name=NAME, owner=sa.String(64)),
        *optional(invite_hash=sa.String(64)),               # sha256 of the invite secret; None: revoked
        sa.Column("watchers", sa.Boolean, nullable=False, server_default=sa.false()),
        *required(created=SECONDS),
    )
    op.create_index("clubs_invite", "clubs", ["invite_hash"], unique=True)
    op.create_table("club_members", *key(club_id=ID, player=sa.String(64)), *required(name=NAME, joined=SECONDS))
    op.create_index("club_members_player", "club_members", ["player"])
    op.create_table("club_tables", *key(code=CODE), *required(club_id=ID, created=SECONDS))
    op.create_index("club_tables_club", "club_tables", ["club_id"])


def downgrade() -> None:
    op.drop_table("club_tables")
    op.drop_table("club_members")
    op.drop_table("clubs")

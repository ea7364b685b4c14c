"""Accounts without passwords (issue 43): today's cookie player becomes an account under the same id.

No stored table, deal or match is re-keyed: a player id already is the account's id.  Revision 0005 was
planned for this; 0006 (history) reached main first, so accounts follow it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fiftysix.server.storage.columns import NAME, PLAYER, SECONDS, key, optional, required

revision = "0007_accounts"
down_revision = "0006_history"


def upgrade() -> None:
    op.create_table(
        "accounts",
        *key(id=PLAYER),
        *required(name=NAME, created=SECONDS),
        sa.Column("recovery_hash", sa.String(64), nullable=True, unique=True),
        *optional(recovery_made=SECONDS),
    )
    op.create_table(
        "account_sessions",
        *key(id=sa.String(32)),
        sa.Column("account_id", PLAYER, nullable=False, index=True),
        *required(created=SECONDS, seen=SECONDS, label=sa.String(80)),
        *optional(revoked=SECONDS),
    )
    op.create_table(
        "signin_links",
        *key(hash=sa.String(64)),
        sa.Column("account_id", PLAYER, nullable=False, index=True),
        *required(expires=SECONDS),
        *optional(used=SECONDS),
    )
    op.create_table(
        "passkeys",
        *key(id=sa.String(400)),
        sa.Column("account_id", PLAYER, nullable=False, index=True),
        *required(public_key=sa.Text, sign_count=sa.BigInteger, created=SECONDS),
    )
    op.create_table("passkey_challenges", *key(challenge=sa.String(128)), *optional(account_id=PLAYER),
                    *required(expires=SECONDS))


def downgrade() -> None:
    op.drop_table("passkey_challenges")
    op.drop_table("passkeys")
    op.drop_table("signin_links")
    op.drop_table("account_sessions")
    op.drop_table("accounts")

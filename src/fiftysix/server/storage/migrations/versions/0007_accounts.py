"""Accounts without passwords (issue 43): today's cookie player becomes an account under the same id.

No stored table, deal or match is re-keyed: a player id already is the account's id.  Revision 0005 was
planned for this; 0006 (history) reached main first, so accounts follow it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_accounts"
down_revision = "0006_history"


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created", sa.BigInteger, nullable=False),
        sa.Column("recovery_hash", sa.String(64), nullable=True, unique=True),
        sa.Column("recovery_made", sa.BigInteger, nullable=True),
    )
    op.create_table(
        "account_sessions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("account_id", sa.String(32), nullable=False, index=True),
        sa.Column("created", sa.BigInteger, nullable=False),
        sa.Column("seen", sa.BigInteger, nullable=False),
        sa.Column("label", sa.String(80), nullable=False),
        sa.Column("revoked", sa.BigInteger, nullable=True),
    )
    op.create_table(
        "signin_links",
        sa.Column("hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), nullable=False, index=True),
        sa.Column("expires", sa.BigInteger, nullable=False),
        sa.Column("used", sa.BigInteger, nullable=True),
    )
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(400), primary_key=True),
        sa.Column("account_id", sa.String(32), nullable=False, index=True),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("created", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "passkey_challenges",
        sa.Column("challenge", sa.String(128), primary_key=True),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("expires", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("passkey_challenges")
    op.drop_table("passkeys")
    op.drop_table("signin_links")
    op.drop_table("account_sessions")
    op.drop_table("accounts")

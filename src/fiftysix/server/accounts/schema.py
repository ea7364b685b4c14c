"""The tables of accounts, their signed-in devices and one-time sign-in links (created by migration 0007)."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, MetaData, String, Table, Text

metadata = MetaData()

accounts = Table(
    "accounts", metadata,
    Column("id", String(32), primary_key=True),          # the player id of the cookie it grew from
    Column("name", String(64), nullable=False),
    Column("created", BigInteger, nullable=False),
    Column("recovery_hash", String(64), nullable=True, unique=True),    # sha256 of the recovery code
    Column("recovery_made", BigInteger, nullable=True),
)

sessions = Table(
    "account_sessions", metadata,
    Column("id", String(32), primary_key=True),          # the "s" of the device's token
    Column("account_id", String(32), nullable=False),
    Column("created", BigInteger, nullable=False),
    Column("seen", BigInteger, nullable=False),
    Column("label", String(80), nullable=False),         # from the browser's User-Agent, for the list only
    Column("revoked", BigInteger, nullable=True),        # unix seconds; its tokens are refused from then on
)

links = Table(
    "signin_links", metadata,
    Column("hash", String(64), primary_key=True),        # sha256 of the secret: the secret is never stored
    Column("account_id", String(32), nullable=False),
    Column("expires", BigInteger, nullable=False),
    Column("used", BigInteger, nullable=True),
)

passkeys = Table(
    "passkeys", metadata,
    Column("id", String(400), primary_key=True),         # the credential id, base64url
    Column("account_id", String(32), nullable=False),
    Column("public_key", Text, nullable=False),          # COSE public key, base64url
    Column("sign_count", BigInteger, nullable=False),
    Column("created", BigInteger, nullable=False),
)

challenges = Table(
    "passkey_challenges", metadata,
    Column("challenge", String(128), primary_key=True),  # base64url; deleted when used (single use)
    Column("account_id", String(32), nullable=True),     # the account registering; NULL for a sign-in
    Column("expires", BigInteger, nullable=False),
)

"""The tables of accounts, their signed-in devices and one-time sign-in links (created by migration 0007)."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, MetaData, String, Table

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

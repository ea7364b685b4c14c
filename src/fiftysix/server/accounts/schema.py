"""The tables of accounts, their signed-in devices and one-time sign-in links (migration 0007; device names: 0016)."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, MetaData, String, Table, Text

from ..storage.columns import NAME, PLAYER, SECONDS, key, optional, required

metadata = MetaData()

accounts = Table(
    "accounts", metadata,
    *key(id=PLAYER),                                     # the player id of the cookie it grew from
    *required(name=NAME, created=SECONDS),
    Column("recovery_hash", String(64), nullable=True, unique=True),    # sha256 of the recovery code
    *optional(recovery_made=SECONDS),
)

sessions = Table(
    "account_sessions", metadata,
    *key(id=String(32)),                                 # the "s" of the device's token
    *required(account_id=PLAYER, created=SECONDS, seen=SECONDS,
              label=String(80)),                         # from the browser's User-Agent, for the list only
    *optional(revoked=SECONDS,                           # its tokens are refused from then on
              name=String(40)),                          # its owner's name for it (0016); shown to them only
)

links = Table(
    "signin_links", metadata,
    *key(hash=String(64)),                               # sha256 of the secret: the secret is never stored
    *required(account_id=PLAYER, expires=SECONDS),
    *optional(used=SECONDS),
)

passkeys = Table(
    "passkeys", metadata,
    *key(id=String(400)),                                # the credential id, base64url
    *required(account_id=PLAYER,
              public_key=Text,                           # COSE public key, base64url
              sign_count=BigInteger, created=SECONDS),
)

challenges = Table(
    "passkey_challenges", metadata,
    *key(challenge=String(128)),                         # base64url; deleted when used (single use)
    *optional(account_id=PLAYER),                        # the account registering; NULL for a sign-in
    *required(expires=SECONDS),
)

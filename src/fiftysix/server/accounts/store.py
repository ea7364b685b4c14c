"""Accounts in the database: made from a cookie player, their devices, one-time links and recovery codes.

Every secret (a link's, a recovery code) is stored as its SHA-256 only, so a copy of the database signs no one
in.  A link is consumed by one conditional ``UPDATE`` (unused and unexpired, in the same statement), so of two
processes given the same link at once exactly one signs in.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypedDict

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ..clubs.store import forget as leave_clubs
from .schema import accounts, challenges, links, passkeys, sessions
from .scrub import scrub_names

LINK_SECONDS = 600          # a sign-in link is good for 10 minutes
_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"    # no 0/O, 1/I/L: it is written down and typed again
CODE_LENGTH = 20            # 20 of 31 symbols: 99 bits


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_code() -> str:
    """A recovery code to write down: four groups of five, e.g. ``K7QXM-...``."""
    raw = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return "-".join(raw[i:i + 5] for i in range(0, CODE_LENGTH, 5))


def normal_code(code: str) -> str:
    """A typed code as it was made: upper case, groups of five, whatever spaces or dashes were typed."""
    raw = "".join(c for c in code.upper() if c.isalnum())
    return "-".join(raw[i:i + 5] for i in range(0, len(raw), 5))


@dataclass(frozen=True)
class Device:
    """A signed-in device as its owner's list shows it: their name for it (``None`` until named), the browser's
    label, when it signed in and when it was last seen."""

    id: str
    label: str
    created: int
    seen: int
    name: str | None = None


class Account(TypedDict):
    """An account as its page shows it (``devices``: the devices signed in now, last seen first)."""

    id: str
    name: str
    created: int
    recovery: bool
    recovery_made: int | None
    devices: list[Device]


class Accounts:
    """The account queries; each method is one transaction."""

    def __init__(self, engine: AsyncEngine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock

    def now(self) -> int:
        return int(self.clock())

    async def ensure(self, player_id: str, name: str) -> None:
        """Make ``player_id`` an account (nothing when it is one): the id stays, so all it played stays its."""
        async with self.engine.begin() as conn:
            await _ensure(conn, player_id, name, self.now())

    async def open_session(self, player_id: str, name: str, label: str) -> str:
        """A new signed-in device of ``player_id`` (made an account if it is not one); its id."""
        session = secrets.token_hex(8)
        now = self.now()
        async with self.engine.begin() as conn:
            await _ensure(conn, player_id, name, now)
            await conn.execute(sessions.insert().values(id=session, account_id=player_id, created=now, seen=now,
                                                        label=label[:80]))
        return session

    async def session_live(self, player_id: str, session: str) -> bool:
        """Whether ``session`` is a device of ``player_id`` not signed out (asked in the database, so a device
        signed out through another process is refused here at once)."""
        async with self.engine.begin() as conn:
            row = (await conn.execute(select(sessions.c.revoked).where(
                sessions.c.id == session, sessions.c.account_id == player_id))).first()
            if row is None or row[0] is not None:
                return False
            await conn.execute(update(sessions).where(sessions.c.id == session).values(seen=self.now()))
            return True

    async def account(self, player_id: str) -> Account | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(accounts).where(accounts.c.id == player_id))).first()
            if row is None:
                return None
            devices = await conn.execute(select(sessions.c.id, sessions.c.label, sessions.c.created, sessions.c.seen,
                                                sessions.c.name)
                                         .where(sessions.c.account_id == player_id, sessions.c.revoked.is_(None))
                                         .order_by(sessions.c.seen.desc()))
            return {"id": row.id, "name": row.name, "created": row.created,
                    "recovery": row.recovery_hash is not None, "recovery_made": row.recovery_made,
                    "devices": [Device(*d) for d in devices]}

    async def rename(self, player_id: str, name: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(accounts).where(accounts.c.id == player_id).values(name=name))

    async def name_device(self, player_id: str, session: str, name: str) -> bool:
        """Name device ``session`` of ``player_id``; ``False`` (nothing changed) when it is not one of theirs or is
        signed out.  ``name`` is checked by the caller."""
        async with self.engine.begin() as conn:
            done = await conn.execute(update(sessions).where(
                sessions.c.id == session, sessions.c.account_id == player_id, sessions.c.revoked.is_(None))
                .values(name=name))
            return bool(done.rowcount == 1)

    async def revoke(self, player_id: str, session: str) -> bool:
        """Sign device ``session`` of ``player_id`` out; ``False`` when it is not one of theirs (or is out)."""
        async with self.engine.begin() as conn:
            done = await conn.execute(update(sessions).where(
                sessions.c.id == session, sessions.c.account_id == player_id, sessions.c.revoked.is_(None))
                .values(revoked=self.now()))
            return bool(done.rowcount == 1)

    async def revoked(self, since: int) -> set[str]:
        """Devices signed out since ``since`` (older ones' tokens have expired anyway)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(sessions.c.id).where(sessions.c.revoked >= since))
            return {r[0] for r in rows}

    async def make_link(self, player_id: str) -> tuple[str, int]:
        """A one-time sign-in secret for ``player_id`` and when it expires."""
        secret = secrets.token_urlsafe(32)
        expires = self.now() + LINK_SECONDS
        async with self.engine.begin() as conn:
            await conn.execute(delete(links).where(links.c.expires < self.now()))     # keep the table small
            await conn.execute(links.insert().values(hash=digest(secret), account_id=player_id, expires=expires))
        return secret, expires

    async def use_link(self, secret: str) -> tuple[str, str] | None:
        """Consume a sign-in secret: its account's (id, name), or ``None`` when it is unknown, used or expired."""
        h, now = digest(secret), self.now()
        async with self.engine.begin() as conn:
            done = await conn.execute(update(links).where(
                links.c.hash == h, links.c.used.is_(None), links.c.expires > now).values(used=now))
            if done.rowcount != 1:
                return None
            row = (await conn.execute(select(accounts.c.id, accounts.c.name).join(
                links, links.c.account_id == accounts.c.id).where(links.c.hash == h))).first()
            return (row[0], row[1]) if row is not None else None

    async def new_recovery(self, player_id: str) -> str:
        """A new recovery code for ``player_id``; the one before is refused from now on."""
        code = new_code()
        async with self.engine.begin() as conn:
            await conn.execute(update(accounts).where(accounts.c.id == player_id)
                               .values(recovery_hash=digest(code), recovery_made=self.now()))
        return code

    async def use_recovery(self, code: str) -> tuple[str, str] | None:
        """Consume a recovery code (it signs in once; the player makes a new one): (id, name), or ``None``."""
        h = digest(normal_code(code))
        async with self.engine.begin() as conn:
            row = (await conn.execute(select(accounts.c.id, accounts.c.name)
                                      .where(accounts.c.recovery_hash == h))).first()
            if row is None:
                return None
            done = await conn.execute(update(accounts).where(accounts.c.id == row[0], accounts.c.recovery_hash == h)
                                      .values(recovery_hash=None))
            return (row[0], row[1]) if done.rowcount == 1 else None

    async def delete(self, player_id: str) -> None:
        """Delete the account and its personal data: devices, links, passkeys, and every name it went by wherever
        it is stored (:mod:`.scrub`: "a former player" in table events, its tables', clubs', events' and teams'
        names and its asks to see a hand; finished matches' summaries drop it, which the history page shows as "a
        former player" in the reader's language).  The person leaves every club (their name goes from its
        members and leaderboard), and a club they owned passes to its longest-standing member or, left empty, is
        deleted (:func:`..clubs.store.forget`).  Ratings, stats and records stay under the id, which nothing links
        to a person any more."""
        async with self.engine.begin() as conn:
            await conn.execute(delete(links).where(links.c.account_id == player_id))
            await conn.execute(delete(passkeys).where(passkeys.c.account_id == player_id))
            await conn.execute(delete(challenges).where(challenges.c.account_id == player_id))
            await conn.execute(update(sessions).where(sessions.c.account_id == player_id,
                                                      sessions.c.revoked.is_(None)).values(revoked=self.now()))
            await conn.execute(update(sessions).where(sessions.c.account_id == player_id)
                               .values(label="", name=None))      # what told the devices apart goes too
            await scrub_names(conn, player_id)      # first: it gathers the names the rows below keep
            await conn.execute(delete(accounts).where(accounts.c.id == player_id))
            await leave_clubs(conn, player_id)


async def _ensure(conn: AsyncConnection, player_id: str, name: str, now: int) -> None:
    if (await conn.execute(select(accounts.c.id).where(accounts.c.id == player_id))).first() is None:
        await conn.execute(accounts.insert().values(id=player_id, name=name, created=now))

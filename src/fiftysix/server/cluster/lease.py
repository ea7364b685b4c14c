"""The writer's lease of each table: a row in PostgreSQL (``tables.lease_owner/lease_epoch/lease_until``).

A process takes a table when its lease is free or has run out (the database's clock decides, so the
processes' clocks do not matter), bumping ``lease_epoch``; it renews all its leases with one statement
every :attr:`Lease.renew_every` seconds.  Every append of the holder names its epoch and
:meth:`~fiftysix.server.storage.db.Database.append` checks it against the row in the same transaction, with the
row locked: a holder paused past its lease (SIGSTOP, a long GC, a network partition) finds on waking that
its appends fail, whatever it believes.  The holder also keeps, by its own clock, until when each lease
surely holds (counted from before it asked for it: never later than the database's end of it); a lease it
could not renew in time (the database away) is not written with (:meth:`Lease.holds`), so a writer cut off
from the database stops instead of piling up moves it cannot store.  Why not an advisory lock: its session
may outlive a paused holder or die with a pooled connection the appends do not use; the epoch is what makes
two writers impossible.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from sqlalchemy import ColumnElement, and_, extract, func, or_, select

from ..storage.db import EXPIRED, Database, tables


def _now() -> ColumnElement[Any]:
    """Now by the database's clock (unix seconds): the one clock every process agrees on."""
    return extract("epoch", func.clock_timestamp())


class Lease:
    """Lease operations of one process (``me``) on the tables' rows."""

    def __init__(self, db: Database, me: str, ttl: float = 3.0, renew_every: float = 1.0) -> None:
        self.db, self.me, self.ttl, self.renew_every = db, me, ttl, renew_every
        self._until: dict[str, float] = {}      # code -> monotonic time until which this process surely holds it

    def holds(self, code: str) -> bool:
        """Whether this process's lease of ``code`` surely has not run out yet (by its own clock)."""
        return time.monotonic() < self._until.get(code, 0.0)

    def _held(self, codes: Iterable[str], asked: float) -> None:
        for code in codes:
            self._until[code] = asked + self.ttl

    def _free(self) -> ColumnElement[bool]:
        return or_(tables.c.lease_owner.is_(None), tables.c.lease_until < _now())

    async def take(self, codes: Iterable[str], mine_too: bool = False) -> dict[str, int]:
        """Take the leases of ``codes`` that are free or ran out (``mine_too``: or held by this process);
        the codes taken and their new epochs."""
        codes = list(codes)
        if not codes:
            return {}
        free = or_(self._free(), tables.c.lease_owner == self.me) if mine_too else self._free()
        query = (tables.update().where(tables.c.code.in_(codes), tables.c.status != EXPIRED, free)
                 .values(lease_owner=self.me, lease_epoch=tables.c.lease_epoch + 1, lease_until=_now() + self.ttl)
                 .returning(tables.c.code, tables.c.lease_epoch))
        asked = time.monotonic()
        async with self.db.engine.begin() as conn:
            taken = {r[0]: int(r[1]) for r in await conn.execute(query)}
        self._held(taken, asked)
        return taken

    async def renew(self, held: dict[str, int]) -> set[str]:
        """Extend the leases this process holds (code -> epoch); the codes still held at those epochs."""
        if not held:
            return set()
        query = (tables.update().where(tables.c.code.in_(list(held)), tables.c.lease_owner == self.me)
                 .values(lease_until=_now() + self.ttl).returning(tables.c.code, tables.c.lease_epoch))
        asked = time.monotonic()
        async with self.db.engine.begin() as conn:
            kept = {r[0] for r in await conn.execute(query) if held.get(r[0]) == int(r[1])}
        self._held(kept, asked)
        for code in set(held) - kept:
            self._until.pop(code, None)
        return kept

    async def release(self, code: str, epoch: int) -> None:
        """Give a lease up at once (the table was unloaded, the process is stopping)."""
        self._until.pop(code, None)
        query = (tables.update().where(tables.c.code == code, tables.c.lease_owner == self.me,
                                       tables.c.lease_epoch == epoch).values(lease_owner=None, lease_until=None))
        async with self.db.engine.begin() as conn:
            await conn.execute(query)

    async def owner(self, code: str) -> str | None:
        """The process holding ``code``'s lease now, or ``None`` (free or run out)."""
        query = select(tables.c.lease_owner).where(tables.c.code == code, tables.c.lease_until >= _now())
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(query)).first()
            return None if row is None else row[0]

    async def orphans(self, skip: Iterable[str], limit: int = 20) -> list[str]:
        """Tables with a deal in progress and no live lease (their writer died): someone must drive their
        computer players."""
        query = (select(tables.c.code).where(tables.c.status == "playing", self._free(),
                                             tables.c.code.not_in(list(skip)))
                 .order_by(tables.c.lease_until.nulls_first()).limit(limit))
        async with self.db.engine.connect() as conn:
            return [r[0] for r in await conn.execute(query)]

    async def leased(self) -> set[str]:
        """Every table some process holds now (loaded somewhere: not to be expired)."""
        query = select(tables.c.code).where(and_(tables.c.lease_owner.is_not(None), tables.c.lease_until >= _now()))
        async with self.db.engine.connect() as conn:
            return {r[0] for r in await conn.execute(query)}

    async def lobbies(self, skip: Iterable[str], limit: int) -> list[tuple[str, float]]:
        """Tables waiting in their lobby that some process holds now (loaded there), newest change first, with
        when they last changed: the candidates for the list of open tables (server/clubs/lobby.py)."""
        query = (select(tables.c.code, tables.c.active)
                 .where(tables.c.status == "lobby", tables.c.lease_until >= _now(), tables.c.code.not_in(list(skip)))
                 .order_by(tables.c.active.desc()).limit(limit))
        async with self.db.engine.connect() as conn:
            return [(r[0], float(r[1] or 0)) for r in await conn.execute(query)]

    async def open_of(self, codes: Iterable[str]) -> list[tuple[str, float]]:
        """Which of ``codes`` some process holds now and has not finished, with when each last changed: a club's
        open tables on other processes (server/clubs/routes.py)."""
        query = (select(tables.c.code, tables.c.active)
                 .where(tables.c.code.in_(list(codes)), tables.c.lease_until >= _now(),
                        tables.c.status.not_in(["finished", EXPIRED]))
                 .order_by(tables.c.active.desc()))
        async with self.db.engine.connect() as conn:
            return [(r[0], float(r[1] or 0)) for r in await conn.execute(query)]

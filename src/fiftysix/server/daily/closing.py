"""The day's own rating: when a day is over, each of its sets' finished ranking feeds a rating of its own per game
family (``daily-56``, ``daily-55``: rows of ``ratings`` apart from the table and club families), once.

No timer: the first read or start after the day closes every set of a past day that is not rated yet (a process
remembers the last day it closed up to).  Exactly once: the ``daily_rated`` row of (day, set) is inserted first in
the transaction that writes the rating changes, "on conflict do nothing"; a second closer, on any process or after
a restart, finds the row (PostgreSQL makes it wait for the first's commit) and changes nothing."""

from __future__ import annotations

import time

from sqlalchemy import Integer, MetaData, String, Table, func, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from ..matches.store import insert_once, rate_places
from ..storage.columns import SECONDS, key, required
from .scoring import day_places
from .seeds import DAY, day_end, day_of
from .store import played_in, sets

metadata = MetaData()
rated = Table("daily_rated", metadata, *key(day=String(10), preset=String(32)),
              *required(rated=SECONDS, players=Integer))

PREFIX = "daily-"


def family(preset: str) -> str:
    """The day's rating family of a set: ``daily-56`` or ``daily-55`` (8 characters, as ``ratings.family``)."""
    return PREFIX + ("55" if preset.startswith("55") else "56")


async def rate_set(engine: AsyncEngine, day: str, preset: str, boards: int, now: float | None = None) -> bool:
    """Rate ``preset``'s set of the past ``day`` once: its finishers of all ``boards`` boards, each a team of one,
    placed by their day score (:func:`.scoring.day_places`).  ``True`` if this call rated it."""
    async with engine.begin() as conn:
        made = await conn.execute(insert_once(conn, rated).values(
            day=day, preset=preset, rated=int(time.time() if now is None else now), players=0))
        if not made.rowcount:       # rated already (here, at another process, or before a restart)
            return False
        field = {k: v["results"] for k, v in (await played_in(conn, day, preset)).items()}
        new = await rate_places(conn, family(preset), day_places(field, boards), f"daily:{day}:{preset}")
        await conn.execute(update(rated).where(rated.c.day == day, rated.c.preset == preset)
                           .values(players=len(new)))
    return True


LOOK_BACK = 30
"""Days back the close looks for sets not rated yet (a bound on the read: the claims' key is by day)."""


async def unrated(engine: AsyncEngine, before: str) -> list[tuple[str, str, int]]:
    """The (day, set, boards) claimed on one of the :data:`LOOK_BACK` days before ``before`` and not rated yet."""
    since = day_of(day_end(before) - (LOOK_BACK + 1) * DAY)
    query = (select(sets.c.day, sets.c.preset, func.max(sets.c.boards))
             .select_from(sets.outerjoin(rated, (rated.c.day == sets.c.day) & (rated.c.preset == sets.c.preset)))
             .where(sets.c.day >= since, sets.c.day < before, rated.c.day.is_(None))
             .group_by(sets.c.day, sets.c.preset).order_by(sets.c.day, sets.c.preset))
    async with engine.connect() as conn:
        return [(str(r[0]), str(r[1]), int(r[2])) for r in await conn.execute(query)]


async def close_past(engine: AsyncEngine, today: str) -> int:
    """Rate every set of a day before ``today`` not rated yet; how many this call rated."""
    count = 0
    for day, preset, boards in await unrated(engine, today):
        count += await rate_set(engine, day, preset, boards)
    return count

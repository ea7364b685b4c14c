"""The writer's lease on PostgreSQL: once another process has taken a table, the old holder's appends fail
(the fencing epoch is checked in the append's own transaction), however their timing falls."""

from __future__ import annotations

import asyncio
import random

import pytest

from fiftysix.server.cluster.lease import Lease
from fiftysix.server.storage.db import Database, Fenced
from helpers import pg

pytestmark = pytest.mark.db


async def _log_length(db: Database, code: str) -> int:
    return await db.events_count(code)


async def old_writer(db: Database, code: str, epoch: int, stored: list[int]) -> None:
    """Append as fast as it can, believing it holds the table, until an append is refused."""
    version = 2
    while version < 400:
        try:
            await db.append(code, version, {"kind": "x"}, "lobby", epoch=epoch)
        except Fenced:
            return
        stored.append(version)
        version += 1


def test_an_old_holder_cannot_append_after_the_table_was_taken(pg_cluster: pg.Cluster, dbname: str) -> None:
    async def go() -> None:
        db = Database(pg_cluster.url(dbname))
        await db.migrate()
        try:
            a, b = Lease(db, "a", ttl=1.0), Lease(db, "b", ttl=30.0)
            rng = random.Random(56)
            for round_ in range(8):
                code = f"T{round_}"
                await db.append(code, 1, {"kind": "create", "time": 0}, "lobby")
                epoch_a = (await a.take([code]))[code]
                assert await b.take([code]) == {}          # held: not free yet
                assert await a.renew({code: epoch_a}) == {code}
                stored_by_a: list[int] = []
                writer = asyncio.create_task(old_writer(db, code, epoch_a, stored_by_a))
                await asyncio.sleep(1.0 + rng.uniform(0, 0.2))      # past the lease, at a random point
                taken = await b.take([code])
                assert set(taken) == {code} and taken[code] == epoch_a + 1
                seen = await _log_length(db, code)     # what the new holder loads: the log after its take
                await asyncio.wait_for(writer, 30)
                assert await _log_length(db, code) == seen, "the old holder appended after the take"
                assert stored_by_a == list(range(2, seen + 1))
                with pytest.raises(Fenced):
                    await db.append(code, seen + 1, {"kind": "x"}, "lobby", epoch=epoch_a)
                await db.append(code, seen + 1, {"kind": "x"}, "lobby", epoch=taken[code])   # the holder writes
                assert await a.renew({code: epoch_a}) == set()     # and the old one learns it lost the lease
                assert await a.owner(code) == "b"
        finally:
            await db.close()

    asyncio.run(go())

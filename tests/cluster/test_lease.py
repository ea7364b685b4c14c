"""The writer's lease on PostgreSQL: once another process has taken a table, the old holder's appends fail
(the fencing epoch is checked in the append's own transaction), however their timing falls."""

from __future__ import annotations

import asyncio
import random

import pytest

from fiftysix.server.cluster.lease import Lease
from fiftysix.server.db import Database, Fenced
from helpers import pg

pytestmark = pytest.mark.db


async def _log_length(db: Database, code: str) -> int:
    return await db.events_count(code)


def test_an_old_holder_cannot_append_after_the_table_was_taken(pg_cluster: pg.Cluster, dbname: str) -> None:
    async def go() -> None:
        db = Database(pg_cluster.url(dbname))
        await db.migrate()
        try:
            a, b = Lease(db, "a", ttl=0.2), Lease(db, "b", ttl=0.2)
            rng = random.Random(56)
            for round_ in range(12):
                code = f"T{round_}"
                await db.append(code, 1, {"kind": "create", "time": 0}, "lobby")
                epoch_a = (await a.take([code]))[code]
                assert await b.take([code]) == {}          # held: not free yet
                assert await a.renew({code: epoch_a}) == {code}
                next_version = 2
                stored_by_a: list[int] = []

                async def old_writer() -> None:    # appends as fast as it can, believing it holds the table
                    nonlocal next_version
                    while next_version < 400:
                        try:
                            await db.append(code, next_version, {"kind": "x"}, "lobby", epoch=epoch_a)
                        except Fenced:
                            return
                        stored_by_a.append(next_version)
                        next_version += 1

                writer = asyncio.create_task(old_writer())
                await asyncio.sleep(0.2 + rng.uniform(0, 0.15))     # past the lease, at a random point
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

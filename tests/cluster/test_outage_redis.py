"""Redis goes away under busy tables on two processes, and comes back empty (issue 26).

Redis is killed (SIGKILL: every connection reset) and started again on the same port with nothing in it, as
a Redis without persistence restarts.  Meanwhile the leases live on in PostgreSQL: each table's writer goes
on storing what is played on its own process; a replica cannot reach its writer, so its viewers are told
that the table waits for Redis (a service message, never a hung move or a 500), and making a table is
refused with 503.  When Redis is back every process hears it within a heartbeat, subscribes again, replicas
read their tables' logs, and every table plays on.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable

import httpx2 as httpx
import pytest

from helpers import pg
from helpers import redis as redis_helper
from helpers.cluster import Player, Proc, busy_tables, check_log, new_player, new_table, outages, until, writer_pid

pytestmark = [pytest.mark.serial, pytest.mark.db, pytest.mark.redis]

ROUNDS = int(os.environ.get("FIFTYSIX_OUTAGES", "10"))
DOWN = float(os.environ.get("FIFTYSIX_OUTAGE_SECONDS", "10"))
TABLES = 8
BACK_WITHIN = 10.0      # seconds after Redis is back by which every table must have played on
REDIS_DOWN, REDIS_BACK = ("redis", False), ("redis", True)


def _statuses(procs: list[Proc], codes: list[str], token: str) -> list[int]:
    """What a page asks of every process while Redis is away: a table's facts, a new table, the lobby."""
    got = []
    for proc in procs:
        for code in codes:
            got.append(httpx.get(f"{proc.url}/api/tables/{code}", timeout=10).status_code)
        got.append(httpx.post(f"{proc.url}/api/tables", json={"token": token, "preset": "56-4"},
                              timeout=10).status_code)
        got.append(httpx.get(f"{proc.url}/api/catalogue", timeout=10).status_code)
    return got


def test_redis_down_the_replica_says_so_then_the_table_plays_on(start: Callable[..., Proc],
                                                                redis_server: redis_helper.Server,
                                                                pg_cluster: pg.Cluster, dbname: str) -> None:
    writer, replica = start(bot_delay=0.05), start(bot_delay=0.05)
    token = new_player(writer, "Asha")
    code = new_table(writer, token, preset="56-4", fill="random")
    asha = Player("Asha", token, code, host=True)
    statuses: list[int] = []

    async def go() -> float:
        await asha.connect(replica)     # her moves go to the writer through Redis
        stop = asyncio.Event()
        run = asyncio.create_task(asha.run(stop, lambda dead: dead))
        try:
            await asha.send({"type": "start"})
            await until(lambda: asha.version >= 8, 30, "play before the outage", asha)
            redis_server.stop()
            try:
                await until(lambda: REDIS_DOWN in asha.services, 8, "the replica saying Redis is away", asha)
                statuses.extend(await asyncio.to_thread(_statuses, [writer, replica], [code], token))
                await asyncio.sleep(3)
            finally:
                redis_server.start()
            back = time.monotonic()
            await until(lambda: asha.services[-1:] == [REDIS_BACK], 8, "the replica saying Redis is back", asha)
            seen = asha.version
            await until(lambda: asha.version >= seen + 4, BACK_WITHIN, "the table playing again", asha)
            return time.monotonic() - back
        finally:
            stop.set()
            await run
            await asha.close()

    took = asyncio.run(go())
    assert statuses and 500 not in statuses, statuses     # the shared quotas fail open: tables are still made
    assert took < BACK_WITHIN
    assert not asha.gaps, asha.gaps
    check_log(pg_cluster, dbname, code, [asha])


@pytest.mark.slow
def test_redis_down_and_back_again_and_again_loses_nothing(start: Callable[..., Proc],
                                                           redis_server: redis_helper.Server,
                                                           pg_cluster: pg.Cluster, dbname: str) -> None:
    procs = [start(bot_delay=0.1), start(bot_delay=0.1)]
    people = busy_tables(procs, TABLES)
    statuses: list[int] = []
    outages_at: list[float] = []       # when Redis went away, came back, went away...

    def take_down() -> None:
        redis_server.stop()
        outages_at.append(time.monotonic())

    def bring_back() -> None:
        redis_server.start()
        outages_at.append(time.monotonic())

    async def look() -> None:
        statuses.extend(await asyncio.to_thread(_statuses, procs, [people[0].code, people[2].code], people[0].token))

    back_times = asyncio.run(outages(people, procs, ROUNDS, DOWN, take_down, bring_back, look))
    print(f"Redis down {DOWN:.0f} s x{ROUNDS}: the last table played again "
          f"{', '.join(f'{t:.1f}' for t in back_times)} s after each return; "
          f"{sum(len(p.acked) for p in people)} acknowledged moves")
    for person in people:
        check_log(pg_cluster, dbname, person.code, [person])
        assert not person.gaps, person.gaps
        assert writer_pid(pg_cluster, dbname, person.code) in {p.pid for p in procs}
    replicas = [p for i, p in enumerate(people) if (i // 2) % 2 != i % 2]      # viewers away from the writer
    t0 = outages_at[0]
    for p in replicas:      # told at each outage (a reconnection is told again), and told it is over
        told = [f"{'back' if ok else 'away'}@{t - t0:.1f}"
                for (_, ok), t in zip(p.services, p.service_times, strict=True)]
        why = f"{p.name}: Redis away@{[round(t - t0, 1) for t in outages_at]}; told {told}"
        assert p.services.count(REDIS_DOWN) >= ROUNDS and p.services[-1] == REDIS_BACK, why
    assert 500 not in statuses, statuses
    assert max(back_times) < BACK_WITHIN, back_times
    assert sum(len(p.acked) for p in people) >= TABLES * ROUNDS, "the people hardly played"

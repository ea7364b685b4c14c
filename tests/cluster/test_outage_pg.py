"""PostgreSQL goes away under busy tables on two processes, again and again (issue 26).

Two ``serve --redis`` processes, 8 tables with computer players and a person each (people on both processes,
at tables written here and there), and PostgreSQL stopped as a crash stops it (``pg_ctl stop -m immediate``)
for :data:`DOWN` seconds and started again, :data:`ROUNDS` times (``FIFTYSIX_OUTAGES``; 10 by default).
Afterwards: no acknowledged move is missing from the log, every table's log runs 1..N without a gap, and
after each return every table played on within 10 s.  The variant ``off`` runs the cluster with
``synchronous_commit=off`` (what an operator may set): commits the database acknowledged are lost in its
crash, unless the server's own sessions commit synchronously and an event only follows a stored one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import Callable
from typing import Any

import pytest

from helpers import pg
from helpers.cluster import (
    Person,
    Proc,
    busy_tables,
    check_log,
    logged_events,
    new_player,
    new_table,
    outages,
    sql,
    writer_pid,
)

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

ROUNDS = int(os.environ.get("FIFTYSIX_OUTAGES", "10"))
DOWN = float(os.environ.get("FIFTYSIX_OUTAGE_SECONDS", "10"))
TABLES = 8
BACK_WITHIN = 10.0      # seconds after PostgreSQL is back by which every table must have played on


@pytest.mark.parametrize("commit", ["on", "off"])
def test_postgresql_down_and_back_again_and_again_loses_nothing(start: Callable[..., Proc], pg_cluster: pg.Cluster,
                                                                 dbname: str, commit: str) -> None:
    pg_cluster.stop()       # the cluster as this variant's operator set it up
    pg_cluster.start(f"-c synchronous_commit={commit}")
    procs = [start(bot_delay=0.1), start(bot_delay=0.1)]
    people = busy_tables(procs, TABLES)
    try:
        back_times = asyncio.run(outages(people, procs, ROUNDS, DOWN, pg_cluster.stop,
                                         lambda: pg_cluster.start(f"-c synchronous_commit={commit}")))
    finally:
        pg_cluster.stop()       # the session's cluster as it was, for the tests after this one
        pg_cluster.start()
    print(f"synchronous_commit={commit}: the last table played again {', '.join(f'{t:.1f}' for t in back_times)} s "
          "after each return")
    for person in people:
        check_log(pg_cluster, dbname, person.code, [person])
        assert writer_pid(pg_cluster, dbname, person.code) in {p.pid for p in procs}     # someone writes it
    assert max(back_times) < BACK_WITHIN, back_times
    assert sum(len(p.acked) for p in people) >= TABLES * ROUNDS, "the people hardly played"


async def _receive_until(person: Person, cond: Callable[[dict[str, Any]], bool], seconds: float = 20) -> dict[str, Any]:
    assert person.ws is not None
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(TimeoutError):
            msg = json.loads(await asyncio.wait_for(person.ws.recv(), 0.2))
            person._take(msg)
            if cond(msg):
                return msg
    raise AssertionError(f"no such message in {seconds} s: {person}")


def test_a_log_that_lost_its_last_event_is_read_again_by_the_replicas_too(start: Callable[..., Proc],
                                                                          pg_cluster: pg.Cluster,
                                                                          dbname: str) -> None:
    writer, replica = start(), start()
    token = new_player(writer, "Asha")
    code = new_table(writer, token, preset="56-4")

    async def go() -> dict[str, Any]:
        asha = Person("Asha", token, code)
        await asha.connect(replica)         # her messages go to the writer through Redis
        try:
            await _receive_until(asha, lambda m: m["type"] == "state")
            await asha.send({"type": "bot", "seat": 1, "bot": "random"})
            await _receive_until(asha, lambda m: m["type"] == "event" and m["version"] == 2)
            # what a database that lost an acknowledged commit holds: the writer (and the replica) are ahead
            sql(pg_cluster, dbname, f"DELETE FROM events WHERE table_code = '{code}' AND version = 2")
            await asha.send({"type": "bot", "seat": 2, "bot": "random"})
            fresh = await _receive_until(asha, lambda m: m["type"] == "state")
            assert fresh["version"] == 1 and fresh["table"]["seats"][1]["kind"] == "empty"     # the log's truth
            if not any("read again" in e for e in asha.errors):     # the writer's answer, before or after it
                await _receive_until(asha, lambda m: m["type"] == "error" and "read again" in m["message"])
            await asha.send({"type": "bot", "seat": 2, "bot": "random"})    # a new version 2
            return await _receive_until(asha, lambda m: m["type"] == "event")
        finally:
            await asha.close()

    event = asyncio.run(go())
    assert event["version"] == 2
    assert [s["kind"] for s in event["table"]["seats"]][:3] == ["player", "empty", "bot"]    # as the log has it
    assert [v for v, _ in logged_events(pg_cluster, dbname, code)] == [1, 2]

"""The database goes away and comes back (issue 26): the log never has a gap, tables wait and go on.

An event is stored only right after its table's last stored one: a writer whose memory is ahead of the log (a
database that lost acknowledged commits) reads the table again instead of leaving a hole no replay can cross.
The outage is real: the session's PostgreSQL is stopped as a crash would stop it (``pg_ctl stop -m
immediate``; the test cluster runs with ``synchronous_commit=off``, so a commit acknowledged just before is
lost unless the server's own sessions commit synchronously) and started again.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from sqlalchemy import text  # noqa: E402

from fiftysix.server.services import DATABASE, service_message  # noqa: E402
from fiftysix.server.storage.db import Database, LogGap  # noqa: E402
from helpers import pg  # noqa: E402
from helpers.server import client, create, hello, is_snapshot, keyed, player, receive_until  # noqa: E402

pytestmark = [pytest.mark.serial, pytest.mark.filterwarnings("ignore::DeprecationWarning")]


def test_an_event_is_stored_only_right_after_the_last_stored_one(db: str) -> None:
    async def go() -> None:
        store = Database(db)
        await store.migrate()
        try:
            await store.append("GAPPY", 1, {"kind": "create", "time": 0}, "lobby")
            with pytest.raises(LogGap) as refused:
                await store.append("GAPPY", 3, {"kind": "sit", "seat": 1}, "lobby")
            assert refused.value.gaps == {"GAPPY": (1, 3)}
            assert "ends at version 1, not 2" in str(refused.value)
            assert len(await store.events_of("GAPPY")) == 1          # nothing of it stored
            await store.append("GAPPY", 2, {"kind": "sit", "seat": 1}, "lobby")
            with pytest.raises(LogGap):                                  # nor a second copy of a stored version
                await store.append("GAPPY", 2, {"kind": "sit", "seat": 2}, "lobby")
            assert [e.get("seat") for e in await store.events_of("GAPPY")] == [None, 1]
        finally:
            await store.close()
    asyncio.run(go())


def _versions(c: Any, code: str) -> list[int]:
    async def read() -> list[int]:
        async with c.app.state.server.db.engine.connect() as conn:
            rows = await conn.execute(text("SELECT version FROM events WHERE table_code = :c ORDER BY version"),
                                      {"c": code})
            return [int(r[0]) for r in rows]
    return list(c.portal.call(read))


def test_a_table_whose_log_lost_its_last_event_reads_it_again_and_plays_on(db: str) -> None:
    with client(db) as c:
        asha = player(c, "Asha")
        code = create(c, asha, preset="56-4")
        with c.websocket_connect(keyed(f"/ws/{code}")) as ws:
            hello(ws, asha)
            ws.send_json({"type": "bot", "seat": 1, "bot": "random"})
            receive_until(ws, lambda m: is_snapshot(m) and m["version"] == 2)

            async def lose_it() -> None:      # what a database that lost an acknowledged commit holds
                async with c.app.state.server.db.engine.begin() as conn:  # type: ignore[attr-defined]
                    await conn.execute(text("DELETE FROM events WHERE table_code = :c AND version = 2"), {"c": code})
            c.portal.call(lose_it)
            ws.send_json({"type": "bot", "seat": 2, "bot": "random"})
            fresh = receive_until(ws, lambda m: m["type"] == "state")
            assert fresh["version"] == 1 and fresh["table"]["seats"][1]["kind"] == "empty"   # the log's truth
            refusal = receive_until(ws, lambda m: m["type"] == "error")
            assert "read again" in refusal["message"]
            ws.send_json({"type": "bot", "seat": 2, "bot": "random"})
            event = receive_until(ws, lambda m: m["type"] == "event")
            assert event["version"] == 2 and event["table"]["seats"][2]["kind"] == "bot"
        assert _versions(c, code) == [1, 2]


DOWN = 10.0     # seconds PostgreSQL stays away


@pytest.mark.db
def test_postgresql_stopped_and_started_again_the_table_waits_then_plays_on(pg_cluster: pg.Cluster,
                                                                            caplog: pytest.LogCaptureFixture) -> None:
    url = pg_cluster.create_database(f"outage{int(time.time() * 1000) % 10**9}")
    with client(url, bot_delay=0.02, next_delay=0.02) as c:
        asha = player(c, "Asha")
        code = create(c, asha, preset="56-4", fill="random")
        with c.websocket_connect(keyed(f"/ws/{code}")) as ws:
            hello(ws, asha)
            ws.send_json({"type": "stand"})
            ws.send_json({"type": "start"})
            before = receive_until(ws, lambda m: is_snapshot(m) and m["version"] >= 12)["version"]
            caplog.clear()
            pg_cluster.stop()
            stopped = time.monotonic()
            try:
                down = receive_until(ws, lambda m: m["type"] == "service")
                assert down == service_message(DATABASE, False)
                r = c.get("/api/tables/NOSUCH")          # must be read from the database: away
                assert r.status_code == 503 and r.json()["service"] == DATABASE, r.text
                time.sleep(max(0.0, DOWN - (time.monotonic() - stopped)))
            finally:
                pg_cluster.start()
            back = time.monotonic()
            tries = sum("could not store event" in r.getMessage() for r in caplog.records)
            assert receive_until(ws, lambda m: m["type"] == "service") == service_message(DATABASE, True)
            later = receive_until(ws, lambda m: is_snapshot(m) and m["version"] > before + 8)
            assert time.monotonic() - back < 10, "the table took more than 10 s to play again"
            assert later["table"]["status"] in ("playing", "deal_over", "match_over")
        # the computer players tried less and less often (doubling to 2 s), not 20 times a second
        assert 1 <= tries <= 2 * DOWN, f"{tries} failed tries to store in {DOWN} s"
        assert c.get("/api/tables/NOSUCH").status_code == 404
        versions = _versions(c, code)
        assert versions == list(range(1, len(versions) + 1))      # no gap


@pytest.mark.db
def test_a_table_with_nothing_to_store_hears_the_database_come_back(pg_cluster: pg.Cluster) -> None:
    url = pg_cluster.create_database(f"probe{int(time.time() * 1000) % 10**9}")
    with client(url) as c:
        asha = player(c, "Asha")
        code = create(c, asha, preset="56-4")       # a lobby: nothing is written while she waits
        with c.websocket_connect(keyed(f"/ws/{code}")) as ws:
            hello(ws, asha)
            pg_cluster.stop()
            try:
                assert c.get("/api/tables/NOSUCH").status_code == 503      # this finds the database away
                assert receive_until(ws, lambda m: m["type"] == "service") == service_message(DATABASE, False)
            finally:
                pg_cluster.start()
            back = time.monotonic()
            # only the probe can tell: no append succeeds here to say so
            assert receive_until(ws, lambda m: m["type"] == "service") == service_message(DATABASE, True)
            assert time.monotonic() - back < 5
            ws.send_json({"type": "bot", "seat": 1, "bot": "random"})
            assert receive_until(ws, lambda m: m["type"] == "event")["version"] == 2

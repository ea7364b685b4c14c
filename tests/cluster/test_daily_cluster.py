"""Today's deals with many processes (issue 58), on PostgreSQL and Redis: every process deals the day's boards
alike (one secret in the shared database), a set started at one process resumes at another, and the read rule holds
whichever process answers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx2 as httpx
import pytest
from test_nights_cluster import first_view, post

from helpers import pg
from helpers.cluster import Person, Proc, check_log, new_player, sql, until

COOKIE = "fiftysix_player"


def test_a_daily_set_is_the_same_on_every_process_and_resumes_at_another(
        start: Callable[..., Proc], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FIFTYSIX_DAILY", "56-4:2")
    monkeypatch.setenv("FIFTYSIX_DAILY_LEVEL", "beginner")
    here, there = start(), start()
    anu, biju = new_player(here, "Anu"), new_player(there, "Biju")
    one = post(here, "/api/daily/start", anu, {"preset": "56-4"})
    two = post(there, "/api/daily/start", biju, {"preset": "56-4"})
    assert one.status_code == two.status_code == 200, (one.text, two.text)
    a, b = first_view(there, one.json()["code"], anu), first_view(here, two.json()["code"], biju)
    assert a["hand"] == b["hand"] and a["seat"] == b["seat"] == 0       # board 1 alike, through both processes
    again = post(there, "/api/daily/start", anu, {"preset": "56-4"})
    assert again.json()["code"] == one.json()["code"] and again.json()["resumed"]
    for proc in (here, there):
        for path in (f"/api/tables/{one.json()['code']}", "/api/daily/56-4/boards/1"):
            r = httpx.get(proc.url + path, params={"k": one.json()["url"].split("#k=")[1]},
                          cookies={COOKIE: biju}, timeout=10)
            assert r.status_code == 403, (path, r.text)


def test_a_kill_9_mid_board_loses_no_board_and_scores_each_once(
        start: Callable[..., Proc], monkeypatch: pytest.MonkeyPatch, pg_cluster: pg.Cluster, dbname: str) -> None:
    monkeypatch.setenv("FIFTYSIX_DAILY", "56-4:3")
    monkeypatch.setenv("FIFTYSIX_DAILY_LEVEL", "beginner")
    here, there = start(), start()
    token = new_player(here, "Anu")
    made = post(here, "/api/daily/start", token, {"preset": "56-4"}).json()
    code = made["code"]
    anu = Person("Anu", token, code, host=True)

    def stored() -> set[int]:
        return {int(n) for n in sql(pg_cluster, dbname, f"SELECT number FROM deals WHERE table_code = '{code}'")}

    async def day() -> set[int]:
        await anu.connect(here)
        stop = asyncio.Event()
        run = asyncio.create_task(anu.run(stop, lambda dead: there))
        try:
            await until(lambda: 1 in stored(), 90, "board 1", anu)
            here.kill()                      # mid-board 2
            before = stored()
            await until(lambda: stored() == {1, 2, 3}, 150, "every board", anu)
            return before
        finally:
            stop.set()
            await asyncio.gather(run, return_exceptions=True)
            await anu.close()

    before = asyncio.run(day())
    assert 1 in before and before <= stored() == {1, 2, 3}     # nothing stored before the kill was lost
    check_log(pg_cluster, dbname, code, [anu])
    ranked = httpx.get(f"{there.url}/api/daily/56-4/ranking", cookies={COOKIE: token}, timeout=10).json()
    assert ranked["boards"] == [1, 2, 3] and [(r["boards"], r["score"]) for r in ranked["ranking"]] == [(3, 0.0)]
    again = post(there, "/api/daily/start", token, {"preset": "56-4"}).json()
    assert again["code"] == code       # the set stays one, and no fourth board is dealt

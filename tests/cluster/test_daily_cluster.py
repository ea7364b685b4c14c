"""Today's deals with many processes (issue 58), on PostgreSQL and Redis: every process deals the day's boards
alike (one secret in the shared database), a set started at one process resumes at another, the read rule holds
whichever process answers, and the line is one line for every process."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

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


def test_the_line_is_one_first_come_line_for_every_process(
        start: Callable[..., Proc], monkeypatch: pytest.MonkeyPatch, pg_cluster: pg.Cluster, dbname: str) -> None:
    """Two processes of one place each, both playing a set: three people starting at once, at both, get places 1 to
    3, the same at either process; a set in play resumes at the other process without a second place; the place
    freed when a set ends goes to the head of the shared line, not to whoever asks first."""
    monkeypatch.setenv("FIFTYSIX_DAILY", "56-4:1")
    monkeypatch.setenv("FIFTYSIX_DAILY_LEVEL", "beginner")
    monkeypatch.setenv("FIFTYSIX_DAILY_CAPACITY", "1")
    here, there = start(), start()
    procs = (here, there)
    tokens = {n: new_player(here, n) for n in ("Anu", "Biju", "Cheru", "Dev", "Esha")}

    def ask(name: str, proc: Proc) -> httpx.Response:
        return post(proc, "/api/daily/start", tokens[name], {"preset": "56-4"})

    anu, biju = ask("Anu", here), ask("Biju", there)
    assert anu.status_code == biju.status_code == 200, (anu.text, biju.text)
    waiting = ("Cheru", "Dev", "Esha")
    with ThreadPoolExecutor(3) as pool:         # at once, at both processes
        first = list(pool.map(lambda i: ask(waiting[i], procs[i % 2]), range(3)))
    assert [r.status_code for r in first] == [202] * 3, [r.text for r in first]
    places = {n: r.json()["queued"] for n, r in zip(waiting, first, strict=True)}
    assert sorted(places.values()) == [1, 2, 3], places
    for i, n in enumerate(waiting):             # the same place at the other process
        assert ask(n, procs[(i + 1) % 2]).json()["queued"] == places[n]
    again = ask("Anu", there)                   # in play at `here`: resumed at `there`, no place taken there
    assert again.status_code == 200 and again.json()["code"] == anu.json()["code"], again.text
    head, second, third = sorted(waiting, key=places.__getitem__)
    assert ask(head, there).json()["queued"] == 1       # `there` is still full: nobody was admitted twice
    code = anu.json()["code"]

    def stored() -> bool:
        return bool(sql(pg_cluster, dbname, f"SELECT number FROM deals WHERE table_code = '{code}'"))

    async def play() -> None:       # Anu plays her set's one board at `here`; the line keeps asking meanwhile
        person = Person("Anu", tokens["Anu"], code, host=True)
        await person.connect(here)
        stop = asyncio.Event()
        run = asyncio.create_task(person.run(stop, lambda dead: here))
        try:
            began, asked = time.monotonic(), 0.0
            while not stored():
                assert time.monotonic() - began < 120, f"Anu's board was not stored: {person}"
                if time.monotonic() - asked > 5:
                    asked = time.monotonic()
                    for n in waiting:
                        assert (await asyncio.to_thread(ask, n, there)).status_code == 202
                await asyncio.sleep(0.2)
        finally:
            stop.set()
            await asyncio.gather(run, return_exceptions=True)
            await person.close()

    asyncio.run(play())
    time.sleep(1.0)             # the set's end frees its place (the table's hook, just after the store)
    early = ask(second, here)           # second in line asks first at the process with the free place
    assert early.status_code == 202 and early.json()["queued"] == 2, early.text
    assert ask(head, here).status_code == 200       # the head takes it
    assert ask(second, here).json()["queued"] == 1 and ask(third, there).json()["queued"] == 2

"""Club nights with many processes (issue 44): the tables of an event deal the same board with the same dealer
whichever process writes them (the event's seed reaches the clustered tables too), and a kill -9 of the process
writing them mid-board loses no finished board: the event goes on at the other process and closes itself."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable

import httpx2 as httpx
from websockets.sync.client import connect

from helpers import pg
from helpers.cluster import Person, Proc, check_log, new_player, sql, until

COOKIE = "fiftysix_player"


def post(proc: Proc, path: str, token: str, body: dict[str, object]) -> httpx.Response:
    return httpx.post(f"{proc.url}{path}", json=body, cookies={COOKIE: token}, timeout=10)


def first_view(proc: Proc, code: str, token: str) -> dict[str, object]:
    with connect(f"ws://127.0.0.1:{proc.port}/ws/{code}", additional_headers={"Cookie": f"{COOKIE}={token}"},
                 max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            message = json.loads(ws.recv(timeout=20))
            assert message.get("type") != "error", message
            if isinstance(message.get("view"), dict) and message["view"].get("hand"):
                return dict(message["view"])


def club_night(proc: Proc, boards: int) -> tuple[str, dict[str, str], list[str]]:
    """A club of Asha (owner) and Babu, an event of two 56-4 tables (Asha's team at table 1, Babu's at 2,
    computers in the other seats), started on ``proc``: the event, the people's tokens, the tables' codes."""
    people = {n: new_player(proc, n) for n in ("Asha", "Babu")}
    club = post(proc, "/api/clubs", people["Asha"], {"name": "Friday club"}).json()
    assert post(proc, "/api/clubs/join", people["Babu"], {"invite": club["invite"]}).status_code == 200
    night = post(proc, f"/api/clubs/{club['id']}/nights", people["Asha"],
                 {"name": "Friday", "preset": "56-4", "boards": boards, "tables": 2, "level": "beginner"}).json()["id"]
    for table, name in ((1, "Asha"), (2, "Babu")):
        r = post(proc, f"/api/nights/{night}/teams", people[name], {"name": name, "table": table, "direction": 0})
        assert r.status_code == 200, r.text
    started = post(proc, f"/api/nights/{night}/start", people["Asha"], {})
    assert started.status_code == 200, started.text
    return night, people, [t["code"] for t in started.json()["tables"]]


def test_an_events_tables_deal_the_same_board_on_every_process(start: Callable[..., Proc]) -> None:
    here, there = start(), start()
    _night, people, (one, two) = club_night(here, boards=2)
    a, b = first_view(there, one, people["Asha"]), first_view(here, two, people["Babu"])   # through both processes
    assert a["hand"] == b["hand"] and a["dealer"] == b["dealer"] == 0 and a["seat"] == b["seat"] == 0


def test_a_kill_9_of_the_process_writing_an_events_tables_mid_board_loses_no_board(
        start: Callable[..., Proc], pg_cluster: pg.Cluster, dbname: str) -> None:
    here, there = start(), start()
    night, people, codes = club_night(here, boards=3)
    asha, babu = (Person(n, people[n], code, host=True) for n, code in (("Asha", codes[0]), ("Babu", codes[1])))

    def boards_stored() -> set[tuple[str, int]]:
        rows = sql(pg_cluster, dbname, f"SELECT table_code || ' ' || number FROM deals WHERE table_code IN "
                                       f"('{codes[0]}', '{codes[1]}')")
        return {(c, int(n)) for c, n in (r.split() for r in rows)}

    def elsewhere(dead: Proc | None) -> Proc:
        return there

    async def evening() -> set[tuple[str, int]]:
        await asha.connect(here)
        await babu.connect(there)
        stop = asyncio.Event()
        runs = [asyncio.create_task(p.run(stop, elsewhere)) for p in (asha, babu)]
        try:
            await until(lambda: (codes[0], 1) in boards_stored(), 60, "board 1 at table 1", asha, babu)
            here.kill()                     # mid-board 2 at table 1 (or thereabouts at table 2)
            before = boards_stored()
            await until(lambda: len(boards_stored()) == 6, 120, "every board at both tables", asha, babu)
            return before
        finally:
            stop.set()
            await asyncio.gather(*runs, return_exceptions=True)
            await asha.close()
            await babu.close()

    before = asyncio.run(evening())
    assert before <= boards_stored() and (codes[0], 1) in before      # nothing stored before the kill was lost
    for person, code in ((asha, codes[0]), (babu, codes[1])):
        check_log(pg_cluster, dbname, code, [person])
    assert asha.reconnects >= 1 and not asha.gaps and not babu.gaps
    deadline = time.monotonic() + 30
    while (view := httpx.get(f"{there.url}/api/nights/{night}", cookies={COOKIE: people["Babu"]}, timeout=10).json()
           )["status"] != "closed":
        assert time.monotonic() < deadline, view
        time.sleep(0.5)
    assert view["boards_shown"] == [1, 2, 3] and view["final"] is True
    assert sum(s["score"] for s in view["standings"]) == 0

"""Club nights with many processes (issue 44): the tables of an event deal the same board with the same dealer
whichever process writes them (the event's seed reaches the clustered tables too), and a kill -9 of the process
writing them mid-board loses no finished board: the event goes on at the other process and closes itself."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import httpx2 as httpx
from websockets.sync.client import connect

from fiftysix.server.nights.boards import board_result
from fiftysix.server.nights.scoring import Seat, standings
from helpers import pg
from helpers.cluster import Person, Proc, check_log, logged_events, new_player, sql, until, writer_pid
from helpers.nights import table_reads

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



def deals_stored(cluster: pg.Cluster, dbname: str, codes: list[str]) -> dict[tuple[str, int], str]:
    """(table code, deal) -> the stored deal of the event's tables (its result and record, as text)."""
    rows = sql(cluster, dbname, "SELECT table_code || ' ' || number || ' ' || result::text || record::text "
                                f"FROM deals WHERE table_code IN ({', '.join(repr(c) for c in codes)})")
    return {(c, int(n)): rest for c, n, rest in (r.split(" ", 2) for r in rows)}


async def patient(client: httpx.AsyncClient, path: str, **kw: Any) -> httpx.Response:
    """``GET path``, asked again while the club routes' per-address limit refuses it (429: one address asks for
    three people here, faster than a person would); a refusal shows nothing, so waiting hides no leak."""
    for _ in range(30):
        answer = await client.get(path, **kw)
        if answer.status_code != 429:
            return answer
        await asyncio.sleep(1.0)
    raise AssertionError(f"{path} still refused for too many requests after 30 s")


async def probe(there: Proc, night: str, tables: list[tuple[str, str]], people: dict[str, str],
                boards: int) -> set[int]:
    """What Asha (at table 1), Babu (at table 2) and Chinnu (a member at no table) may ask of ``there`` while
    the event runs: the other table's reads are refused to a seated person, and either table as it plays to
    Chinnu (until the event closes); the boards anyone was shown (standings, board pages)."""
    shown: set[int] = set()
    other = {"Asha": tables[1], "Babu": tables[0]}
    async with httpx.AsyncClient(base_url=there.url, timeout=10) as c:
        for name, token in people.items():
            c.cookies.set(COOKIE, token)
            view = await patient(c, f"/api/nights/{night}")
            assert view.status_code == 200, view.text
            shown |= set(view.json()["boards_shown"])
            for b in range(1, boards + 1):
                page = await patient(c, f"/api/nights/{night}/boards/{b}")
                assert page.status_code in (200, 403), page.text
                shown |= {b} if page.status_code == 200 else set()
            # a member in no team, at either table: the table as it plays is refused (until the event closes)
            for code, key in tables if name not in other else ():
                read = await patient(c, f"/api/tables/{code}", params={"k": key})
                if read.status_code != 403:
                    status = (await patient(c, f"/api/nights/{night}")).json()["status"]
                    assert status == "closed", (name, code, read.status_code, read.text[:200])
            if name in other:
                code, key = other[name]
                for path in table_reads(code, boards):
                    read = await patient(c, path, params={"k": key})
                    if read.status_code != 403:     # allowed once the event closed, or the boards it reaches are
                        after = (await patient(c, f"/api/nights/{night}")).json()     # finished at both tables
                        reached = reached_boards(path, read)
                        assert after["status"] == "closed" or (
                            reached is not None and reached <= set(after["boards_shown"])), (
                            name, path, read.status_code, read.text[:200])
    return shown


def reached_boards(path: str, read: httpx.Response) -> set[int] | None:
    """The boards a table read that was answered holds (an event table's deal k is board k); ``None``: the table
    as it plays (its facts), which only the closed event opens, or a later match (its first board unknown here)."""
    tail = path.split("/api/tables/", 1)[1].split("/", 1)
    if len(tail) == 1:
        return None
    if tail[1].startswith("matches/"):      # match 1 holds the table's deals 1..n: boards 1..n
        return set(range(1, len(read.json()["deals"]) + 1)) if tail[1] == "matches/1.json" else None
    if tail[1] == "deals":
        return {int(d["number"]) for d in read.json()["deals"]}
    number = int(tail[1].removeprefix("deals/").split(".")[0].split("/")[0])
    return set(range(1, number + 1))


def refused_socket(proc: Proc, code: str, key: str, token: str) -> None:
    """The socket of another table of the running event: refused, no view and no table facts sent."""
    with connect(f"ws://127.0.0.1:{proc.port}/ws/{code}?k={key}", additional_headers={"Cookie": f"{COOKIE}={token}"},
                 max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while (message := json.loads(ws.recv(timeout=20))).get("type") != "error":
            assert message.get("view") is None and "table" not in message, message


def test_a_kill_9_of_one_of_the_processes_writing_an_events_tables_loses_no_board_and_shows_none_early(
        start: Callable[..., Proc], pg_cluster: pg.Cluster, dbname: str) -> None:
    """Table 1 written by one process, table 2 by another (the first may make one table an hour: the start is
    cut short there and goes on at the second); the first is killed mid-board 1 while table 2 has finished it.
    The second takes table 1 over with the same board and cards; no stored deal is lost; nobody is shown a
    board before both tables finished it; the event closes with the standings the stored deals make."""
    boards = 3
    here, there = start(limits=("tables_per_hour_all=1",)), start()
    people = {n: new_player(here, n) for n in ("Asha", "Babu", "Chinnu")}
    club = post(here, "/api/clubs", people["Asha"], {"name": "Friday club"}).json()
    for name in ("Babu", "Chinnu"):
        assert post(here, "/api/clubs/join", people[name], {"invite": club["invite"]}).status_code == 200
    night = post(here, f"/api/clubs/{club['id']}/nights", people["Asha"],
                 {"name": "Friday", "preset": "56-4", "boards": boards, "tables": 2, "level": "beginner"}).json()["id"]
    for table, name in ((1, "Asha"), (2, "Babu")):
        assert post(here, f"/api/nights/{night}/teams", people[name],
                    {"name": name, "table": table, "direction": 0}).status_code == 200
    cut = post(here, f"/api/nights/{night}/start", people["Asha"], {})
    assert cut.status_code == 429, cut.text           # table 1 made here, table 2 over this process's quota
    started = post(there, f"/api/nights/{night}/start", people["Asha"], {})
    assert started.status_code == 200, started.text
    tables = [(t["code"], t["url"].split("#k=")[1]) for t in started.json()["tables"]]
    codes = [code for code, _ in tables]
    assert [writer_pid(pg_cluster, dbname, c) for c in codes] == [here.pid, there.pid]
    asha, babu = Person("Asha", people["Asha"], codes[0], host=True), Person("Babu", people["Babu"], codes[1], True)
    dealt = first_view(there, codes[0], people["Asha"])
    assert dealt["hand"] == first_view(here, codes[1], people["Babu"])["hand"]

    async def evening() -> tuple[dict[tuple[str, int], str], list[tuple[int, dict[str, object]]]]:
        shown: set[int] = set()

        async def look() -> None:
            nonlocal shown
            seen = await probe(there, night, tables, people, boards)
            stored = deals_stored(pg_cluster, dbname, codes)         # read after: a board shown was finished
            assert seen <= {b for b in range(1, boards + 1) if all((c, b) in stored for c in codes)}, (seen, stored)
            shown |= seen

        stop = asyncio.Event()
        await babu.connect(there)
        runs = [asyncio.create_task(babu.run(stop, lambda dead: there))]
        try:        # Asha is at her table (through the other process) but not playing: table 1 waits mid-board 1
            await asha.connect(there)
            await until(lambda: (codes[1], 1) in deals_stored(pg_cluster, dbname, codes), 60, "board 1 at table 2",
                        babu)
            await look()
            await asyncio.to_thread(refused_socket, there, *tables[0], people["Babu"])
            await asyncio.to_thread(refused_socket, there, *tables[1], people["Asha"])
            before, log = deals_stored(pg_cluster, dbname, codes), logged_events(pg_cluster, dbname, codes[0])
            assert (codes[0], 1) not in before and (codes[1], 1) in before
            here.kill()
            await until(lambda: writer_pid(pg_cluster, dbname, codes[0]) == there.pid, 20, "table 1 taken over")
            again = await asyncio.to_thread(first_view, there, codes[0], people["Asha"])
            assert (again["hand"], again["dealer"]) == (dealt["hand"], dealt["dealer"])   # the same board 1
            await asyncio.to_thread(refused_socket, there, *tables[1], people["Asha"])     # (now written here)
            runs.append(asyncio.create_task(asha.run(stop, lambda dead: there)))
            while len(deals_stored(pg_cluster, dbname, codes)) < 2 * boards:
                await look()
                await asyncio.sleep(2.0)     # a look asks some 20 pages: within the club routes' limits
            return before, log
        finally:
            stop.set()
            await asyncio.gather(*runs, return_exceptions=True)
            await asha.close()
            await babu.close()

    before, log = asyncio.run(evening())
    after = deals_stored(pg_cluster, dbname, codes)
    assert {k: after.get(k) for k in before} == before                  # every deal stored before the kill, intact
    assert logged_events(pg_cluster, dbname, codes[0])[:len(log)] == log  # and table 1's log up to it
    for person in (asha, babu):
        check_log(pg_cluster, dbname, person.code, [person])
    assert not asha.gaps and not babu.gaps
    deadline = time.monotonic() + 30
    while (view := httpx.get(f"{there.url}/api/nights/{night}", cookies={COOKIE: people["Chinnu"]},
                             timeout=10).json())["status"] != "closed":
        assert time.monotonic() < deadline, view
        time.sleep(0.5)
    results = {(t, b): board_result(json.loads(sql(pg_cluster, dbname, f"SELECT result::text FROM deals WHERE "
                                                                       f"table_code = '{c}' AND number = {b}")[0]),
                                    2)[0]
               for t, c in enumerate(codes, 1) for b in range(1, boards + 1)}
    expected = standings(results, 2, boards, {"Asha": Seat(1, 0), "Babu": Seat(2, 0)})
    assert view["boards_shown"] == [1, 2, 3] and view["final"] is True
    assert [(s["team"], s["score"]) for s in view["standings"]] == [(s.team, round(float(s.score), 2))
                                                                     for s in expected]

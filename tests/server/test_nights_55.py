"""A 55 club night played through by the server (issue 44): every table deals each board with the same cards and
dealer, each seat is its own direction scored in points, and the standings and board pages equal a comparison
worked out here from the stored deals."""

from __future__ import annotations

import time as clock
from fractions import Fraction
from pathlib import Path
from typing import Any

from sqlalchemy import select
from test_nights import as_, club_of_three

from fiftysix.server.nights.boards import board_dealer
from fiftysix.server.nights.routes import nights_of
from fiftysix.server.storage.db import deals
from helpers.server import client

SEATS, BOARDS = 4, 3
NUMBERS = range(1, BOARDS + 1)     # the boards, by number


async def _stored(server: Any, codes: dict[int, str]) -> dict[tuple[int, int], tuple[dict[str, Any], dict[str, Any]]]:
    """(table, deal) -> the stored (record, result) of every deal of the event's tables."""
    table_of = {code: t for t, code in codes.items()}
    async with server.db.engine.connect() as conn:
        rows = (await conn.execute(select(deals).where(deals.c.table_code.in_(list(codes.values()))))).all()
    return {(table_of[r.table_code], int(r.number)): (r.record, r.result) for r in rows}


def _by_hand(stored: dict[tuple[int, int], tuple[dict[str, Any], dict[str, Any]]], tables: int, boards: int,
             ) -> dict[tuple[int, int], list[Fraction]]:
    """(table, board) -> each seat's points minus that seat's average over the tables (the spec's comparison)."""
    out = {}
    for b in range(1, boards + 1):
        scores = {t: stored[(t, b)][1]["score"] for t in range(1, tables + 1)}
        average = [Fraction(sum(s[d] for s in scores.values()), tables) for d in range(SEATS)]
        for t, s in scores.items():
            out[(t, b)] = [s[d] - average[d] for d in range(SEATS)]
    return out


def test_a_55_night_deals_the_same_boards_and_scores_each_seat_in_points(tmp_path: Path) -> None:
    """55-4, three tables, three boards: Asha, Babu and Chinnu each sit in seat 0 of a table of their own, the
    computers play the rest (and them, after a grace of 0); the event closes itself after the last board.  At
    table 1 every seat starts one point short of the target, so its match ends early and a new one deals the next
    board: the same board as everywhere, with the same dealer."""
    with client(tmp_path / "t.db", bot_delay=0.0, next_delay=0.0) as c:
        server = c.app.state.server
        club, people = club_of_three(c)
        as_(c, people["Asha"][1])
        r = c.post(f"/api/clubs/{club}/nights", json={"name": "Pooram 55", "preset": "55-4", "boards": BOARDS,
                                                      "tables": 3, "level": "beginner"})
        assert r.status_code == 200, r.text
        night = r.json()["id"]
        names = ("Asha", "Babu", "Chinnu")
        for table, n in enumerate(names, 1):
            as_(c, people[n][1])
            wide = c.post(f"/api/nights/{night}/teams", json={"name": n, "table": table, "direction": 0,
                                                              "partners": [people["Dev"][0]]})
            assert wide.status_code == 400          # 55: a direction is one seat, so a team is one player
            r = c.post(f"/api/nights/{night}/teams", json={"name": n, "table": table, "direction": 0})
            assert r.status_code == 200, r.text
        assert c.post(f"/api/nights/{night}/teams",
                      json={"name": "Far", "table": 1, "direction": SEATS}).status_code == 400
        as_(c, people["Asha"][1])
        started = c.post(f"/api/nights/{night}/start", json={})
        assert started.status_code == 200, started.text
        codes = {t["table"]: t["code"] for t in started.json()["tables"]}
        keys = {t["table"]: t["url"].split("#k=")[1] for t in started.json()["tables"]}
        for t, n in enumerate(names, 1):
            state = server.hub.tables[codes[t]].state
            assert state.seats[0].player == people[n][0] and all(s.bot for s in state.seats[1:])

        async def no_grace() -> None:        # on the server's loop: the drop timers live there
            first = server.hub.tables[codes[1]].state.match
            assert first is not None
            first.standings[:] = [54] * SEATS       # whoever gains a point on a board wins the match
            for code in codes.values():
                table = server.hub.tables[code]
                table.state.grace = 0.0
                table.expect_seated()
        c.portal.call(no_grace)
        deadline = clock.monotonic() + 120
        while c.portal.call(nights_of(server).get, night)["status"] != "closed":
            assert clock.monotonic() < deadline, "the computers did not finish the boards"
            clock.sleep(0.2)

        stored = c.portal.call(_stored, server, codes)
        assert {(t, b) for t in codes for b in NUMBERS} <= set(stored)
        assert server.hub.tables[codes[1]].state.match_no >= 2          # table 1 played more than one match
        for b in NUMBERS:           # the same cards, the same dealer, at every table
            records = [stored[(t, b)][0] for t in (1, 2, 3)]
            assert all(rec["rules"] == "55-4" for rec in records)
            assert records[0]["hands"] == records[1]["hands"] == records[2]["hands"]
            assert records[0].get("kitty") == records[1].get("kitty") == records[2].get("kitty")
            assert {rec["dealer"] for rec in records} == {board_dealer(b, SEATS)}
        assert stored[(1, 1)][0]["hands"] != stored[(1, 2)][0]["hands"]

        expected = _by_hand(stored, 3, BOARDS)
        as_(c, people["Babu"][1])
        view = c.get(f"/api/nights/{night}").json()
        assert view["final"] is True and view["boards_shown"] == list(NUMBERS)
        scores = {n: sum((expected[(t, b)][0] for b in NUMBERS), Fraction(0)) for t, n in enumerate(names, 1)}
        assert [(s["team"], s["score"], s["boards"]) for s in view["standings"]] == [
            (n, round(float(scores[n]), 2), BOARDS) for n in sorted(names, key=lambda n: (-scores[n], n))]
        for b in NUMBERS:
            page = c.get(f"/api/nights/{night}/boards/{b}")
            assert page.status_code == 200 and page.json()["counted"] is True
            rows = page.json()["tables"]
            assert [row["table"] for row in rows] == [1, 2, 3]
            for row in rows:
                record, result = stored[(row["table"], b)]
                assert row["results"] == result["score"] and len(row["results"]) == SEATS     # points, per seat
                assert row["comparison"] == [round(float(x), 2) for x in expected[(row["table"], b)]]
                assert row["contract"] == result["contract"] and row["made"] == result["made"]
                code, key = codes[row["table"]], keys[row["table"]]
                assert row["record"] == f"/api/tables/{code}/deals/{b}.json?k={key}"
                assert row["analysis"] == f"/api/tables/{code}/deals/{b}/review?k={key}"
                assert c.get(row["record"]).json()["hands"] == record["hands"]
            for d in range(SEATS):
                assert abs(sum(row["comparison"][d] for row in rows)) < 0.02

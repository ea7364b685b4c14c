"""Club nights over HTTP (issue 44): making an event, signing up, standings and board pages under the
no-early-view rule, the event tables' watch gate, and refusals that change nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_clubs import as_, who

from fiftysix.server.nights.routes import nights_of
from helpers.server import client

EVIL = {"origin": "https://evil.example"}
ML = {"accept-language": "ml-IN,ml;q=0.9"}


def club_of_three(c: Any) -> tuple[str, dict[str, tuple[str, str]]]:
    """A club with Asha (owner), Babu and Chinnu; its id and the people."""
    people = {n: who(c, n) for n in ("Asha", "Babu", "Chinnu", "Dev")}
    as_(c, people["Asha"][1])
    made = c.post("/api/clubs", json={"name": "Thrissur 56"}).json()
    for n in ("Babu", "Chinnu"):
        as_(c, people[n][1])
        assert c.post("/api/clubs/join", json={"invite": made["invite"]}).status_code == 200
    return str(made["id"]), people


FORM = {"name": "Friday night", "preset": "56-6", "boards": 2, "tables": 3, "level": "club"}


def night_with_teams(c: Any) -> tuple[str, str, dict[str, tuple[str, str]]]:
    club, people = club_of_three(c)
    as_(c, people["Asha"][1])
    r = c.post(f"/api/clubs/{club}/nights", json=FORM)
    assert r.status_code == 200, r.text
    night = str(r.json()["id"])
    for table, n in enumerate(("Asha", "Babu", "Chinnu"), 1):
        as_(c, people[n][1])
        r = c.post(f"/api/nights/{night}/teams", json={"name": n, "table": table, "direction": 0})
        assert r.status_code == 200, r.text
    return club, night, people


def finish(c: Any, night: str, table: int, board: int, results: list[int]) -> bool:
    store = nights_of(c.app.state.server)
    summary = {"contract": "40", "declarer": 0}
    return bool(c.portal.call(store.finish_board, night, table, board, results, summary))


def test_standings_and_boards_show_only_what_every_table_finished(db: str) -> None:
    """On SQLite and PostgreSQL (the write-once board row is a primary key on both)."""
    with client(db) as c:
        _club, night, people = night_with_teams(c)
        as_(c, people["Babu"][1])
        view = c.get(f"/api/nights/{night}").json()
        assert "seed" not in view and view["boards_shown"] == [] and view["final"] is False
        assert [s["score"] for s in view["standings"]] == [0, 0, 0]
        # the worked example on board 1; board 2 finished at tables 1 and 2 only
        for table, result in ((1, 2), (2, -3), (3, 4)):
            assert finish(c, night, table, 1, [result, -result])
        assert finish(c, night, 1, 2, [9, -9]) and finish(c, night, 2, 2, [-9, 9])
        assert not finish(c, night, 1, 2, [1, -1])          # written once: a retry changes nothing
        view = c.get(f"/api/nights/{night}").json()
        assert view["boards_shown"] == [1]
        assert [(s["team"], s["score"]) for s in view["standings"]] == [("Chinnu", 3), ("Asha", 1), ("Babu", -4)]
        page = c.get(f"/api/nights/{night}/boards/1").json()
        assert [(t["table"], t["results"][0], t["comparison"][0]) for t in page["tables"]] == [
            (1, 2, 1), (2, -3, -4), (3, 4, 3)]
        hidden = c.get(f"/api/nights/{night}/boards/2")
        assert hidden.status_code == 403 and "9" not in hidden.text
        assert "finished at every table" in hidden.json()["error"]
        assert c.get(f"/api/nights/{night}/boards/2", headers=ML).json()["error"] != hidden.json()["error"]
        # the owner closes: board 2 (unfinished at table 3) is dropped for everyone, its page now open
        as_(c, people["Babu"][1])
        assert c.post(f"/api/nights/{night}/close", json={}).status_code == 403
        as_(c, people["Asha"][1])
        assert c.post(f"/api/nights/{night}/close", json={}).status_code == 200
        view = c.get(f"/api/nights/{night}").json()
        assert view["final"] is True and view["boards_shown"] == [1, 2]
        assert [(s["team"], s["score"], s["boards"]) for s in view["standings"]] == [
            ("Chinnu", 3, 1), ("Asha", 1, 1), ("Babu", -4, 1)]
        assert c.get(f"/api/nights/{night}/boards/2").json()["counted"] is False


def test_refusals_change_nothing(db: str) -> None:
    with client(db) as c:
        club, night, people = night_with_teams(c)
        as_(c, people["Babu"][1])
        assert c.post(f"/api/clubs/{club}/nights", json=FORM).status_code == 403        # not the owner
        as_(c, people["Asha"][1])
        for bad in ({"boards": 0}, {"tables": 1}, {"preset": "57-4"}, {"level": "wizard"}, {"starts": 5},
                    {"boards": True}):
            r = c.post(f"/api/clubs/{club}/nights", json={**FORM, **bad})
            assert r.status_code == 400 and r.json()["error"], bad
        assert c.post(f"/api/clubs/{club}/nights", json=FORM, headers=EVIL).status_code == 403
        assert len(c.get(f"/api/clubs/{club}/nights").json()["nights"]) == 1
        # a place or a person taken, and a stranger, change nothing
        assert c.post(f"/api/nights/{night}/teams",
                      json={"name": "Again", "table": 2, "direction": 1}).status_code == 409
        as_(c, people["Dev"][1])
        stranger = c.get(f"/api/nights/{night}")
        assert stranger.status_code == 404
        assert c.get("/api/nights/nosuchnight").json()["error"] == stranger.json()["error"]
        as_(c, people["Asha"][1])
        assert [t["name"] for t in c.get(f"/api/nights/{night}").json()["teams"]] == ["Asha", "Babu", "Chinnu"]


def test_a_player_of_a_running_event_may_not_read_another_of_its_tables(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        club, night, people = night_with_teams(c)
        store = nights_of(c.app.state.server)
        codes = []
        for table in (1, 2, 3):
            as_(c, people["Asha"][1])
            r = c.post(f"/api/clubs/{club}/tables", json={"preset": "56-6", "fill": "random"})
            assert r.status_code == 200, r.text
            codes.append((r.json()["code"], r.json()["key"]))
            c.portal.call(store.add_table, night, table, r.json()["code"])
        as_(c, people["Babu"][1])        # Babu plays at table 2
        own = c.get(f"/api/tables/{codes[1][0]}", params={"k": codes[1][1]})
        other = c.get(f"/api/tables/{codes[0][0]}/deals", params={"k": codes[0][1]})
        assert own.status_code == 200 and other.status_code == 403
        assert "another table of this event" in other.json()["error"]
        with c.websocket_connect(f"/ws/{codes[0][0]}?k={codes[0][1]}") as ws:     # nor its socket view
            ws.send_json({"type": "hello", "token": people["Babu"][1]})
            refused = ws.receive_json()
            while refused.get("type") != "error":
                assert refused.get("view") is None and "table" not in refused, refused
                refused = ws.receive_json()
            assert "another table of this event" in refused["message"]
        as_(c, people["Asha"][1])
        c.post(f"/api/nights/{night}/close", json={})
        as_(c, people["Babu"][1])
        assert c.get(f"/api/tables/{codes[0][0]}/deals", params={"k": codes[0][1]}).status_code == 200


def test_every_table_of_an_event_deals_the_same_board_with_the_same_dealer(tmp_path: Path) -> None:
    """...and a finished deal of an event's table is that board finished there, scored in the standings."""
    from test_server import deal_over, play_until

    from helpers.server import hello, receive_until
    with client(tmp_path / "t.db") as c:
        club, people = club_of_three(c)
        as_(c, people["Asha"][1])
        night = c.post(f"/api/clubs/{club}/nights", json={**FORM, "tables": 2}).json()["id"]
        store = nights_of(c.app.state.server)
        seen = []
        for table in (1, 2, 3):          # two tables of the event, then a plain club table
            r = c.post(f"/api/clubs/{club}/tables", json={"preset": "56-4", "fill": "random"})
            assert r.status_code == 200, r.text
            code, key = r.json()["code"], r.json()["key"]
            if table < 3:
                c.portal.call(store.add_table, night, table, code)
            with c.websocket_connect(f"/ws/{code}?k={key}") as ws:
                hello(ws, people["Asha"][1])
                ws.send_json({"type": "start"})
                got = receive_until(ws, lambda m: m.get("view") is not None)
                assert set(got["view"]) >= {"hand", "dealer"}, sorted(got["view"])
                seen.append((got["view"]["hand"], got["view"]["dealer"]))
                if table < 3:
                    play_until(ws, deal_over)
        assert seen[0] == seen[1] and seen[0][1] == 0
        assert seen[2][0] != seen[0][0]
        done = c.portal.call(store.finished, night)
        assert set(done) == {(1, 1), (2, 1)}
        for row in done.values():
            assert len(row["results"]) == 2 and sum(row["results"]) == 0
        view = c.get(f"/api/nights/{night}").json()
        assert view["boards_shown"] == [1]
        page = c.get(f"/api/nights/{night}/boards/1").json()
        assert [t["table"] for t in page["tables"]] == [1, 2]
        assert sum(t["comparison"][0] for t in page["tables"]) == 0


def test_the_owner_starts_the_event_and_its_tables_are_made_once(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        _club, night, people = night_with_teams(c)
        as_(c, people["Babu"][1])
        assert c.post(f"/api/nights/{night}/start", json={}).status_code == 403
        as_(c, people["Asha"][1])
        r = c.post(f"/api/nights/{night}/start", json={})    # club level: the owner's third searching table
        assert r.status_code == 429 and "searching computer players" in r.json()["error"]
        assert c.get(f"/api/nights/{night}").json()["status"] == "open"
        c.app.state.server.hub.quotas.limits.search_tables = 3     # the owner frees a table, say
        r = c.post(f"/api/nights/{night}/start", json={})    # goes on from table 3
        assert r.status_code == 200, r.text
        tables = r.json()["tables"]
        assert [t["table"] for t in tables] == [1, 2, 3]
        again = c.post(f"/api/nights/{night}/start", json={})
        assert again.status_code == 400 and "started already" in again.json()["error"]
        assert c.get(f"/api/nights/{night}").json()["status"] == "running"
        late = c.post(f"/api/nights/{night}/teams", json={"name": "Late", "table": 1, "direction": 1})
        assert late.status_code == 400 and "sign-up is over" in late.json()["error"]
        as_(c, people["Babu"][1])          # Babu's team plays at table 2
        keys = {t["table"]: (t["code"], t["url"].split("#k=")[1]) for t in tables}
        assert c.get(f"/api/tables/{keys[2][0]}", params={"k": keys[2][1]}).status_code == 200
        assert c.get(f"/api/tables/{keys[1][0]}", params={"k": keys[1][1]}).status_code == 403


def test_a_running_events_matches_are_withheld_from_history_and_club_pages_until_it_closes(tmp_path: Path) -> None:
    from fiftysix.server.matches.queries import profile
    from fiftysix.server.matches.schema import match_players, matches

    with client(tmp_path / "t.db") as c:
        club, night, people = night_with_teams(c)
        server = c.app.state.server
        server.hub.quotas.limits.search_tables = 3
        as_(c, people["Asha"][1])
        tables = c.post(f"/api/nights/{night}/start", json={}).json()["tables"]
        codes = [t["code"] for t in tables]
        assert server.withheld is not None
        assert c.portal.call(server.withheld, [*codes, "NOTOURS"]) == set(codes)
        # a match finished at table 1 while the event runs (as the match's end writes it)
        babu = people["Babu"][0]

        async def store_match() -> None:
            async with server.db.engine.begin() as conn:
                await conn.execute(matches.insert().values(
                    id=f"{codes[0]}/1", table_code=codes[0], match_no=1, game="56", preset="56-6", finished=100,
                    first_deal=1, last_deal=2, summary={"names": {babu: "Babu"}, "people": {babu: 0}}, rated=False))
                await conn.execute(match_players.insert().values(
                    match_id=f"{codes[0]}/1", player_id=babu, finished=100, team=0, rank=0,
                    stats={"deals": 2}, rating=None))
        c.portal.call(store_match)
        as_(c, people["Babu"][1])
        assert c.get("/api/players/me/history").json()["matches"] == []
        assert c.get(f"/api/clubs/{club}").json()["matches"] == []
        shown = c.portal.call(profile, server.db.engine, babu)      # with nothing withheld it is there
        assert [m["id"] for m in shown["matches"]] == [f"{codes[0]}/1"]
        as_(c, people["Asha"][1])
        assert c.post(f"/api/nights/{night}/close", json={}).status_code == 200
        assert c.portal.call(server.withheld, codes) == set()
        as_(c, people["Babu"][1])
        assert [m["id"] for m in c.get("/api/players/me/history").json()["matches"]] == [f"{codes[0]}/1"]
        assert [m["id"] for m in c.get(f"/api/clubs/{club}").json()["matches"]] == [f"{codes[0]}/1"]

"""Club nights over HTTP (issue 44): making an event, signing up, standings and board pages under the
no-early-view rule, the event tables' watch gate, and refusals that change nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_clubs import as_, who

from fiftysix.server.nights.routes import nights_of
from helpers.nights import finish_board
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


def finish(c: Any, night: str, table: int, board: int, results: list[int],
           contract: dict[str, Any] | None = None, made: bool = True) -> bool:
    return bool(c.portal.call(finish_board, c.app.state.server, night, table, board, results, contract, made))


def contract(value: int, team: int) -> dict[str, Any]:
    return {"declarer": team, "team": team, "value": value, "strain": "S", "multiplier": 1}


WORKED = ((1, 2, contract(40, 0), True), (2, -3, contract(40, 0), False), (3, 4, contract(48, 1), False))
"""The guide's worked example: each table's result for direction 0 on board 1, its contract and whether made."""


def test_standings_and_boards_show_only_what_every_table_finished(db: str) -> None:
    """On SQLite and PostgreSQL (the write-once board row is a primary key on both)."""
    with client(db) as c:
        _club, night, people = night_with_teams(c)
        as_(c, people["Babu"][1])
        view = c.get(f"/api/nights/{night}").json()
        assert "seed" not in view and view["boards_shown"] == [] and view["final"] is False
        assert [s["score"] for s in view["standings"]] == [0, 0, 0]
        # the worked example on board 1; board 2 finished at tables 1 and 2 only
        for table, result, bid, made in WORKED:
            assert finish(c, night, table, 1, [result, -result], bid, made)
        assert finish(c, night, 1, 2, [9, -9]) and finish(c, night, 2, 2, [-9, 9])
        assert not finish(c, night, 1, 2, [1, -1])          # written once: a retry changes nothing
        view = c.get(f"/api/nights/{night}").json()
        assert view["boards_shown"] == [1]
        assert [(s["team"], s["score"]) for s in view["standings"]] == [("Chinnu", 3), ("Asha", 1), ("Babu", -4)]
        page = c.get(f"/api/nights/{night}/boards/1").json()
        assert [(t["table"], t["results"][0], t["comparison"][0]) for t in page["tables"]] == [
            (1, 2, 1), (2, -3, -4), (3, 4, 3)]
        assert [(t["contract"], t["made"]) for t in page["tables"]] == [(bid, made) for _t, _r, bid, made in WORKED]
        codes = {t["table"]: t["code"] for t in c.portal.call(nights_of(c.app.state.server).tables_of, night)}
        for row in page["tables"]:      # links to the record, the review page and its double-dummy analysis
            code = codes[row["table"]]
            assert row["record"] == f"/api/tables/{code}/deals/1.json"
            assert row["review"] == f"/review?table={code}&deal=1"
            assert row["analysis"] == f"/api/tables/{code}/deals/1/review"
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
        other = c.get(f"/api/tables/{codes[0][0]}", params={"k": codes[0][1]})
        assert own.status_code == 200 and other.status_code == 403
        assert "another table of this event" in other.json()["error"]
        # its finished deals only once every table finished them (none is: the page lists none)
        assert c.get(f"/api/tables/{codes[0][0]}/deals", params={"k": codes[0][1]}).json()["deals"] == []
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
    with client(tmp_path / "t.db", review_from_trick=7) as c:     # a review of the last tricks only: cheap
        club, people = club_of_three(c)
        as_(c, people["Asha"][1])
        night = c.post(f"/api/clubs/{club}/nights", json={**FORM, "tables": 2}).json()["id"]
        store = nights_of(c.app.state.server)
        seen = []
        hosts = ("Asha", "Babu", "Asha")   # each event table played by its team's player (only they watch it)
        for table, host in enumerate(hosts[:2], 1):
            as_(c, people[host][1])
            r = c.post(f"/api/nights/{night}/teams", json={"name": host, "table": table, "direction": 0})
            assert r.status_code == 200, r.text
        for table in (1, 2, 3):          # two tables of the event, then a plain club table
            as_(c, people[hosts[table - 1]][1])
            r = c.post(f"/api/clubs/{club}/tables", json={"preset": "56-4", "fill": "random"})
            assert r.status_code == 200, r.text
            code, key = r.json()["code"], r.json()["key"]
            if table < 3:
                c.portal.call(store.add_table, night, table, code)
            with c.websocket_connect(f"/ws/{code}?k={key}") as ws:
                hello(ws, people[hosts[table - 1]][1])
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
        for row in page["tables"]:          # what the table stored, and links that answer
            stored = done[(row["table"], 1)]["summary"]
            assert row["contract"] == stored["contract"] and row["made"] == stored["made"]
            assert row["contract"] is None or {"declarer", "value", "team"} <= set(row["contract"])
            assert isinstance(row["made"], bool) or row["contract"] is None
            assert c.get(row["record"]).json()["hands"]
            analysis = c.get(row["analysis"])
            assert analysis.status_code in (200, 202) and "error" not in analysis.json(), analysis.text


def test_the_owner_starts_the_event_its_teams_are_seated_and_its_tables_are_made_once(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        _club, night, people = night_with_teams(c)
        server = c.app.state.server
        as_(c, people["Babu"][1])
        assert c.post(f"/api/nights/{night}/start", json={}).status_code == 403
        as_(c, people["Asha"][1])
        server.hub.quotas.limits.open_tables_all = len(server.hub.quotas._hosted) + 2   # the whole server's cap
        r = c.post(f"/api/nights/{night}/start", json={})
        assert r.status_code == 429 and "open tables" in r.json()["error"]
        server.hub.quotas.limits.open_tables_all = 2000
        # three club-level (searching) tables, over the owner's own quota of 2: an event's tables count for the
        # whole server only, and the start goes on from table 3
        r = c.post(f"/api/nights/{night}/start", json={})
        assert r.status_code == 200, r.text
        tables = r.json()["tables"]
        assert [t["table"] for t in tables] == [1, 2, 3]
        again = c.post(f"/api/nights/{night}/start", json={})
        assert again.status_code == 400 and "started already" in again.json()["error"]
        assert c.get(f"/api/nights/{night}").json()["status"] == "running"
        late = c.post(f"/api/nights/{night}/teams", json={"name": "Late", "table": 1, "direction": 1})
        assert late.status_code == 400 and "sign-up is over" in late.json()["error"]
        # each team sits in its direction's seats (direction 0: seats 0, 2, 4 in 56-6), board 1 is dealt by
        # seat 0, the owner holds no seat where her team does not play, and the rest are the event's computers
        for t, name in zip(tables, ("Asha", "Babu", "Chinnu"), strict=True):
            state = server.hub.tables[t["code"]].state
            assert state.status == "playing" and state.deal is not None and state.deal.dealer == 0
            assert state.seats[0].player == people[name][0] and state.rated is False
            assert [s.player for s in state.seats[1:]] == [None] * 5 and all(s.bot for s in state.seats[1:])
            assert state.host == people["Asha"][0]
        r = c.post(f"/api/clubs/{_club}/tables", json={"preset": "56-6", "fill": "pimc"})
        assert r.status_code == 200, r.text          # the owner's own quota is still hers
        as_(c, people["Babu"][1])          # Babu's team plays at table 2: he is shown and may read only it
        view = c.get(f"/api/nights/{night}").json()
        assert [(t["table"], t["yours"], t["url"] is not None) for t in view["tables_made"]] == [
            (1, False, False), (2, True, True), (3, False, False)]
        keys = {t["table"]: (t["code"], t["url"].split("#k=")[1]) for t in tables}
        assert c.get(f"/api/tables/{keys[2][0]}").status_code == 200           # a member: no secret needed
        assert c.get(f"/api/tables/{keys[1][0]}", params={"k": keys[1][1]}).status_code == 403


def test_the_owner_pauses_resumes_and_replaces_at_every_table(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        _club, night, people = night_with_teams(c)
        server = c.app.state.server
        as_(c, people["Asha"][1])
        assert c.post(f"/api/nights/{night}/pause", json={}).status_code == 400       # not running yet
        tables = c.post(f"/api/nights/{night}/start", json={}).json()["tables"]
        paused = c.post(f"/api/nights/{night}/pause", json={})
        assert paused.status_code == 200 and paused.json()["refused"] == []
        assert all(server.hub.tables[t["code"]].state.paused for t in tables)
        assert c.get(f"/api/nights/{night}").json()["status"] == "paused"
        as_(c, people["Babu"][1])
        assert c.post(f"/api/nights/{night}/resume", json={}).status_code == 403
        as_(c, people["Asha"][1])
        assert c.post(f"/api/nights/{night}/resume", json={}).status_code == 200
        assert not any(server.hub.tables[t["code"]].state.paused for t in tables)
        # Babu is away: the event's computer takes his seat at once
        r = c.post(f"/api/nights/{night}/replace", json={"player": people["Babu"][0]})
        assert r.status_code == 200, r.text
        state = server.hub.tables[tables[1]["code"]].state
        assert state.seats[0].player is None and state.seats[0].bot
        missing = c.post(f"/api/nights/{night}/replace", json={"player": people["Dev"][0]})
        assert missing.status_code == 404 and "no seat" in missing.json()["error"]


def test_the_owner_draws_members_without_a_team_into_the_open_places(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        club, people = club_of_three(c)
        as_(c, people["Asha"][1])
        night = c.post(f"/api/clubs/{club}/nights", json={**FORM, "preset": "56-4", "tables": 2}).json()["id"]
        ids = [people[n][0] for n in ("Asha", "Babu", "Chinnu")]
        stranger = c.post(f"/api/nights/{night}/draw", json={"players": [*ids, people["Dev"][0]]})
        assert stranger.status_code == 400 and "members who have no team" in stranger.json()["error"]
        as_(c, people["Babu"][1])
        assert c.post(f"/api/nights/{night}/draw", json={"players": ids}).status_code == 403
        assert c.post(f"/api/nights/{night}/teams", json={"name": "B", "table": 1, "direction": 0}).status_code == 200
        as_(c, people["Asha"][1])
        r = c.post(f"/api/nights/{night}/draw", json={"players": [ids[0], ids[2]]})
        assert r.status_code == 200, r.text
        drawn = r.json()["teams"]          # 56-4: two to a side; the first open place is table 1, side 2
        assert [(t["table"], t["direction"], sorted(t["players"])) for t in drawn] == [(1, 1, sorted([ids[0], ids[2]]))]
        teams = c.get(f"/api/nights/{night}").json()["teams"]
        assert sorted(p for t in teams for p in t["players"]) == sorted(ids)
        again = c.post(f"/api/nights/{night}/draw", json={"players": [ids[0]]})
        assert again.status_code == 400                      # drawn already: a team of her own now


def test_an_event_with_a_start_time_starts_at_the_first_look_after_it(tmp_path: Path) -> None:
    import time as clock

    with client(tmp_path / "t.db") as c:
        club, people = club_of_three(c)
        as_(c, people["Asha"][1])
        starts = int(clock.time()) + 2
        night = c.post(f"/api/clubs/{club}/nights", json={**FORM, "preset": "56-4", "tables": 2, "boards": 1,
                                                          "level": "beginner", "starts": starts}).json()["id"]
        as_(c, people["Babu"][1])
        assert c.post(f"/api/nights/{night}/teams", json={"name": "B", "table": 1, "direction": 0}).status_code == 200
        assert c.get(f"/api/nights/{night}").json()["status"] == "open"       # not yet: and no table made
        assert c.portal.call(nights_of(c.app.state.server).tables_of, night) == []
        clock.sleep(max(0.0, starts - clock.time()) + 0.1)
        view = c.get(f"/api/nights/{night}").json()          # a member's look after the time starts it
        assert view["status"] == "running" and [t["table"] for t in view["tables_made"] if t["url"]] == [1]
        assert len(c.portal.call(nights_of(c.app.state.server).tables_of, night)) == 2


def test_signing_up_checks_the_direction_and_the_team_size_of_the_game(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        club, people = club_of_three(c)
        as_(c, people["Asha"][1])
        night = c.post(f"/api/clubs/{club}/nights", json={**FORM, "preset": "56-4", "tables": 2}).json()["id"]
        wrong = c.post(f"/api/nights/{night}/teams", json={"name": "A", "table": 1, "direction": 2})
        assert wrong.status_code == 400 and "direction 0 to 1" in wrong.json()["error"]
        big = c.post(f"/api/nights/{night}/teams", json={"name": "A", "table": 1, "direction": 0,
                                                         "partners": [people["Babu"][0], people["Chinnu"][0]]})
        assert big.status_code == 400 and "up to 1 member" in big.json()["error"]
        assert c.get(f"/api/nights/{night}").json()["teams"] == []


def test_an_event_starts_when_full_and_closes_itself_rated_once_when_every_board_is_played(tmp_path: Path) -> None:
    """Two tables of 56-4, one board, a team in every place: the last sign-up starts it; the computers play the
    board for the absent people (grace 0); the last board stored closes the event and rates it once, as one
    match (Dev's established rating lets the others' count; nobody else's is established, so Dev's does not)."""
    import time as clock

    from sqlalchemy import select

    from fiftysix.server.matches.schema import ratings

    with client(tmp_path / "t.db", bot_delay=0.0, next_delay=0.0) as c:
        server = c.app.state.server
        people = {n: who(c, n) for n in ("Asha", "Babu", "Chinnu", "Dev")}
        as_(c, people["Asha"][1])
        made = c.post("/api/clubs", json={"name": "Kochi 56"}).json()
        for n in ("Babu", "Chinnu", "Dev"):
            as_(c, people[n][1])
            assert c.post("/api/clubs/join", json={"invite": made["invite"]}).status_code == 200
        as_(c, people["Asha"][1])
        night = c.post(f"/api/clubs/{made['id']}/nights", json={
            **FORM, "preset": "56-4", "tables": 2, "boards": 1, "level": "beginner"}).json()["id"]

        async def establish_dev() -> None:
            async with server.db.engine.begin() as conn:
                await conn.execute(ratings.insert().values(player_id=people["Dev"][0], family="56", mu=30.0,
                                                           sigma=2.0, matches=10, last_match="x/1"))
        c.portal.call(establish_dev)
        for name, table, direction in [("Asha", 1, 0), ("Babu", 1, 1), ("Chinnu", 2, 0), ("Dev", 2, 1)]:
            as_(c, people[name][1])
            assert c.get(f"/api/nights/{night}").json()["status"] == "open"
            r = c.post(f"/api/nights/{night}/teams", json={"name": name, "table": table, "direction": direction})
            assert r.status_code == 200, r.text
        view = c.get(f"/api/nights/{night}").json()
        assert view["status"] == "running" and [t["table"] for t in view["tables_made"] if t["url"]] == [2]
        async def no_grace() -> None:        # on the server's loop: the drop timers live there
            for row in await nights_of(server).tables_of(night):
                table = server.hub.tables[row["code"]]
                table.state.grace = 0.0
                table.expect_seated()
        c.portal.call(no_grace)
        deadline = clock.monotonic() + 90
        while c.portal.call(nights_of(server).get, night)["status"] != "closed":   # closed by the last board
            assert clock.monotonic() < deadline, "the computers did not finish the board"
            clock.sleep(0.2)
        view = c.get(f"/api/nights/{night}").json()
        assert view["final"] and view["boards_shown"] == [1]
        scores = {s["team"]: s["score"] for s in view["standings"]}
        assert scores["Asha"] == -scores["Babu"] and scores["Chinnu"] == -scores["Dev"]

        async def rows() -> dict[str, tuple[str, int]]:
            async with server.db.engine.connect() as conn:
                return {r.player_id: (r.last_match, r.matches) for r in await conn.execute(select(ratings))}
        rated = c.portal.call(rows)
        assert rated[people["Dev"][0]] == ("x/1", 10)
        assert all(rated[people[n][0]] == (f"event:{night}", 1) for n in ("Asha", "Babu", "Chinnu")), rated
        as_(c, people["Asha"][1])
        assert c.post(f"/api/nights/{night}/close", json={}).status_code == 200    # again: nothing changes
        assert c.portal.call(rows) == rated


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


def test_a_match_that_ends_before_the_last_board_goes_on_with_the_next_board_dealt_as_everywhere(
        tmp_path: Path) -> None:
    """A 56 team out of tables at board 1 of table 1 (each team there is left one table, so the deal's loser is
    out): with nobody at the table the computers start the rematch themselves, and board 2 is the event's board 2
    (its seed and the dealer the rotation gives it), so the event still plays and closes with every board."""
    import time as clock

    from fiftysix.server.nights.boards import board_dealer
    from fiftysix.server.state.table import PLAYING

    with client(tmp_path / "t.db", bot_delay=0.1, next_delay=0.0) as c:
        server = c.app.state.server
        club, people = club_of_three(c)
        as_(c, people["Asha"][1])
        night = c.post(f"/api/clubs/{club}/nights", json={
            **FORM, "preset": "56-4", "tables": 2, "boards": 3, "level": "beginner"}).json()["id"]
        code = c.post(f"/api/nights/{night}/start", json={}).json()["tables"][0]["code"]       # table 1
        table = server.hub.tables[code]
        seen: list[tuple[int, int, int]] = []      # (match, board, dealer) of every board dealt

        async def one_table_each() -> int:
            assert table.state.status == PLAYING and table.state.match is not None
            table.state.match.standings[:] = [1, 1]
            return table.state.deals_count
        assert c.portal.call(one_table_each) == 0
        deadline = clock.monotonic() + 60
        while c.portal.call(nights_of(server).get, night)["status"] != "closed":
            assert clock.monotonic() < deadline, (table.state.status, table.state.deals_count)
            state = table.state
            if state.status == PLAYING and state.deal is not None:
                now = (state.match_no, state.deals_count + 1, state.deal.dealer)
                if not seen or seen[-1] != now:
                    seen.append(now)
            clock.sleep(0.02)
        assert table.state.deals_count == 3 and table.state.match_no == 2, seen
        assert (2, 2, board_dealer(2, 4)) in seen, seen
        done = c.portal.call(nights_of(server).finished, night)
        assert set(done) == {(t, b) for t in (1, 2) for b in (1, 2, 3)}


def test_the_owner_allows_a_member_to_make_and_run_events_and_takes_it_back(db: str) -> None:
    """On SQLite and PostgreSQL (the allowed members are rows of migration 0011's table)."""
    with client(db) as c:
        club, people = club_of_three(c)
        babu = people["Babu"][0]
        as_(c, people["Babu"][1])
        listed = c.get(f"/api/clubs/{club}/nights").json()
        assert listed["may_make"] is False and listed["makers"] == []
        assert c.post(f"/api/clubs/{club}/nights", json=FORM).status_code == 403
        refused = c.post(f"/api/clubs/{club}/nights/makers", json={"player": babu, "allow": True})
        assert refused.status_code == 403           # only the owner allows
        as_(c, people["Asha"][1])
        for bad in ({"player": babu}, {"player": babu, "allow": 1}, {"player": people["Dev"][0], "allow": True},
                    {"player": people["Asha"][0], "allow": True}, {"allow": True}):
            r = c.post(f"/api/clubs/{club}/nights/makers", json=bad)
            assert r.status_code == 400 and r.json()["error"], bad
        assert c.post(f"/api/clubs/{club}/nights/makers", json={"player": babu, "allow": True},
                      headers=EVIL).status_code == 403
        assert c.get(f"/api/clubs/{club}/nights").json()["makers"] == []        # the refusals changed nothing
        r = c.post(f"/api/clubs/{club}/nights/makers", json={"player": babu, "allow": True})
        assert r.status_code == 200 and r.json()["makers"] == [babu]
        again = c.post(f"/api/clubs/{club}/nights/makers", json={"player": babu, "allow": True})
        assert again.json()["makers"] == [babu]                                 # allowed twice: once
        assert c.get(f"/api/clubs/{club}/nights").json()["may_make"] is True     # the owner always may
        # Babu makes an event and runs it; Chinnu (not allowed) neither makes one nor runs Babu's
        as_(c, people["Babu"][1])
        assert c.get(f"/api/clubs/{club}/nights").json() == {**listed, "may_make": True}
        made = c.post(f"/api/clubs/{club}/nights", json={**FORM, "preset": "56-4", "tables": 2})
        assert made.status_code == 200, made.text
        night = made.json()["id"]
        view = c.get(f"/api/nights/{night}").json()
        assert view["owner"] == babu and view["is_owner"] is True
        as_(c, people["Chinnu"][1])
        assert c.post(f"/api/clubs/{club}/nights", json=FORM).status_code == 403
        assert c.get(f"/api/nights/{night}").json()["is_owner"] is False
        stopped = c.post(f"/api/nights/{night}/close", json={})
        assert stopped.status_code == 403 and "made this event" in stopped.json()["error"]
        as_(c, people["Babu"][1])
        started = c.post(f"/api/nights/{night}/start", json={})
        assert started.status_code == 200, started.text
        assert all(c.app.state.server.hub.tables[t["code"]].state.host == babu for t in started.json()["tables"])
        # the owner takes the permission back: Babu makes no more events, but still runs the one he made, and
        # the club's owner runs it too
        as_(c, people["Asha"][1])
        r = c.post(f"/api/clubs/{club}/nights/makers", json={"player": babu, "allow": False})
        assert r.status_code == 200 and r.json()["makers"] == []
        assert c.get(f"/api/nights/{night}").json()["is_owner"] is True
        assert c.post(f"/api/nights/{night}/pause", json={}).status_code == 200
        as_(c, people["Babu"][1])
        assert c.post(f"/api/clubs/{club}/nights", json=FORM).status_code == 403
        assert c.post(f"/api/nights/{night}/close", json={}).status_code == 200
        assert c.get(f"/api/nights/{night}").json()["status"] == "closed"

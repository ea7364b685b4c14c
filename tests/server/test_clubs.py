"""Clubs and finding a game (issue 43): invites, the owner's powers, club tables only members sit at, the
public list that never shows private or club tables, and refusals that change nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from helpers.server import KEYS, client, create, receive_until

EVIL = {"origin": "https://evil.example"}


def who(c: Any, name: str) -> tuple[str, str]:
    """A fresh player's (id, token), their cookie set."""
    c.cookies.clear()
    r = c.post("/api/player", json={"name": name})
    assert r.status_code == 200, r.text
    return str(r.json()["id"]), str(r.json()["token"])


def as_(c: Any, token: str) -> None:
    c.cookies.clear()
    c.cookies.set("fiftysix_player", token)


def new_club(c: Any, token: str, name: str = "Thrissur 56") -> dict[str, Any]:
    as_(c, token)
    r = c.post("/api/clubs", json={"name": name})
    assert r.status_code == 200, r.text
    return dict(r.json())


def members(c: Any, token: str, club: str) -> list[str]:
    as_(c, token)
    r = c.get(f"/api/clubs/{club}")
    assert r.status_code == 200, r.text
    return [m["name"] for m in r.json()["members"]]


def count(db: Path, table: str) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def test_invite_join_members_by_name_and_a_stranger_gets_404(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        _, owner = who(c, "Vinod")
        _, asha = who(c, "Asha")
        _, ben = who(c, "Ben")
        club = new_club(c, owner)
        as_(c, asha)
        r = c.post("/api/clubs/join", json={"invite": club["invite"]})
        assert r.status_code == 200 and r.json()["id"] == club["id"]
        assert members(c, owner, club["id"]) == ["Asha", "Vinod"]
        as_(c, ben)     # not a member: the same 404 as a club that does not exist
        stranger = c.get(f"/api/clubs/{club['id']}")
        unknown = c.get("/api/clubs/NoSuchClubAtAllHere12")
        assert stranger.status_code == unknown.status_code == 404
        assert stranger.json() == unknown.json()
        assert "invite" in stranger.json()["error"]


def test_a_foreign_origin_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with client(db) as c:
        _, owner = who(c, "Vinod")
        club = new_club(c, owner)
        _, asha = who(c, "Asha")
        as_(c, asha)
        r = c.post("/api/clubs/join", json={"invite": club["invite"]}, headers=EVIL)
        assert r.status_code == 403
        assert c.post("/api/clubs", json={"name": "Evil"}, headers=EVIL).status_code == 403
        as_(c, owner)
        assert c.get(f"/api/clubs/{club['id']}", headers=EVIL).status_code == 403
        assert c.get("/api/lobby", headers=EVIL).status_code == 403
        assert members(c, owner, club["id"]) == ["Vinod"]
    assert count(db, "clubs") == 1


def test_a_forged_or_revoked_invite_is_refused_with_nothing_changed(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with client(db) as c:
        _, owner = who(c, "Vinod")
        club = new_club(c, owner)
        _, asha = who(c, "Asha")
        as_(c, asha)
        forged = c.post("/api/clubs/join", json={"invite": club["invite"][:-2] + "xx"})
        assert forged.status_code == 404 and "invite link" in forged.json()["error"]
        as_(c, owner)
        fresh = c.post(f"/api/clubs/{club['id']}/invite", json={})
        assert fresh.status_code == 200
        as_(c, asha)        # the old link fails once a new one is made
        assert c.post("/api/clubs/join", json={"invite": club["invite"]}).status_code == 404
        assert count(db, "club_members") == 1
        as_(c, owner)
        assert c.post(f"/api/clubs/{club['id']}/revoke", json={}).status_code == 200
        as_(c, asha)
        assert c.post("/api/clubs/join", json={"invite": fresh.json()["invite"]}).status_code == 404
        assert count(db, "club_members") == 1
        as_(c, owner)
        newest = c.post(f"/api/clubs/{club['id']}/invite", json={}).json()["invite"]
        as_(c, asha)
        assert c.post("/api/clubs/join", json={"invite": newest}).status_code == 200
        assert members(c, owner, club["id"]) == ["Asha", "Vinod"]
    with sqlite3.connect(db) as conn:       # only the hash is kept
        stored = conn.execute("SELECT invite_hash FROM clubs").fetchone()[0]
    assert newest not in stored and len(stored) == 64


def test_the_owner_hands_over_and_removes(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        vinod_id, owner = who(c, "Vinod")
        asha_id, asha = who(c, "Asha")
        ben_id, ben = who(c, "Ben")
        club = new_club(c, owner)
        for token in (asha, ben):
            as_(c, token)
            assert c.post("/api/clubs/join", json={"invite": club["invite"]}).status_code == 200
        as_(c, asha)        # a member who is not the owner may do neither
        assert c.post(f"/api/clubs/{club['id']}/remove", json={"player": ben_id}).status_code == 403
        assert c.post(f"/api/clubs/{club['id']}/owner", json={"player": asha_id}).status_code == 403
        as_(c, owner)
        assert c.post(f"/api/clubs/{club['id']}/remove", json={"player": vinod_id}).status_code == 400
        assert c.post(f"/api/clubs/{club['id']}/owner", json={"player": "not-a-member"}).status_code == 400
        r = c.post(f"/api/clubs/{club['id']}/owner", json={"player": asha_id})
        assert r.status_code == 200
        assert c.post(f"/api/clubs/{club['id']}/remove", json={"player": ben_id}).status_code == 403
        as_(c, asha)
        assert c.get(f"/api/clubs/{club['id']}").json()["is_owner"] is True
        assert c.post(f"/api/clubs/{club['id']}/remove", json={"player": ben_id}).status_code == 200
        assert members(c, asha, club["id"]) == ["Asha", "Vinod"]
        as_(c, ben)         # removed: the club is gone for them
        assert c.get(f"/api/clubs/{club['id']}").status_code == 404


def test_a_non_member_is_refused_at_a_club_table_and_nothing_changes(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        _, owner = who(c, "Vinod")
        _, asha = who(c, "Asha")
        _, ben = who(c, "Ben")
        club = new_club(c, owner)
        as_(c, asha)
        c.post("/api/clubs/join", json={"invite": club["invite"]})
        as_(c, owner)
        made = c.post(f"/api/clubs/{club['id']}/tables", json={"preset": "56-4", "fill": None})
        assert made.status_code == 200, made.text
        code, key = made.json()["code"], made.json()["key"]
        as_(c, owner)
        listed = c.get(f"/api/clubs/{club['id']}").json()["tables"]
        assert [t["code"] for t in listed] == [code] and listed[0]["url"].endswith(f"#k={key}")
        as_(c, owner)   # the club allows watchers, so Ben's hello is let through to be refused at join/sit
        assert c.post(f"/api/clubs/{club['id']}/settings", json={"watchers": True}).status_code == 200
        with c.websocket_connect(f"/ws/{code}?k={key}") as ws:
            ws.send_json({"type": "hello", "token": ben})
            state = receive_until(ws, lambda m: m["type"] == "state")
            version = state["version"]
            ws.send_json({"type": "join", "name": "Ben"})
            refused = receive_until(ws, lambda m: m["type"] == "error")
            assert "club" in refused["message"]
            ws.send_json({"type": "sit", "seat": 1})
            assert "club" in receive_until(ws, lambda m: m["type"] == "error")["message"]
            ws.send_json({"type": "state"})
            after = receive_until(ws, lambda m: m["type"] == "state")
            assert after["version"] == version
        with c.websocket_connect(f"/ws/{code}?k={key}") as ws:     # a member joins and sits
            ws.send_json({"type": "hello", "token": asha})
            receive_until(ws, lambda m: m["type"] == "state")
            ws.send_json({"type": "join", "name": "Asha"})
            ws.send_json({"type": "sit", "seat": 1})
            seated = receive_until(ws, lambda m: m["type"] in ("state", "event")
                                   and m["table"]["seats"][1]["name"] == "Asha")
            assert seated
        as_(c, owner)       # no watchers: a stranger's hello with the link is refused; so is a read
        assert c.post(f"/api/clubs/{club['id']}/settings", json={"watchers": False}).status_code == 200
        with c.websocket_connect(f"/ws/{code}?k={key}") as ws:
            ws.send_json({"type": "hello", "token": ben})
            assert "club" in receive_until(ws, lambda m: m["type"] == "error")["message"]
        as_(c, ben)
        assert c.get(f"/api/tables/{code}?k={key}").status_code == 403


def test_the_public_list_never_shows_private_or_club_tables(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        _, host = who(c, "Vinod")
        public = create(c, host, preset="56-4", public=True, fill=None)
        private = create(c, host, preset="56-4", fill=None)
        club = new_club(c, host)
        as_(c, host)
        made = c.post(f"/api/clubs/{club['id']}/tables", json={"preset": "56-4", "public": True})
        assert made.status_code == 200
        c.cookies.clear()
        r = c.get("/api/lobby")
        assert r.status_code == 200
        tables = r.json()["tables"]
        assert [t["code"] for t in tables] == [public]
        listed = tables[0]
        assert listed["host"] == "Vinod" and listed["free"] == 3 and listed["game"] == "56"
        assert listed["preset"] == "56-4" and "k=" not in listed["url"]
        text = r.text
        assert private not in text and made.json()["code"] not in text and KEYS[private] not in text


def test_the_public_list_shows_each_hosts_rating_of_the_tables_game_read_at_once(tmp_path: Path) -> None:
    from sqlalchemy import event

    db = tmp_path / "t.db"
    with client(db) as c:
        vinod, host = who(c, "Vinod")
        asha, other = who(c, "Asha")
        new = create(c, other, preset="56-4", public=True, fill=None)          # Asha: not rated yet
        rated = create(c, host, preset="56-4", public=True, fill=None)
        no_55 = create(c, host, preset="55", public=True, fill=None)           # Vinod has no 55 rating
        with sqlite3.connect(db) as conn:
            conn.executemany("INSERT INTO ratings (player_id, family, mu, sigma, matches, last_match) "
                             "VALUES (?, '56', ?, ?, ?, '')", [(vinod, 27.5, 2.5, 12), (asha, 25.0, 8.0, 0)])
        engine = c.app.state.server.db.engine.sync_engine
        reads: list[str] = []

        def seen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            if "ratings" in statement:
                reads.append(statement)
        event.listen(engine, "before_cursor_execute", seen)
        c.cookies.clear()
        r = c.get("/api/lobby")
        event.remove(engine, "before_cursor_execute", seen)
        assert r.status_code == 200, r.text
        by_code = {t["code"]: t for t in r.json()["tables"]}
        assert set(by_code) == {new, rated, no_55}
        assert by_code[rated]["host"] == "Vinod" and by_code[rated]["host_rating"] == {
            "mu": 27.5, "sigma": 2.5, "shown": 20.0, "display": 1625, "matches": 12, "provisional": False}
        assert by_code[no_55]["host_rating"] is None and by_code[no_55]["game"] == "55"
        assert by_code[new]["host_rating"] is None      # a row with no rated match is no rating
        assert len(reads) == 1, reads                   # one query for every host of the list
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE ratings SET matches = 3 WHERE player_id = ?", (asha,))
        shown = c.get("/api/lobby").json()["tables"]
        assert [t["host_rating"]["provisional"] for t in shown if t["code"] == new] == [True]


def test_the_migration_upgrades_a_database_written_by_todays_code(db: str) -> None:
    """A database at today's head (0006) with a table in it upgrades in place, on SQLite and PostgreSQL."""
    import asyncio

    from alembic import command
    from alembic.config import Config
    from sqlalchemy import inspect, text
    from test_matches import head

    from fiftysix.server.storage.db import MIGRATIONS, Database

    def to_0006(conn: Any) -> None:
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0006_history")

    async def run() -> set[str]:
        base = Database(db)
        try:
            async with base.engine.begin() as conn:
                await conn.run_sync(to_0006)
                await conn.execute(text("INSERT INTO tables (code, created, status) VALUES ('OLD1', 1, 'lobby')"))
            await base.migrate()
            assert await base.exists("OLD1")
            async with base.engine.connect() as conn:
                version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one()
                assert version == head()        # today's head (0011_club_event_makers or later)
                return set(await conn.run_sync(lambda sync: inspect(sync).get_table_names()))
        finally:
            await base.close()
    names = asyncio.run(run())
    assert {"clubs", "club_members", "club_tables", "matches", "tables", "club_events", "club_event_teams",
            "club_event_tables", "club_event_makers"} <= names and "club_event_boards" not in names


def test_the_leaderboard_lists_members_unrated_by_name_and_checks_the_family(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        _, owner = who(c, "Vinod")
        _, asha = who(c, "Asha")
        club = new_club(c, owner)
        as_(c, asha)
        c.post("/api/clubs/join", json={"invite": club["invite"]})
        board = c.get(f"/api/clubs/{club['id']}/leaderboard?family=56")
        assert board.status_code == 200
        assert [(m["name"], m["rating"]) for m in board.json()["members"]] == [("Asha", None), ("Vinod", None)]
        bad = c.get(f"/api/clubs/{club['id']}/leaderboard?family=57")
        assert bad.status_code == 400 and "56 or 55" in bad.json()["error"]

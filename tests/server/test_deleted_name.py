"""Issue 55, item 3: a deleted account's name is nowhere afterwards: not in any row of the database (every text and
JSON column) and not in any answer of the routes that read (table facts and deals, the socket's state, the club
and night pages, the lobby, the histories), also after a restart that resumes the tables from their logs."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openskill")

from starlette.testclient import TestClient  # noqa: E402

from helpers.server import client, hello, is_snapshot, keyed, my_turn, receive  # noqa: E402

COOKIE = "fiftysix_player"
NAME = "Zorvak Qimlet"       # in no word of the game, the catalogues or the pages


def as_(c: TestClient, token: str | None) -> None:
    c.cookies.clear()
    if token is not None:
        c.cookies.set(COOKIE, token)


def person(c: TestClient, name: str) -> tuple[str, str]:
    """A new account signed in on this device: (id, token)."""
    as_(c, None)
    made = c.post("/api/player", json={"name": name})
    assert made.status_code == 200, made.text
    as_(c, made.json()["token"])
    upgraded = c.get("/api/account")
    assert upgraded.status_code == 200, upgraded.text
    return str(made.json()["id"]), str(upgraded.json()["token"])


def ok(r: Any) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def play_a_deal(c: TestClient, token: str, code: str) -> None:
    """The host starts table ``code`` (computer players in the other seats) and plays a whole deal."""
    as_(c, None)
    with c.websocket_connect(keyed(f"/ws/{code}")) as ws:
        hello(ws, token)
        ws.send_json({"type": "start"})
        for _ in range(5000):
            msg = receive(ws)
            if is_snapshot(msg) and msg["table"]["status"] in ("deal_over", "match_over"):
                return
            if msg["type"] == "error" and str(msg.get("message", "")).startswith("too many"):
                time.sleep(0.5)
            if my_turn(msg):
                ws.send_json({"type": "move", "move": msg["view"]["legal"][0]})
    raise AssertionError("the deal did not end")


def build(c: TestClient) -> dict[str, Any]:
    """Everything that can keep the name: tables the person hosts (one with a deal played), a table of someone
    else they joined, a club they joined and a club they own (both with tables they made), an event's team they
    signed up, an ask to see a hand."""
    me, mine = person(c, NAME)
    biju, theirs = person(c, "Biju")
    as_(c, mine)
    own = ok(c.post("/api/tables", json={"preset": "56-4", "fill": "random", "public": True}))["code"]
    assert NAME in ok(c.get(f"/api/tables/{own}"))["name"]
    play_a_deal(c, mine, own)
    as_(c, theirs)
    club = ok(c.post("/api/clubs", json={"name": "Thrissur 56"}))
    as_(c, mine)
    owned = ok(c.post("/api/clubs", json={"name": f"{NAME} club"}))
    ok(c.post("/api/clubs/join", json={"invite": club["invite"]}))
    club_table = ok(c.post(f"/api/clubs/{club['id']}/tables", json={"preset": "56-4", "fill": "random"}))
    owned_table = ok(c.post(f"/api/clubs/{owned['id']}/tables", json={"preset": "56-4", "fill": "random"}))
    as_(c, theirs)
    ok(c.post("/api/clubs/join", json={"invite": owned["invite"]}))
    night = ok(c.post(f"/api/clubs/{club['id']}/nights", json={"name": "Friday night", "preset": "56-4",
                                                                "boards": 2, "tables": 2, "level": "club"}))["id"]
    as_(c, mine)
    ok(c.post(f"/api/nights/{night}/teams", json={"name": f"{NAME} and co", "table": 1, "direction": 0}))
    # at Biju's table: the person joins by name, and (watching a deal) asks to see a hand
    other = ok(c.post("/api/tables", json={"token": theirs, "preset": "56-4", "fill": "random", "public": True}))
    as_(c, None)
    with c.websocket_connect(f"/ws/{other['code']}") as host_ws, c.websocket_connect(f"/ws/{other['code']}") as ws:
        hello(host_ws, theirs)
        hello(ws, mine)
        ws.send_json({"type": "join", "name": NAME})
        host_ws.send_json({"type": "start"})
        for _ in range(200):
            msg = receive(host_ws)
            if is_snapshot(msg) and msg["table"]["status"] == "playing":
                break
        as_(c, mine)
        ok(c.post(f"/api/tables/{other['code']}/peek", json={"seat": 0}))
    codes = [own, club_table["code"], owned_table["code"], other["code"]]
    keys = {club_table["code"]: club_table["key"], owned_table["code"]: owned_table["key"]}
    return {"me": me, "mine": mine, "biju": biju, "theirs": theirs, "codes": codes, "keys": keys,
            "clubs": [club["id"], owned["id"]], "night": night}


def every_text(db: Path) -> str:
    """The whole SQLite database as SQL text (every table's every column)."""
    with sqlite3.connect(db) as conn:
        return "\n".join(conn.iterdump())


def every_answer(c: TestClient, made: dict[str, Any]) -> dict[str, str]:
    """What the reading routes answer Biju (a member of both clubs, at one of the tables)."""
    as_(c, made["theirs"])
    paths = ["/api/lobby", f"/api/players/{made['me']}/history", "/api/players/me/history",
             f"/api/nights/{made['night']}", f"/api/clubs/{made['clubs'][0]}/nights", "/api/clubs"]
    for club in made["clubs"]:
        paths += [f"/api/clubs/{club}", f"/api/clubs/{club}/leaderboard?family=56"]
    for code in made["codes"]:
        key = made["keys"].get(code)
        suffix = f"?k={key}" if key else ""
        paths += [f"/api/tables/{code}{suffix}", f"/api/tables/{code}/deals{suffix}",
                  f"/api/tables/{code}/deals/1.json{suffix}", f"/api/tables/{code}/matches/1.json{suffix}",
                  f"/t/{code}"]
    seen = {path: c.get(path).text for path in paths}
    as_(c, None)
    for code in made["codes"]:
        key = made["keys"].get(code)
        with c.websocket_connect(f"/ws/{code}" + (f"?k={key}" if key else "")) as ws:
            seen[f"/ws/{code}"] = str(hello(ws, made["theirs"]))
    return seen


def test_a_deleted_accounts_name_is_nowhere(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with client(db) as c:
        made = build(c)
        assert NAME in every_text(db)
        before = every_answer(c, made)
        assert any(NAME in text for text in before.values())
        as_(c, made["mine"])
        ok(c.post("/api/account/delete", json={"confirm": True}))
        live = every_answer(c, made)    # the tables in memory: read again from their scrubbed logs
    with client(db) as c:       # restarted: the tables are resumed from their logs
        seen = every_answer(c, made)
    dump = every_text(db)
    stored = [line[:200] for line in dump.splitlines() if NAME in line]
    served = sorted({f"{path} (before the restart)" for path, text in live.items() if NAME in text}
                    | {path for path, text in seen.items() if NAME in text})
    assert not stored and not served, "\n".join(["stored:", *stored, "served:", *served])
    assert {path for path, text in seen.items() if text != before[path] and "former player" in text}


def test_a_name_is_replaced_as_a_whole_and_only_the_persons_own() -> None:
    from fiftysix.server.accounts.scrub import FORMER, scrub_event, unnamed

    assert unnamed("Asha's table", ["a", "Asha"], 40) == f"{FORMER}'s table"      # the "a" of "table" stays
    assert unnamed("a's table", ["a"], 40) == f"{FORMER}'s table"
    assert unnamed("ടേബിൾ: Asha", ["Asha"], 40) == f"ടേബിൾ: {FORMER}"              # the default name in Malayalam
    assert unnamed("Ashanti & Biju", ["Asha"], 64) == "Ashanti & Biju"
    created = {"kind": "create", "name": "Asha's table", "host": "p1", "host_name": "Asha"}
    assert scrub_event(created, "p1", {"Asha"}) == {**created, "name": f"{FORMER}'s table", "host_name": FORMER}
    assert scrub_event(created, "p2", {"Asha"}) is None
    admitted = {"kind": "admit", "player": "p1", "who": "p2", "name": "Biju"}     # a deleted host let Biju in
    assert scrub_event(admitted, "p1", {"Asha"}) is None
    assert scrub_event(admitted, "p2", {"Biju"}) == {**admitted, "name": FORMER}
    joined = {"kind": "join", "player": "p1", "name": "Asha"}
    assert scrub_event(joined, "p1") == {**joined, "name": FORMER}

"""Setting up a club (issue 57 item 2): the invite page names the club before the invitee has a player, a club
table is made of the game, preset, length and computer level the page chose (a wrong one refused in words), a
finished table leaves the club's list, recent matches say who played and who won, and the invite has a QR code."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from test_clubs import as_, new_club, who

from fiftysix.server.state.table import MATCH_OVER
from helpers.server import client


def test_the_invite_names_the_club_to_someone_without_a_player(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        _, owner = who(c, "Vinod")
        club = new_club(c, owner, "Thursday club")
        c.cookies.clear()       # the invitee's fresh phone: no player yet
        r = c.post("/api/clubs/invited", json={"invite": club["invite"]})
        assert r.status_code == 200 and r.json() == {"name": "Thursday club"}
        wrong = c.post("/api/clubs/invited", json={"invite": club["invite"][:-2] + "xx"})
        assert wrong.status_code == 404 and "invite link does not work" in wrong.json()["error"]
        ml = c.post("/api/clubs/invited", json={"invite": 5}, headers={"Accept-Language": "ml"})
        assert ml.status_code == 404 and "invite link does not work" not in ml.json()["error"]


def test_a_club_table_is_the_game_the_page_chose_and_a_wrong_one_is_refused(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        _, owner = who(c, "Vinod")
        club = new_club(c, owner)
        made = c.post(f"/api/clubs/{club['id']}/tables",
                      json={"preset": "55-4", "options": {}, "fill": "random"})
        assert made.status_code == 200, made.text
        state = c.app.state.server.hub.tables[made.json()["code"]].state
        assert state.game.name == "55" and len(state.seats) == 4
        bad = c.post(f"/api/clubs/{club['id']}/tables", json={"preset": "57-9"})
        assert bad.status_code == 400 and "57-9" in bad.json()["error"], bad.text


def test_a_finished_table_leaves_the_club_list(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        _, owner = who(c, "Vinod")
        club = new_club(c, owner)
        code = c.post(f"/api/clubs/{club['id']}/tables", json={"preset": "56-4"}).json()["code"]
        listed = lambda: [t["code"] for t in c.get(f"/api/clubs/{club['id']}").json()["tables"]]  # noqa: E731
        assert listed() == [code]
        c.app.state.server.hub.tables[code].state.status = MATCH_OVER
        assert listed() == []


def test_recent_matches_say_who_played_who_won_and_link_the_match(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        asha, owner = who(c, "Asha")
        ben, guest = who(c, "Ben")
        club = new_club(c, owner)
        as_(c, guest)
        assert c.post("/api/clubs/join", json={"invite": club["invite"]}).status_code == 200
        as_(c, owner)
        code = c.post(f"/api/clubs/{club['id']}/tables", json={"preset": "56-4"}).json()["code"]
        summary = {"team_of": [0, 1, 0, 1], "ranks": [1, 0], "standings": [4, 8],
                   "people": {asha: 0, ben: 1}, "bots": {"0": ["pimc"], "1": ["nobot"]},
                   "names": {asha: "Asha", ben: "Ben"}}
        with sqlite3.connect(tmp_path / "t.db") as db:
            db.execute("INSERT INTO matches (id, table_code, match_no, game, preset, finished, first_deal, last_deal,"
                       " summary, rated) VALUES (?, ?, 1, '56', '56-4', ?, 3, 9, ?, 0)",
                       (f"{code}/1", code, int(time.time()), json.dumps(summary)))
        [m] = c.get(f"/api/clubs/{club['id']}").json()["matches"]
        assert m["url"] == f"/review?table={code}&deal=3"
        assert [s["people"] for s in m["sides"]] == [["Asha"], ["Ben"]]
        assert [s["won"] for s in m["sides"]] == [False, True]
        assert [s["standing"] for s in m["sides"]] == [4, 8]
        assert m["sides"][1]["computers"] == [""]      # a program of no level, named by its program on the page
        assert [s["bots"] for s in m["sides"]] == [["pimc"], ["nobot"]]


def test_the_club_invite_has_a_qr_code(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        _, owner = who(c, "Vinod")
        club = new_club(c, owner)
        r = c.post("/api/share", json={"path": club["invite_url"]})
        assert r.status_code == 200 and r.json()["url"].endswith(club["invite_url"]) and r.json()["qr"]
        assert c.post("/api/share", json={"path": "/history"}).status_code == 400

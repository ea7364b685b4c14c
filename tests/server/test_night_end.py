"""A club night's end (issue 57 item 5): an event's table knows its event (the board, the boards, where the
standings are) and says when its last board is played; the sign-up's places, the board lines and the standings
speak in teams: tied teams share a rank."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_clubs import as_
from test_nights import finish, night_with_teams

from fiftysix.server.state.base import DEAL_OVER
from helpers.server import client


def test_an_event_table_says_its_board_and_at_the_last_one_that_the_night_is_over(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        _club, night, people = night_with_teams(c)          # two boards
        server = c.app.state.server
        as_(c, people["Asha"][1])
        tables = c.post(f"/api/nights/{night}/start", json={}).json()["tables"]
        as_(c, people["Babu"][1])
        code = tables[1]["code"]
        info = c.get(f"/api/tables/{code}").json()
        assert info["event"] == {"night": night, "board": 1, "boards": 2, "last": False,
                                 "standings": f"/club#n={night}"}

        async def last_board_played() -> None:      # as the table is after its second deal
            state = server.hub.tables[code].state
            state.deals_count, state.status = 2, DEAL_OVER
        c.portal.call(last_board_played)
        info = c.get(f"/api/tables/{code}").json()
        assert info["event"]["board"] == 2 and info["event"]["last"] is True
        as_(c, people["Asha"][1])
        plain = c.post("/api/tables", json={"preset": "56-4"}).json()
        assert c.get(f"/api/tables/{plain['code']}").json()["event"] is None


def test_the_sign_up_board_lines_and_standings_speak_in_teams_and_ties_share_a_rank(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        _club, night, people = night_with_teams(c)      # Asha, Babu, Chinnu: direction 0 at tables 1, 2, 3
        as_(c, people["Babu"][1])
        view: dict[str, Any] = c.get(f"/api/nights/{night}").json()
        assert view["sides"] == 2                       # 56: two teams at a table
        for table, result in ((1, 2), (2, 2), (3, -4)):
            assert finish(c, night, table, 1, [result, -result],
                          {"declarer": 0, "team": 0, "value": 40, "strain": "S", "multiplier": 1}, True)
        view = c.get(f"/api/nights/{night}").json()
        assert [(s["team"], s["score"], s["rank"]) for s in view["standings"]] == [
            ("Asha", 2, 1), ("Babu", 2, 1), ("Chinnu", -4, 3)]
        page = c.get(f"/api/nights/{night}/boards/1").json()
        assert [row["teams"] for row in page["tables"]] == [["Asha", None], ["Babu", None], ["Chinnu", None]]

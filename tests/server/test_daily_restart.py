"""Today's deals over a restart (issue 58): the same boards for every player (the day's seed from the server's kept
secret), and a set claimed before a restart resumed after it at the same table, which deals on from its log."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_clubs import who
from test_nights_no_leak import Reader, read_as

from fiftysix.server.daily.part import daily_of
from fiftysix.server.daily.seeds import daily_board_seed
from helpers.server import client


@pytest.fixture
def day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FIFTYSIX_DAILY", "56-4:2,56-6:1")
    monkeypatch.setenv("FIFTYSIX_DAILY_LEVEL", "beginner")


def test_every_player_gets_the_day_s_boards_and_a_restart_resumes_the_set(tmp_path: Path, day: None) -> None:
    with client(tmp_path / "t.db") as c:
        server = c.app.state.server
        people = [Reader(n, *who(c, n), True) for n in ("Anu", "Biju")]
        codes = []
        for p in people:
            read_as(c, p)
            r = c.post("/api/daily/start", json={"preset": "56-4"})
            assert r.status_code == 200 and not r.json()["resumed"], r.text
            codes.append(r.json()["code"])
        secret = c.portal.call(daily_of(server).secret)
        today = daily_of(server).today()
        for board in (1, 2):
            seeds = {c.portal.call(server.hub.board_seed, code, board) for code in codes}
            assert seeds == {daily_board_seed(secret, today, "56-4", board)}
        assert daily_board_seed(secret, today, "56-4", 1) != daily_board_seed(secret, today, "56-6", 1)
        hands = [server.hub.tables[code].state.deal.hands for code in codes]    # board 1 dealt alike
        assert hands[0] == hands[1]
        read_as(c, people[0])
        assert c.post("/api/daily/start", json={"preset": "55"}).status_code == 404    # no such set today
        refused = c.get("/api/daily/56-4/boards/1", headers={"accept-language": "ml-IN,ml;q=0.9"})
        assert refused.status_code == 403 and "ബോർഡ്" in refused.json()["error"]     # said in Malayalam too
        assert "finish this board" in c.get("/api/daily/56-4/boards/1").json()["error"]
    with client(tmp_path / "t.db") as c:         # the server restarted: same secret, same claims
        server = c.app.state.server
        assert c.portal.call(daily_of(server).secret) == secret
        read_as(c, people[0])
        again = c.post("/api/daily/start", json={"preset": "56-4"}).json()
        assert again["code"] == codes[0] and again["resumed"]
        table = server.hub.tables[codes[0]]
        assert table.state.status == "playing" and table.state.deal.hands == hands[0]   # from its log

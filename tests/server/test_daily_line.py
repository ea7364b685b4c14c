"""The line for today's deals (issue 58): past the sets one process plays at once, a new start waits its turn with
an honest estimate; the sets in play never wait, and a place freed goes to the first in line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_clubs import who
from test_nights_no_leak import Reader, read_as

from fiftysix.server.daily.admission import FORGET, Admission
from fiftysix.server.daily.part import daily_of
from helpers.server import client


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_line_is_first_come_and_its_wait_comes_from_sets_seen_ending() -> None:
    clock = Clock()
    line = Admission(2, clock=clock)
    assert line.ask("a") is None and line.ask("b") is None      # two places in play
    c, d = line.ask("c"), line.ask("d")
    assert c is not None and d is not None and (c.place, d.place) == (1, 2)
    assert c.wait is None       # no set has ended yet: no figure is honest
    assert line.ask("a") is None        # a set in play is never held up
    clock.now += 20
    line.release("a")                   # one set ended, 20 s after the start
    clock.now += 10
    assert line.ask("d") is not None    # d is behind c: no overtaking
    assert line.ask("c") is None        # c takes the freed place
    waiting = line.ask("d")
    assert waiting is not None and waiting.place == 1
    assert waiting.wait == pytest.approx(30.0)     # one set ended in the 30 s watched: one ahead of d
    clock.now += FORGET + 1             # d stopped asking: their place is given up
    assert line.ask("e") is not None and line.ask("e").place == 1    # type: ignore[union-attr]


def test_a_place_whose_table_was_left_and_unloaded_is_freed() -> None:
    held = {"a"}
    line = Admission(1, in_play=lambda p: p in held)
    assert line.ask("a") is None and line.ask("b") is not None
    held.clear()                        # a's table went idle and was unloaded
    assert line.ask("b") is None


@pytest.fixture
def one_place(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FIFTYSIX_DAILY", "56-4:2")
    monkeypatch.setenv("FIFTYSIX_DAILY_LEVEL", "beginner")
    monkeypatch.setenv("FIFTYSIX_DAILY_CAPACITY", "1")


def test_a_full_server_answers_a_place_in_line_and_plays_on(tmp_path: Path, one_place: None) -> None:
    with client(tmp_path / "t.db") as c:
        server: Any = c.app.state.server
        people = {n: Reader(n, *who(c, n), True) for n in ("Anu", "Biju", "Cheru")}
        read_as(c, people["Anu"])
        first = c.post("/api/daily/start", json={"preset": "56-4"})
        assert first.status_code == 200, first.text
        for place, n in enumerate(("Biju", "Cheru"), 1):
            read_as(c, people[n])
            r = c.post("/api/daily/start", json={"preset": "56-4"})
            assert r.status_code == 202 and r.json() == {"queued": place, "wait": None}, r.text
        read_as(c, people["Anu"])       # the set in play resumes at once
        assert c.post("/api/daily/start", json={"preset": "56-4"}).json()["code"] == first.json()["code"]
        table = server.hub.tables[first.json()["code"]]
        assert table.state.status == "playing"      # its table plays on: nothing stalled
        c.portal.call(server.hub.deal_finished, first.json()["code"], 2, [])   # Anu's last board stored
        read_as(c, people["Cheru"])
        assert c.post("/api/daily/start", json={"preset": "56-4"}).json()["queued"] == 2   # Biju first
        read_as(c, people["Biju"])
        assert c.post("/api/daily/start", json={"preset": "56-4"}).status_code == 200
        read_as(c, people["Cheru"])
        waiting = c.post("/api/daily/start", json={"preset": "56-4"}).json()
        assert waiting["queued"] == 1 and waiting["wait"] is not None
        assert daily_of(server).admission.playing == {people["Biju"].player}


@pytest.mark.parametrize(("level", "places"), [("beginner", 64), ("club", 1), ("expert", 1), (None, 1)])
def test_the_line_holds_by_default_what_one_process_held_at_the_level(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     level: str | None, places: int) -> None:
    """docs/benchmarks.md, "Today's deals": the default capacity is the level's held figure (the default level is
    the club's); the operator's FIFTYSIX_DAILY_CAPACITY still wins."""
    monkeypatch.delenv("FIFTYSIX_DAILY_CAPACITY", raising=False)
    if level is None:
        monkeypatch.delenv("FIFTYSIX_DAILY_LEVEL", raising=False)
    else:
        monkeypatch.setenv("FIFTYSIX_DAILY_LEVEL", level)
    with client(tmp_path / "t.db") as c:
        assert daily_of(c.app.state.server).admission.capacity == places
    monkeypatch.setenv("FIFTYSIX_DAILY_CAPACITY", "7")
    with client(tmp_path / "u.db") as c:
        assert daily_of(c.app.state.server).admission.capacity == 7

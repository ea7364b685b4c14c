"""Today's deals with many processes (issue 58), on PostgreSQL and Redis: every process deals the day's boards
alike (one secret in the shared database), a set started at one process resumes at another, and the read rule holds
whichever process answers."""

from __future__ import annotations

from collections.abc import Callable

import httpx2 as httpx
import pytest
from test_nights_cluster import first_view, post

from helpers.cluster import Proc, new_player

COOKIE = "fiftysix_player"


def test_a_daily_set_is_the_same_on_every_process_and_resumes_at_another(
        start: Callable[..., Proc], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FIFTYSIX_DAILY", "56-4:2")
    monkeypatch.setenv("FIFTYSIX_DAILY_LEVEL", "beginner")
    here, there = start(), start()
    anu, biju = new_player(here, "Anu"), new_player(there, "Biju")
    one = post(here, "/api/daily/start", anu, {"preset": "56-4"})
    two = post(there, "/api/daily/start", biju, {"preset": "56-4"})
    assert one.status_code == two.status_code == 200, (one.text, two.text)
    a, b = first_view(there, one.json()["code"], anu), first_view(here, two.json()["code"], biju)
    assert a["hand"] == b["hand"] and a["seat"] == b["seat"] == 0       # board 1 alike, through both processes
    again = post(there, "/api/daily/start", anu, {"preset": "56-4"})
    assert again.json()["code"] == one.json()["code"] and again.json()["resumed"]
    for proc in (here, there):
        for path in (f"/api/tables/{one.json()['code']}", "/api/daily/56-4/boards/1"):
            r = httpx.get(proc.url + path, params={"k": one.json()["url"].split("#k=")[1]},
                          cookies={COOKIE: biju}, timeout=10)
            assert r.status_code == 403, (path, r.text)

"""Club nights with many processes (issue 44): the tables of an event deal the same board with the same dealer
whichever process writes them (the event's seed reaches the clustered tables too)."""

from __future__ import annotations

import json
from collections.abc import Callable

import httpx2 as httpx
from websockets.sync.client import connect

from helpers.cluster import Proc, new_player

COOKIE = "fiftysix_player"


def post(proc: Proc, path: str, token: str, body: dict[str, object]) -> httpx.Response:
    return httpx.post(f"{proc.url}{path}", json=body, cookies={COOKIE: token}, timeout=10)


def first_view(proc: Proc, url: str, token: str) -> dict[str, object]:
    code, _, key = url.removeprefix("/t/").partition("#k=")
    with connect(f"ws://127.0.0.1:{proc.port}/ws/{code}?k={key}",
                 additional_headers={"Cookie": f"{COOKIE}={token}"}, max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        ws.send(json.dumps({"type": "start"}))
        while True:
            message = json.loads(ws.recv(timeout=20))
            assert message.get("type") != "error", message
            if isinstance(message.get("view"), dict) and message["view"].get("hand"):
                return dict(message["view"])


def test_an_events_tables_deal_the_same_board_on_every_process(start: Callable[..., Proc]) -> None:
    here, there = start(), start()
    asha = new_player(here, "Asha")
    club = post(here, "/api/clubs", asha, {"name": "Friday club"}).json()["id"]
    night = post(here, f"/api/clubs/{club}/nights", asha,
                 {"name": "Friday", "preset": "56-4", "boards": 2, "tables": 2, "level": "beginner"}).json()["id"]
    started = post(here, f"/api/nights/{night}/start", asha, {})
    assert started.status_code == 200, started.text
    one, two = (t["url"] for t in started.json()["tables"])
    a, b = first_view(there, one, asha), first_view(here, two, asha)    # each read through another process
    assert a["hand"] == b["hand"] and a["dealer"] == b["dealer"] == 0

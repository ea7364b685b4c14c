"""Accounts with many processes (issue 43): a device signed out on one process is refused by the other at once,
and a one-time link made on one process signs in once on the other."""

from __future__ import annotations

import time
from collections.abc import Callable

import httpx2 as httpx

from helpers.cluster import Proc, new_player

COOKIE = "fiftysix_player"


def get(proc: Proc, path: str, token: str) -> httpx.Response:
    return httpx.get(f"{proc.url}{path}", cookies={COOKIE: token}, timeout=10)


def post(proc: Proc, path: str, token: str | None, body: dict[str, object]) -> httpx.Response:
    return httpx.post(f"{proc.url}{path}", json=body, cookies={COOKIE: token} if token else {}, timeout=10)


def test_a_device_signed_out_on_one_process_is_refused_by_the_other(start: Callable[..., Proc]) -> None:
    here, there = start(), start()
    first = get(here, "/api/account", new_player(here, "Asha"))
    assert first.status_code == 200 and first.json()["upgraded"]
    a = first.json()["token"]
    link = post(here, "/api/account/link", a, {}).json()["url"]
    used = post(there, "/api/account/link/use", None, {"secret": link.split("#", 1)[1]})
    assert used.status_code == 200, used.text
    assert post(here, "/api/account/link/use", None, {"secret": link.split("#", 1)[1]}).status_code == 403
    b = used.json()["token"]
    assert get(there, "/api/players/me/history", b).status_code == 200
    devices = get(here, "/api/account", a).json()["devices"]
    other = next(d["id"] for d in devices if not d["current"])
    assert post(here, "/api/account/devices/revoke", a, {"device": other}).status_code == 200
    deadline = time.monotonic() + 5
    while get(there, "/api/players/me/history", b).status_code != 401:     # told through Redis
        assert time.monotonic() < deadline, "the other process still takes the signed-out device's token"
        time.sleep(0.1)
    assert get(there, "/api/players/me/history", a).status_code == 200

"""Today's deals in Chromium (issue 58): Anu and Biju play the same day's boards (a small day: two boards of 56-4
with the beginner computers).  Anu plays board 1 on her phone, stops, and goes on at board 2 on her laptop (her
account's second device, signed in by a one-time link); Biju plays both on his phone.  Neither gets the field's
results of a board (nor the other's table) before finishing it; at the end the day's ranking is the comparison with
the field computed here from the stored deals.  Screenshots of /daily at 360, 390 and 1366 pixels."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from fiftysix.server.storage.db import deals
from helpers.live import LiveServer, browser_api, on_server
from helpers.page import SMALL_PHONE, until

pytestmark = pytest.mark.browser

browser_api()      # skipped without the system Chromium, failed in CI

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
SCREENSHOTS = Path("test-artifacts")
DAY = {"FIFTYSIX_DAILY": "56-4:2", "FIFTYSIX_DAILY_LEVEL": "beginner"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    before = {k: os.environ.get(k) for k in DAY}
    os.environ.update(DAY)
    try:
        with LiveServer(tmp_path_factory.mktemp("db") / "daily.db") as live:
            yield live
    finally:
        for k, v in before.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def device(browser: Any, live: LiveServer, viewport: dict[str, int], errors: list[str]) -> Any:
    touch = viewport["width"] < 700
    page = browser.new_context(viewport=viewport, is_mobile=touch, has_touch=touch).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + "/")
    return page


def stored(live: LiveServer, code: str) -> dict[int, list[int]]:
    """Board -> the stored deal's score for each team, read from the ``deals`` rows of table ``code``."""
    async def read(srv: Any) -> list[tuple[int, Any]]:
        async with srv.db.engine.connect() as conn:
            rows = await conn.execute(select(deals.c.number, deals.c.result).where(deals.c.table_code == code))
            return [(int(r[0]), r[1]) for r in rows]
    out = {}
    for number, result in on_server(live, read):
        result = json.loads(result) if isinstance(result, str) else result
        out[number] = [int(x) for x in (result.get("score") or [0, 0])]
    return out


def play_to(page: Any, live: LiveServer, code: str, boards: int) -> None:
    page.wait_for_selector("#hand .card, #next-btn")     # a board in play, or the last one over (a resume)
    until(page, lambda p: len(stored(live, code)) >= boards, limit=240, play=True)


def start_from_daily(page: Any, live: LiveServer) -> str:
    page.goto(live.url + "/daily")
    page.wait_for_selector('button[data-preset="56-4"]').click()
    page.wait_for_url("**/t/**")
    return str(page.url.split("/t/")[1].split("#")[0])


def field_hidden(page: Any, live: LiveServer, board: int, other: str | None) -> None:
    """``page``'s player has not finished ``board``: its page and the other's table stay closed."""
    assert page.request.get(f"{live.url}/api/daily/56-4/boards/{board}").status == 403
    if other is not None:
        for path in (f"/api/tables/{other}", f"/api/tables/{other}/deals/{board}.json"):
            assert page.request.get(live.url + path).status == 403, path


def test_two_people_play_the_day_on_three_devices(server: LiveServer, browser: Any) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    errors: list[str] = []
    anu = device(browser, server, SMALL_PHONE, errors)
    assert anu.request.post(server.url + "/api/player", data={"name": "Anu"}).ok
    assert anu.request.get(server.url + "/api/account").ok          # her account: this player's id
    laptop = device(browser, server, DESKTOP, errors)
    link = anu.request.post(server.url + "/api/account/link", data={}).json()
    secret = link.get("secret") or link["url"].split("#")[-1]
    assert laptop.request.post(server.url + "/api/account/link/use", data={"secret": secret}).ok
    biju = device(browser, server, PHONE, errors)
    assert biju.request.post(server.url + "/api/player", data={"name": "Biju"}).ok

    anu.goto(server.url + "/")
    anu.click("#daily-link")                 # linked from the start page
    anu.wait_for_selector('button[data-preset="56-4"]')
    anu.screenshot(path=str(SCREENSHOTS / "daily-start-360.png"), full_page=True)
    anus = start_from_daily(anu, server)
    play_to(anu, server, anus, 1)            # board 1 on the phone, then she stops
    assert anu.request.get(f"{server.url}/api/daily/56-4/boards/1").ok
    field_hidden(anu, server, 2, None)
    anu.goto("about:blank")

    bijus = start_from_daily(biju, server)
    field_hidden(biju, server, 1, anus)      # Anu's board 1 is stored: still nothing of it for Biju
    play_to(biju, server, bijus, 2)
    field_hidden(anu, server, 2, bijus)      # Biju finished board 2, Anu has not

    laptop.goto(server.url + "/daily")
    go_on = laptop.wait_for_selector('button[data-preset="56-4"]')
    assert "board 2" in go_on.inner_text()
    assert start_from_daily(laptop, server) == anus     # the same set, resumed on her other device
    play_to(laptop, server, anus, 2)

    results = {"Anu": stored(server, anus), "Biju": stored(server, bijus)}
    assert all(sorted(r) == [1, 2] for r in results.values())
    expected = {}
    for who, r in results.items():
        expected[who] = sum((Fraction(r[b][0]) - Fraction(sum(x[b][0] for x in results.values()), 2)
                             for b in (1, 2)), Fraction(0))
    for page, who in ((laptop, "Anu"), (biju, "Biju")):
        ranked = page.request.get(f"{server.url}/api/daily/56-4/ranking").json()
        assert ranked["boards"] == [1, 2]
        mine = next(r for r in ranked["ranking"] if r["me"])
        assert mine["score"] == round(float(expected[who]), 2)
        assert sorted(r["score"] for r in ranked["ranking"]) == sorted(round(float(s), 2) for s in expected.values())
        board = page.request.get(f"{server.url}/api/daily/56-4/boards/2").json()
        assert board["players"] == 2 and sum(f["count"] for f in board["field"]) == 2
    for page, width in ((anu, 360), (biju, 390), (laptop, 1366)):
        page.goto(server.url + "/daily")
        page.locator(".daily-set a.daily-board").nth(1).click()
        page.wait_for_selector(".daily-field")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        page.screenshot(path=str(SCREENSHOTS / f"daily-board-{width}.png"), full_page=True)
    assert not errors, errors

"""Browser test of history and ratings (issue 43) on the system Chromium: two people (two browser contexts) play a match
with computer players to its end, then both see it on their history page, with ratings that moved with the right
signs (both are regulars: established ratings are seeded first), at 360x740 (touch) and 1366x900, without a
horizontal scroll; screenshots in test-artifacts/."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fiftysix.i18n import translate
from helpers.live import CHROMIUM, CHROMIUM_ARGS, LiveServer, browser_api
from helpers.page import seated

pytestmark = pytest.mark.browser

sync_api = browser_api()

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1366, "height": 900}
SCREENSHOTS = Path("test-artifacts")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "history.db", bot_delay=0, next_delay=0) as live:
        yield live


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


def history(page: Any, server: LiveServer) -> dict[str, Any]:
    data: dict[str, Any] = page.request.get(f"{server.url}/api/players/me/history").json()
    return data


def test_both_players_see_the_match_and_their_ratings_moved(server: LiveServer, chromium: Any) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    host_ctx = chromium.new_context(viewport=DESKTOP)
    guest_ctx = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    watcher_ctx = chromium.new_context(viewport=DESKTOP)
    host, guest, watcher = host_ctx.new_page(), guest_ctx.new_page(), watcher_ctx.new_page()
    errors: list[str] = []
    for page in (host, guest):
        page.on("pageerror", lambda e: errors.append(str(e)))
    host.goto(server.url + "/")
    assert host.request.post(server.url + "/api/player", data={"name": "Asha"}).ok
    made = host.request.post(server.url + "/api/tables",
                             data={"preset": "56-4", "fill": "random", "grace": 0, "public": True}).json()
    host.goto(server.url + made["url"])
    host.wait_for_selector("#start-btn")
    guest.goto(host.url)
    guest.wait_for_selector("#join-name")
    guest.fill("#join-name", "Ben")
    guest.click("#join-btn")
    seated(host, 1, "Ben")     # the host sees the guest in the seat before starting
    watcher.goto(host.url)          # someone watching: the deals follow one another with both people away
    # regulars with 10 rated matches each, so their match rates both (two new accounts' would rate neither)
    regulars = [history(page, server)["player"] for page in (host, guest)]
    with sqlite3.connect(server.db_path) as db:
        db.executemany("INSERT INTO ratings (player_id, family, mu, sigma, matches, last_match) "
                       "VALUES (?, '56', 25.0, 3.0, 10, '')", [(i,) for i in regulars])
    host.click("#start-btn")
    time.sleep(0.5)
    for page in (host, guest):      # both leave: their computer players finish the match (grace 0)
        page.goto(server.url + "/history")
    deadline = time.monotonic() + 180
    while not history(host, server)["matches"]:
        assert time.monotonic() < deadline, "the match did not end in 3 minutes"
        time.sleep(0.5)
    mine, theirs = history(host, server), history(guest, server)
    [a], [b] = mine["matches"], theirs["matches"]
    assert a["id"] == b["id"] == f"{made['code']}/1"
    assert a["won"] != b["won"]
    assert [p["name"] for p in a["opponents"]] == ["Ben"] and [p["name"] for p in b["opponents"]] == ["Asha"]
    for m in (a, b):
        before, after = m["rating"]["before"][0], m["rating"]["after"][0]
        assert (after > before) == m["won"], m
    for page, data, size in ((host, mine, "1366x900"), (guest, theirs, "360x740")):
        assert not data["ratings"]["56"]["provisional"] and data["ratings"]["56"]["matches"] == 11
        page.reload()
        page.wait_for_selector("#hs-matches li.match")
        text = page.inner_text("main")
        assert ("match won" in text) == data["matches"][0]["won"]
        # one rating figure (issue 57): the headline and the match line's "after" are the server's display figure
        figure = str(data["ratings"]["56"]["display"])
        assert page.inner_text("#hs-ratings p.rating .rating-figure") == figure
        shown = data["matches"][0]["rating"]
        assert f"→ {shown['display_after']} (" in text and "computer (" not in text
        assert "Random computer" in text        # the name the table gave them (below), not "a computer playing…"
        assert page.locator("#hs-matches a[href^='/review?table=']").count() >= 1
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), size
        page.screenshot(path=str(SCREENSHOTS / f"history-{size}.png"), full_page=True)
    # a co-player's history, and the same page in Malayalam
    guest.goto(f"{server.url}/history?p={mine['player']}")
    guest.wait_for_selector("#hs-matches li.match")
    assert "Your history" not in guest.inner_text("h1")
    guest.evaluate("localStorage.setItem('lang', 'ml')")
    guest.goto(f"{server.url}/history")
    guest.wait_for_selector("#hs-matches li.match")
    assert "നിങ്ങളുടെ ചരിത്രം" in guest.inner_text("h1")
    computers = guest.inner_text("#hs-matches")     # one name a computer has everywhere (issue 57): a bot of no
    assert "(random)" not in computers and "random" not in computers      # level, as the lobby says; and no
    assert translate("Random computer", "ml") in computers        # English program name (item 6)
    guest.screenshot(path=str(SCREENSHOTS / "history-ml-360x740.png"), full_page=True)
    seats = watcher.inner_text("body")       # the table named its computers as the history does, by seat
    assert "Random computer 2" in seats and "Random computer 3" in seats and "Bot " not in seats
    assert not errors, errors
    for ctx in (host_ctx, guest_ctx, watcher_ctx):
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "ml"])
def test_the_days_own_rating_is_shown_beside_the_others_on_a_phone(server: LiveServer, chromium: Any,
                                                                     lang: str) -> None:
    """Today's deals' rating (issue 58): its own line beside the table rating, on the page's scale with the
    provisional mark, named "Today's deals 56" and counted in rated days, at 390 px, in English and Malayalam."""
    ctx = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    assert page.request.post(server.url + "/api/player", data={"name": "Chinnu"}).ok
    me = history(page, server)["player"]
    with sqlite3.connect(server.db_path) as db:       # as a day's close and table matches leave them
        db.executemany("INSERT INTO ratings (player_id, family, mu, sigma, matches, last_match) "
                       "VALUES (?, ?, ?, ?, ?, ?)",
                       [(me, "56", 26.0, 3.0, 12, "T/1"), (me, "daily-56", 27.0, 6.0, 2, "daily:2027-01-04:56-4")])
    page.evaluate(f"localStorage.setItem('lang', '{lang}')")
    page.goto(server.url + "/history")
    page.wait_for_selector("#hs-ratings p.rating[data-family='daily-56']")
    line = page.inner_text("#hs-ratings p.rating[data-family='daily-56']")
    assert line.startswith(translate("Today's deals", lang) + " 56: 1600?"), line       # 1500 + 50 (27 - 25)
    assert translate("rated days: {n}", lang).format(n=2) in line
    assert page.inner_text("#hs-ratings p.rating[data-family='56'] .rating-figure") == "1550"     # untouched
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(SCREENSHOTS / f"history-daily-{lang}-390.png"), full_page=True)
    assert not errors, errors
    ctx.close()

"""Browser tests: the system Chromium (never a downloaded build) drives the real pages of a live server.

- one person and computer players play a whole 56 deal in a 360 px phone viewport;
- two browser contexts are two people at one table (one with a name full of HTML, shown as text).

Screenshots go to ``test-artifacts/``.  Skipped when /usr/bin/chromium is absent, except in CI (``CI=true``),
where a missing browser fails the run: the browser tests must never silently not run there.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fiftysix import check
from helpers.live import CHROMIUM, CHROMIUM_ARGS, LiveServer, browser_api
from helpers.page import act, each_of

pytestmark = pytest.mark.browser

sync_api = browser_api()

ARTIFACTS = Path("test-artifacts")
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 860}
HOSTILE = '<img src=x onerror="window.pwned=1">'
TABLE_URL = re.compile(r".*/t/[A-Z0-9]+(#k=[A-Za-z0-9_-]+)?$")   # a private table's link carries its secret


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "browser.db", bot_delay=0.02) as live:
        yield live


@pytest.fixture(scope="module")
def system_chromium() -> Iterator[Any]:
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)


def watch_errors(page: Any, errors: list[str]) -> None:
    page.on("pageerror", lambda e: errors.append(str(e)))
    # the server's Content-Security-Policy forbids inline script and style: the page must not need them
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)


def tap(locator: Any) -> None:
    """A tap: the click event on the element (Playwright's actionability waits for a stable box time out
    on a loaded CI machine while the page re-renders; the page's own handlers run all the same)."""
    locator.dispatch_event("click")


def deal_over(page: Any) -> bool:
    return bool(page.locator("#summary-panel:not(.hidden)").count())


def play_to_end(pages: list[Any], shots: dict[str, Any], limit: float = 120) -> None:
    """Each page plays whenever it is its turn, until every page shows the end-of-deal summary."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if all(deal_over(p) for p in pages):
            return
        for name, when in list(shots.items()):
            if when(pages[0]):
                shot(pages[0], name)
                del shots[name]
        moved = False
        for page in pages:
            if not deal_over(page):
                moved = act(page) or moved
        if not moved:
            pages[0].wait_for_timeout(40)
    raise AssertionError("the deal did not end in time")


def in_play(page: Any) -> bool:
    return bool(page.locator("#hand button.card.legal").count())


def has_last_trick(page: Any) -> bool:
    return bool(page.locator("#last-trick-btn").count())


def test_one_person_and_bots_play_a_whole_56_deal_on_a_phone(server: LiveServer, system_chromium: Any) -> None:
    context = system_chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server.url + "/")
    page.fill("#player-name", "Asha")
    page.select_option("#preset", "56-6")
    shot(page, "phone-01-start")
    page.click("#create-btn")
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#start-btn")
    shot(page, "phone-02-lobby")
    page.click("#start-btn")
    page.wait_for_selector("#hand .card")
    page.wait_for_selector("#action-panel.you-move", timeout=30000)
    shot(page, "phone-03-auction")
    shots = {"phone-04-play": in_play, "phone-05-later": lambda p: has_last_trick(p) and in_play(p)}
    play_to_end([page], shots)
    if page.locator("#last-trick-btn").count():
        page.click("#last-trick-btn")
    page.locator("#summary-panel").scroll_into_view_if_needed()
    shot(page, "phone-06-summary")
    summary = page.locator("#summary-panel").inner_text()
    assert "is over" in summary
    assert page.locator("#score .team").count() == 2
    # the history of finished deals: from the page's own list (the server sends the latest deal, not all)
    page.wait_for_selector("#history tbody tr")
    assert page.locator("#history tbody tr").count() == 1
    assert page.locator("#match-records a").get_attribute("href").endswith("/matches/1.json")
    link = page.locator('#summary-panel a[href$=".json"]').get_attribute("href")
    record = page.request.get(server.url + link).json()
    assert check(record)["valid"] is True and len(record["play"]) == 48
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide on a 360 px phone"
    assert not errors, errors
    context.close()


def test_two_people_in_two_browsers_at_one_table(server: LiveServer, system_chromium: Any) -> None:
    host_ctx = system_chromium.new_context(viewport=DESKTOP)
    guest_ctx = system_chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    errors: list[str] = []
    watch_errors(host, errors)
    watch_errors(guest, errors)
    host.goto(server.url + "/")
    host.fill("#player-name", "Asha")
    host.select_option("#preset", "56-4")
    host.click("#create-btn")
    host.wait_for_url(TABLE_URL)
    host.wait_for_selector("#start-btn")
    guest.goto(host.url)    # the link the host shares, with the table's secret
    guest.wait_for_selector("#join-name")
    guest.fill("#join-name", HOSTILE[:24])
    guest.click("#join-btn")
    guest.wait_for_selector("#lobby-panel [data-lobby-seat='1'] b")
    host.wait_for_function("() => document.querySelector(\"[data-lobby-seat='1'] b\").textContent.startsWith('<img')")
    assert host.locator("#lobby-panel img").count() == 0 and not host.evaluate("window.pwned")
    shot(host, "two-01-lobby-host")
    host.click("#start-btn")
    guest.wait_for_selector("#hand .card")
    shot(guest, "two-02-guest-phone")
    play_to_end([host, guest], {"two-03-host-play": in_play})
    shot(host, "two-04-host-summary")
    guest.locator("#summary-panel").scroll_into_view_if_needed()
    shot(guest, "two-05-guest-summary")
    host_line = host.locator("#summary-line").inner_text()
    guest_line = guest.locator("#summary-line").inner_text()
    # Each page names its own seat "you" and its own team "Your team"; with the names put back both tell the same
    # result (who made or failed what, bid by whom).
    def result(line: str, me: str) -> str:
        line = line.replace("by you", f"by {me}")
        return re.sub(r"^(Your team|Blue|Red) ", "", line)
    assert host_line and result(host_line, "Asha") == result(guest_line, HOSTILE[:24])
    assert host_line.startswith("Your team") != guest_line.startswith("Your team") or \
        not re.match(r"^(Your team|Blue|Red) ", host_line)     # a team's result: the declarers' page says so
    assert not guest.evaluate("window.pwned") and not host.evaluate("window.pwned")
    assert not errors, errors
    host_ctx.close()
    guest_ctx.close()


def test_a_stranger_asks_to_join_a_private_table_and_the_host_lets_them_in(server: LiveServer,
                                                                          system_chromium: Any) -> None:
    host_ctx, guest_ctx = system_chromium.new_context(viewport=DESKTOP), system_chromium.new_context(viewport=PHONE)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    errors: list[str] = []
    watch_errors(host, errors)
    watch_errors(guest, errors)
    host.goto(server.url + "/")
    host.fill("#player-name", "Asha")
    host.select_option("#preset", "56-4")
    host.click("#create-btn")
    host.wait_for_url(TABLE_URL)
    host.wait_for_selector("#start-btn")
    code = host.locator("#code").inner_text()
    guest.goto(f"{server.url}/t/{code}")          # the code read aloud, without the link's secret
    guest.wait_for_selector("#ask-btn")
    assert "private" in guest.locator("#private-panel").inner_text()
    assert not guest.locator("#lobby-panel:not(.hidden)").count()     # nothing of the table is shown
    guest.fill("#ask-name", "Ben")
    guest.click("#ask-btn")
    guest.wait_for_selector("#ask-waiting")
    shot(guest, "private-00-guest-asks")
    host.wait_for_selector("[data-knock] button.primary")
    shot(host, "private-01-host-sees-ask")
    tap(host.locator("[data-knock] button.primary"))
    guest.wait_for_selector("#lobby-panel [data-lobby-seat='1'] button")
    assert guest.locator("#private-panel.hidden").count() == 1
    tap(guest.locator("#lobby-panel [data-lobby-seat='1'] button"))
    host.wait_for_function("() => document.querySelector(\"[data-lobby-seat='1'] b\").textContent === 'Ben'")
    assert not errors, errors
    host_ctx.close()
    guest_ctx.close()


def test_a_card_played_while_the_server_is_down_is_sent_when_it_is_back(tmp_path: Path,
                                                                       system_chromium: Any) -> None:
    db = tmp_path / "restart.db"
    first = LiveServer(db, bot_delay=0.02)
    port = first.port
    context = system_chromium.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    with first:
        page.goto(first.url + "/")
        page.fill("#player-name", "Asha")
        page.select_option("#preset", "56-4")
        page.click("#create-btn")
        page.wait_for_url(TABLE_URL)
        page.wait_for_selector("#start-btn")
        page.click("#start-btn")
        page.wait_for_selector("#action-panel.you-move", timeout=30000)
        page.evaluate("window.sameDocument = 1")
    page.wait_for_selector("#dot:not(.on)")        # the server is down
    calls = "document.querySelectorAll('#auction li:not(.muted)').length"
    before = page.evaluate(calls)
    assert act(page, offline=True)                  # a move is made while nobody is listening
    assert page.locator("#sending").count() == 1
    with LiveServer(db, bot_delay=0.02, port=port):
        page.wait_for_selector("#dot.on", timeout=30000)
        page.wait_for_function(f"() => {calls} > {before} && !document.querySelector('#sending')", timeout=30000)
        assert page.evaluate("window.sameDocument") == 1      # no reload
        # the page is playable again: its next turn shows the choices (or the deal goes on without waiting)
        page.wait_for_function("() => document.querySelector('#action-panel.you-move') || "
                               "document.querySelector('#waiting')", timeout=30000)
    assert not errors, errors
    context.close()


def test_a_long_table_shows_recent_deals_and_pages_back(tmp_path: Path, system_chromium: Any) -> None:
    """A table with more finished deals than a `state` carries: the page shows the recent ones and fetches
    the earlier ones on demand."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from fiftysix.server.state.events import decode
    from fiftysix.server.state.table import RECENT_DEALS
    from fiftysix.server.storage.db import Database
    from fiftysix.server.table.hub import Hub
    from fiftysix.server.table.live import Connection, Timing

    db_path = tmp_path / "long.db"

    async def play(deals: int) -> str:
        db = Database(f"sqlite+aiosqlite:///{db_path}")
        await db.migrate()
        hub = Hub(db, Timing(bot_delay=0, next_delay=0))
        table = await hub.create("p-host", "Host", {"preset": "56-4", "fill": "random", "grace": 3600, "public": True,
                                                    "options": {"tables": 999}})
        await table.connect(Connection(None, limit=10**6), None)
        await table.submit(decode({"kind": "stand", "player": "p-host"}))
        await table.submit(decode({"kind": "start", "player": "p-host", "seed": 3, "dealer": 0}))
        deadline = time.monotonic() + 120
        while table.state.deals_count < deals and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        code = table.code
        await hub.stop()
        await db.close()
        return code

    with ThreadPoolExecutor(1) as pool:     # Playwright's loop runs in this thread
        code = pool.submit(asyncio.run, play(RECENT_DEALS + 2)).result(timeout=180)
    with LiveServer(db_path, bot_delay=60) as live:     # the bots wait: the history stays as it is
        context = system_chromium.new_context(viewport=DESKTOP)
        page = context.new_page()
        errors: list[str] = []
        watch_errors(page, errors)
        page.goto(f"{live.url}/t/{code}")
        page.wait_for_selector("#older-deals")
        shown = page.locator("#history tbody tr").count()
        assert shown == RECENT_DEALS
        tap(page.locator("#older-deals"))
        page.wait_for_function(f"() => document.querySelectorAll('#history tbody tr').length > {RECENT_DEALS}")
        numbers = each_of(page, "#history tbody tr td:first-child a", "els => els.map(a => a.href)")
        assert [int(n.rsplit("/", 1)[1].split(".")[0]) for n in numbers][:3] == [1, 2, 3]
        assert page.locator("#older-deals").count() == 0
        assert not errors, errors
        context.close()

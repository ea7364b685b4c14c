"""Browser tests of the table's extras on the system Chromium: two people see each other's reactions on their
seats; the turn clock shows on the seat and, run out, hands the move to the bot (the person keeps the seat);
the deal review shows every hand and every card's mark, for a table's deal and for a dropped record file,
at 390x844 (touch) and 1366x900, with screenshots in test-artifacts/ (docs/screenshots/ holds copies)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.live import CHROMIUM, CHROMIUM_ARGS, LiveServer, browser_api
from helpers.page import seated

pytestmark = pytest.mark.browser

sync_api = browser_api()

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
SCREENSHOTS = Path("test-artifacts")    # the ones in docs/screenshots/ are copied from here by hand, once looked at
TABLE_URL = re.compile(r".*/t/[A-Z0-9]+(#k=[A-Za-z0-9_-]+)?$")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # no automatic next deal: a table of computer players stops after its deal, for the review
    with LiveServer(tmp_path_factory.mktemp("db") / "extras.db", bot_delay=0.02, next_delay=600) as live:
        yield live


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


def watch_errors(page: Any, errors: list[str]) -> None:
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)


def new_table(page: Any, server: LiveServer, name: str, **form: Any) -> str:
    """A table made through the API in this page's browser (its cookie); the page opens it. Returns its code."""
    page.goto(server.url + "/")
    assert page.request.post(server.url + "/api/player", data={"name": name}).ok
    made = page.request.post(server.url + "/api/tables", data=form).json()
    page.goto(server.url + made["url"])
    page.wait_for_selector("#start-btn")
    return str(made["code"])


def table_info(page: Any, server: LiveServer, code: str) -> dict[str, Any]:
    info: dict[str, Any] = page.request.get(f"{server.url}/api/tables/{code}").json()
    return info


# Every socket's close event comes 1.5 s late once the page itself has closed it (a slow close handshake on a
# busy phone or network): the socket a join replaces then closes after the new one has opened.
SLOW_CLOSE = """(() => {
  const Real = window.WebSocket;
  window.WebSocket = class extends Real {
    addEventListener(type, fn, options) {
      const late = (e) => (this.closedByPage ? setTimeout(() => fn(e), 1500) : fn(e));
      return super.addEventListener(type, type === "close" ? late : fn, options);
    }
    close(...args) { this.closedByPage = true; return super.close(...args); }
  };
})();"""
BEN_SEATED = "() => [...document.querySelectorAll('.lobby-seat')].some(r => r.innerText.includes('Ben'))"


def test_a_socket_replaced_by_a_join_does_not_put_the_page_offline(server: LiveServer, chromium: Any) -> None:
    host_ctx = chromium.new_context(viewport=DESKTOP)
    guest_ctx = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    guest_ctx.add_init_script(SLOW_CLOSE)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    errors: list[str] = []
    watch_errors(host, errors)
    watch_errors(guest, errors)
    new_table(host, server, "Asha", preset="56-4", fill=None)
    guest.goto(host.url)
    guest.wait_for_selector("#join-name")
    guest.fill("#join-name", "Ben")
    guest.click("#join-btn")
    guest.wait_for_function(BEN_SEATED)
    guest.wait_for_timeout(2500)                  # the replaced socket's close has come meanwhile
    assert guest.locator("#dot.on").count() == 1, "the page says it is offline on an open socket"
    assert guest.locator("#conn-banner").is_hidden(), guest.locator("#conn-banner").inner_text()
    # and the page still acts: a reaction from the guest reaches the host
    host.wait_for_function(BEN_SEATED)
    guest.locator("#reaction-bar [data-react='Thanks']").dispatch_event("click")
    host.wait_for_function("() => document.getElementById('reaction-log')?.innerText.includes('Ben')")
    assert not errors, errors
    host_ctx.close()
    guest_ctx.close()


def test_two_people_see_each_others_reactions(server: LiveServer, chromium: Any) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    host_ctx = chromium.new_context(viewport=DESKTOP)
    guest_ctx = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    errors: list[str] = []
    watch_errors(host, errors)
    watch_errors(guest, errors)
    new_table(host, server, "Asha", preset="56-4", fill="random")
    guest.goto(host.url)
    guest.wait_for_selector("#join-name")
    guest.fill("#join-name", "Ben")
    guest.click("#join-btn")
    seated(host, 1, "Ben")     # the host sees the guest in the seat before starting
    host.click("#start-btn")
    for page in (host, guest):
        page.wait_for_selector("#reaction-bar [data-react='😄']")
        page.wait_for_selector("[data-seat='1']")
    host.locator("#reaction-bar [data-react='😄']").dispatch_event("click")
    guest.wait_for_selector("[data-reaction-seat='0']")
    assert guest.locator("[data-reaction-seat='0']").inner_text() == "😄"
    assert "Asha: 😄" in guest.locator("#reaction-log").inner_text()
    guest.locator("#reaction-bar [data-react='Well played']").dispatch_event("click")
    host.wait_for_selector("[data-reaction-seat='1']")
    assert host.locator("[data-reaction-seat='1']").inner_text() == "Well played"
    host.screenshot(path=str(SCREENSHOTS / "reactions-1366x900.png"))
    guest.screenshot(path=str(SCREENSHOTS / "reactions-390x844.png"))
    # shown for a few seconds, then gone
    guest.wait_for_function("() => !document.querySelector(\"[data-reaction-seat='0']\")", timeout=10000)
    assert not errors, errors
    host_ctx.close()
    guest_ctx.close()


def test_the_turn_clock_runs_out_and_the_bot_moves_for_the_person(server: LiveServer, chromium: Any) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    context = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    code = new_table(page, server, "Asha", preset="56-4", fill="random", clock={"move": 2, "bank": 4})
    page.click("#start-btn")
    page.wait_for_selector("#action-panel.you-move", timeout=30000)
    clock = page.locator("[data-seat='0'] #turn-clock")
    clock.wait_for()
    assert re.search(r"\d s \+ bank 1", clock.inner_text()), clock.inner_text()
    page.screenshot(path=str(SCREENSHOTS / "clock-390x844.png"))
    # nobody taps: after 2 s and the turn's 1 s of the bank (a quarter of 4) the bot makes this move; the person
    # keeps the seat and the bank keeps 3 s
    deadline = time.monotonic() + 30
    while table_info(page, server, code)["banks"][0] != 3.0:
        assert time.monotonic() < deadline, "the clock never ran out"
        page.wait_for_timeout(200)
    info = table_info(page, server, code)
    assert info["seats"][0]["kind"] == "player" and info["seats"][0]["name"] == "Asha"
    # the page is playable again at its next turn, with the move seconds and a fresh quarter of what is left
    page.wait_for_function("() => { const c = document.querySelector(\"[data-seat='0'] #turn-clock\");"
                           " return c && c.textContent.includes('bank') && document.querySelector"
                           "('#action-panel.you-move'); }", timeout=30000)
    assert not errors, errors
    context.close()


def finished_56_6_deal(page: Any, server: LiveServer) -> str:
    """A 56-6 table whose host stands up at the start: its computer players play the deal out."""
    code = new_table(page, server, "Asha", preset="56-6", fill="random")
    page.click("#start-btn")
    page.wait_for_selector("#hand .card")
    page.evaluate("""() => new Promise((done) => {
        const ws = new WebSocket(`ws://${location.host}/ws/${location.pathname.split('/').pop()}`);
        ws.onopen = () => { ws.send(JSON.stringify({type: 'hello', key: localStorage.getItem(
            'fiftysix-key-' + location.pathname.split('/').pop())})); ws.send(JSON.stringify({type: 'stand'})); };
        ws.onmessage = (e) => { const m = JSON.parse(e.data); if (m.type === 'event' && m.event.kind === 'stand') {
            ws.close(); done(); } };
    })""")
    deadline = time.monotonic() + 120
    while table_info(page, server, code)["deals_count"] < 1:
        assert time.monotonic() < deadline, "the computer players did not finish the deal"
        page.wait_for_timeout(200)
    return code


def test_the_review_shows_all_hands_and_marks_and_opens_a_dropped_record(server: LiveServer, chromium: Any,
                                                                         tmp_path: Path) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    desktop = chromium.new_context(viewport=DESKTOP)
    page = desktop.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    code = finished_56_6_deal(page, server)
    page.wait_for_selector("#review-link")
    href = page.locator("#review-link").get_attribute("href")
    assert href.startswith(f"/review?table={code}&deal=1")
    record = page.request.get(f"{server.url}/api/tables/{code}/deals/1.json").json()
    phone = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    phone_page = phone.new_page()
    watch_errors(phone_page, errors)
    phone_page.goto(server.url + "/")
    store = f"fiftysix-key-{code}"     # a friend's browser with the table's link secret (no membership)
    key = page.evaluate("(k) => localStorage.getItem(k)", store)
    phone_page.evaluate("([k, v]) => localStorage.setItem(k, v)", [store, key])
    for p, size in ((page, "1366x900"), (phone_page, "390x844")):
        p.goto(server.url + href)
        p.wait_for_selector("#rv-hands .rv-hand", timeout=600000)
        hands = p.locator("#rv-hands .rv-hand")
        assert hands.count() == 6
        assert [" ".join(hands.nth(i).locator(".card").evaluate_all("els => els.map(e => e.dataset.card)"))
                for i in range(6)] == record["hands"]
        assert p.locator("#rv-where").inner_text() == "Hands as dealt"
        for _ in range(3):
            p.locator("#rv-next").dispatch_event("click")
        assert p.locator("#rv-where").inner_text() == "Trick 3 of 8"
        plays = p.locator("#rv-trick .rv-play")
        assert plays.count() == 6
        marks = p.locator("#rv-trick [data-mark]").evaluate_all("els => els.map(e => e.dataset.mark)")
        assert len(marks) == 6 and all(m.isdigit() for m in marks), marks
        assert p.locator("#rv-trick .rv-play.won").count() == 1
        assert p.locator("#rv-hands .card.gone").count() == 12      # the two tricks before
        p.screenshot(path=str(SCREENSHOTS / f"review-{size}.png"), full_page=True)
        width = p.evaluate("document.documentElement.scrollWidth")
        assert width <= p.viewport_size["width"], width
    # the same viewer opens a record file dropped on (here: chosen in) the standalone page
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record))
    page.goto(server.url + "/review")
    page.set_input_files("#rv-file", str(path))
    page.wait_for_selector("#rv-hands .rv-hand", timeout=600000)
    assert page.locator("#rv-hands .rv-hand").count() == 6
    page.locator("#rv-last").dispatch_event("click")
    assert page.locator("#rv-where").inner_text() == "Trick 8 of 8"
    assert not errors, errors
    desktop.close()
    phone.close()

"""A phone shows a third of the table page: when the deal moves on, what now matters must be on the screen.

After the auction and at a new deal the trick area and the turn line are inside the viewport; when the deal ends its
result is, and no note covers it (issue 45). At 360, 390 and 1366 px, in English and Malayalam (longer words, taller
panels)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.live import LiveServer, browser_api
from helpers.page import DESKTOP, PHONE, SMALL_PHONE, create_table, in_play, until

browser_api()     # skipped without the system Chromium, failed in CI
pytestmark = pytest.mark.browser

SIZES = {"360": SMALL_PHONE, "390": PHONE, "1366": DESKTOP}
COMBOS = [(width, lang) for width in SIZES for lang in ("en", "ml")]

# each element's box against the window, in one look (a redraw between two looks would detach them)
BOXES = """() => Object.fromEntries(['#felt', '#action-panel > :first-child', '#summary-line', '#notes'].map(sel => {
  const e = document.querySelector(sel);
  if (!e || e.classList.contains('hidden') || !e.offsetParent) return [sel, null];
  const b = e.getBoundingClientRect();
  return [sel, {top: b.top, bottom: b.bottom, height: innerHeight}];
}))"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("in-view") / "t.db", bot_delay=0.02) as live:
        yield live


def inside(box: dict[str, float] | None) -> bool:
    return box is not None and box["top"] >= -1 and box["bottom"] <= box["height"] + 1


def settled(page: Any, wanted: Any, limit: float = 5.0) -> dict[str, Any]:
    """The boxes once ``wanted(boxes)`` holds, or as they are after ``limit`` s: the page scrolls once the message
    is drawn, which on a loaded machine may be a while after the message came (a fixed wait flaked)."""
    end = time.monotonic() + limit
    boxes: dict[str, Any] = page.evaluate(BOXES)
    while not wanted(boxes) and time.monotonic() < end:
        page.wait_for_timeout(100)
        boxes = page.evaluate(BOXES)
    return boxes


def table_in_view(boxes: dict[str, Any]) -> bool:
    line = boxes["#action-panel > :first-child"]
    return inside(boxes["#felt"]) and (line is None or inside(line))


def assert_table_in_view(page: Any, when: str) -> None:
    boxes = settled(page, table_in_view)
    assert inside(boxes["#felt"]), f"{when}: the trick area is off the screen: {boxes['#felt']}"
    line = boxes["#action-panel > :first-child"]      # "Your call", "Your turn: play a card", "Waiting for ..."
    if line is not None:
        assert inside(line), f"{when}: the turn line is off the screen: {line}"


@pytest.mark.parametrize(("width", "lang"), COMBOS, ids=[f"{w}-{lang}" for w, lang in COMBOS])
def test_after_the_auction_at_the_end_and_at_a_new_deal_what_matters_is_in_view(
        server: LiveServer, browser: Any, width: str, lang: str, tmp_path: Path) -> None:
    viewport = SIZES[width]
    touch = viewport["width"] < 700
    context = browser.new_context(viewport=viewport, is_mobile=touch, has_touch=touch,
                                  locale="ml-IN" if lang == "ml" else "en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    create_table(page, server.url, "56-4")
    until(page, in_play, limit=90)                     # this page passes; the computers bid
    assert_table_in_view(page, "after the auction")
    until(page, lambda p: p.locator("#next-btn").count() > 0, limit=120, play=True)
    boxes = settled(page, lambda b: inside(b["#summary-line"]))
    assert inside(boxes["#summary-line"]), f"the deal's result is off the screen: {boxes['#summary-line']}"
    notes = boxes["#notes"]
    if notes is not None:
        line = boxes["#summary-line"]
        assert notes["top"] >= line["bottom"] or notes["bottom"] <= line["top"], "a note covers the deal's result"
    page.locator("#next-btn").dispatch_event("click")
    page.wait_for_function("() => !document.querySelector('#next-btn')")
    assert_table_in_view(page, "at the new deal")
    assert not errors
    context.close()


OVERLAPS = """() => { const p = document.querySelector('#prev-trick').getBoundingClientRect();
  return [...document.querySelectorAll('#seats .seat')].map(s => { const r = s.getBoundingClientRect();
    return Math.max(0, Math.min(p.right, r.right) - Math.max(p.left, r.left)) *
           Math.max(0, Math.min(p.bottom, r.bottom) - Math.max(p.top, r.top)); }); }"""


@pytest.mark.parametrize(("preset", "width"), [("56-6", "390"), ("56-8", "360")])
def test_the_finished_trick_shrunk_aside_hides_no_seat(
        server: LiveServer, browser: Any, preset: str, width: str) -> None:
    viewport = SIZES[width]
    context = browser.new_context(viewport=viewport, is_mobile=True, has_touch=True)
    page = context.new_page()
    create_table(page, server.url, preset)
    until(page, in_play, limit=90)

    def aside(p: Any) -> bool:
        return bool(p.evaluate("() => !!document.querySelector('#prev-trick')"))

    until(page, aside, limit=120, play=True)
    overlaps = page.evaluate(OVERLAPS)
    assert not any(overlaps), f"the finished trick covers a seat's box: {overlaps} square px"
    context.close()


FIRST_CALL = [("360", "ml"), ("1366", "en")]


@pytest.mark.parametrize(("width", "lang"), FIRST_CALL, ids=[f"{w}-{lang}" for w, lang in FIRST_CALL])
def test_the_first_call_of_a_match_started_here_is_in_view(server: LiveServer, browser: Any, width: str,
                                                            lang: str) -> None:
    """The host scrolls down the lobby to Start: the match's first call opens in the window, not above it (issue 57
    item 6, 360 in Malayalam); on a desktop the header stays when the table fits below it."""
    viewport = SIZES[width]
    touch = viewport["width"] < 700
    context = browser.new_context(viewport=viewport, is_mobile=touch, has_touch=touch,
                                  locale="ml-IN" if lang == "ml" else "en-GB")
    page = context.new_page()
    create_table(page, server.url, "56-4", start=False)
    page.wait_for_selector("#start-btn")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.locator("#start-btn").dispatch_event("click")
    page.wait_for_selector("#action-panel:not(.hidden)")
    assert_table_in_view(page, "at the first call")
    if width == "1366":
        boxes = page.evaluate("""() => ['main', '#action-panel'].map((sel) => {
          const b = document.querySelector(sel).getBoundingClientRect(); return [b.top, b.bottom, innerHeight]; })""")
        (head, _, _), (_, panel, height) = boxes
        assert head >= -1, f"the header is scrolled off: {boxes}"
        assert panel <= height + 1, f"the call panel runs below the window: {boxes}"
    page.screenshot(path=f"test-artifacts/first-call-{width}-{lang}.png")
    context.close()

"""The round table's geometry (issue 13): each trick card lies in front of who played it, clear of every seat box,
at phone and desktop widths; a 55 table with the most players fits a 360 px phone without overlap.

System Chromium only; skipped without it except in CI (``CI=true``), where a missing browser fails the run.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.live import LiveServer, browser_api
from helpers.page import DESKTOP, PHONE, SMALL_PHONE, create_table, each_of, in_play, new_page, tap, until

pytestmark = pytest.mark.browser

sync_api = browser_api()

WIDE = {"width": 1920, "height": 1080}

# boxes of the seats and of the trick's cards (page coordinates), with who played each card
GEOMETRY = """() => {
  const box = e => { const r = e.getBoundingClientRect();
                     return { x: r.left, y: r.top, w: r.width, h: r.height }; };
  return {
    seats: [...document.querySelectorAll('#seats .seat')].map(e => ({ seat: e.dataset.seat, ...box(e) })),
    cards: [...document.querySelectorAll('#trick .tcard:not(.enter):not(.collect)')]
      .map(e => ({ seat: e.dataset.playedBy, ...box(e.querySelector('.card')) })),
  };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "layout.db", bot_delay=0.02) as live:
        yield live


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (a["x"] + a["w"] <= b["x"] or b["x"] + b["w"] <= a["x"] or
                a["y"] + a["h"] <= b["y"] or b["y"] + b["h"] <= a["y"])


def centre(b: dict[str, float]) -> tuple[float, float]:
    return b["x"] + b["w"] / 2, b["y"] + b["h"] / 2


def trick_faults(geometry: dict[str, list[dict[str, Any]]]) -> list[str]:
    """What is wrong with the trick on screen: a card under a seat, or nearer another seat than its player's."""
    faults = []
    seats = {s["seat"]: s for s in geometry["seats"]}
    for cd in geometry["cards"]:
        for s in geometry["seats"]:
            if overlap(cd, s):
                faults.append(f"the card of seat {cd['seat']} lies under seat {s['seat']}")
        cx, cy = centre(cd)
        dist = {k: (centre(s)[0] - cx) ** 2 + (centre(s)[1] - cy) ** 2 for k, s in seats.items()}
        nearest = min(dist, key=lambda k: dist[k])
        if nearest != cd["seat"]:
            faults.append(f"the card of seat {cd['seat']} is nearer seat {nearest}")
    return faults


@pytest.mark.parametrize(("preset", "viewport"), [("56-6", PHONE), ("56-6", DESKTOP), ("56-6", WIDE),
                                                  ("56-8", DESKTOP), ("56-4", WIDE), ("55-9", SMALL_PHONE)],
                         ids=["56-6-390", "56-6-1366", "56-6-1920", "56-8-1366", "56-4-1920", "55-9-360"])
def test_each_trick_card_lies_in_front_of_who_played_it_clear_of_every_seat(
        server: LiveServer, browser: Any, preset: str, viewport: dict[str, int]) -> None:
    errors: list[str] = []
    page = new_page(browser, viewport, errors)
    create_table(page, server.url, preset)
    faults: list[str] = []
    seen: set[str] = set()

    def sample(p: Any) -> None:
        geometry = p.evaluate(GEOMETRY)
        seen.update(c["seat"] for c in geometry["cards"])
        faults.extend(trick_faults(geometry))

    players = int(preset.split("-")[1])
    # play on until every seat's card has been seen on the trick (sampled all the while)
    until(page, lambda p: len(seen) == players or bool(faults), limit=120, play=True, each=sample)
    assert not faults, faults[:5]
    assert not errors, errors
    page.context.close()


def test_a_55_table_of_nine_is_laid_out_without_overlap_on_a_360_px_phone(server: LiveServer, browser: Any,
                                                                          tmp_path: Path) -> None:
    errors: list[str] = []
    page = new_page(browser, SMALL_PHONE, errors)
    create_table(page, server.url, "55-9")
    page.wait_for_selector("#seats .seat >> nth=8")
    seats = each_of(page, "#seats .seat", """els => els.map(e => {
        const r = e.getBoundingClientRect(); const name = e.querySelector('.name');
        return { seat: e.dataset.seat, x: r.left, y: r.top, w: r.width, h: r.height,
                 cut: name.scrollWidth > name.clientWidth + 1 }; })""")
    assert len(seats) == 9 and not any(s["cut"] for s in seats)
    for i, a in enumerate(seats):
        assert a["x"] >= 0 and a["x"] + a["w"] <= 360, f"seat {a['seat']} leaves the screen"
        for b in seats[i + 1:]:
            assert not overlap(a, b), f"seats {a['seat']} and {b['seat']} overlap"
    # the hand's cards stay inside the screen and do not cover each other's rank (measured once the hand is
    # shown: in 2 of some 40 runs it was in the page but not laid out yet, every box 0 wide)
    page.wait_for_function("() => { const cs = [...document.querySelectorAll('#hand .card')]; "
                           "return cs.length > 0 && cs.every(e => e.getBoundingClientRect().width > 0); }")
    cards = each_of(page, "#hand .card", """els => els.map(e => {
        const r = e.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height }; })""")
    assert cards and all(c["x"] >= 0 and c["x"] + c["w"] <= 360 for c in cards)
    assert all(b["x"] - a["x"] >= 14 for a, b in zip(cards, cards[1:], strict=False)), "hand cards hide their ranks"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    assert not errors, errors
    page.context.close()


def test_a_selected_bid_shows_its_meaning_and_confirm_on_screen_on_a_phone(server: LiveServer, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, PHONE, errors)
    for _ in range(3):      # (an auction may end before this page has a bid to make: then another table)
        create_table(page, server.url, "56-6")
        until(page, lambda p: in_play(p) or p.locator("#bids button").count() > 0 and
              p.locator("#action-panel.you-move").count() > 0, limit=60)
        if not in_play(page):
            break
    bids = page.locator("#bids button")
    tap(bids.nth(bids.count() - 1))                    # the last bid of the list: the lowest on the page
    page.wait_for_selector("#confirm-btn")
    page.wait_for_function("() => document.getElementById('meaning').textContent !== '…'")
    page.wait_for_function("() => ['meaning', 'confirm-btn'].every(id => {"
                           " const r = document.getElementById(id).getBoundingClientRect();"
                           " return r.top >= 0 && r.bottom <= innerHeight; })", timeout=3000)
    assert not errors, errors
    page.context.close()

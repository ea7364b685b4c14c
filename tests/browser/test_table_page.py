"""The table page as players play it (issue 13): a move made while the server is down, the finished trick
shown, the round table at phone and desktop sizes, why a card is greyed, the start page's words, a wrong code.

System Chromium only; skipped without it except in CI (``CI=true``), where a missing browser fails the run.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.live import CHROMIUM, CHROMIUM_ARGS, LiveServer
from helpers.page import (DESKTOP, PHONE, SMALL_PHONE, create_table, in_play, my_turn, new_page, play_card, tap,
                          until)

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    _why = "the system Chromium (/usr/bin/chromium) is not installed: apt-get install chromium"
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{_why} (CI=true: the browser tests must run)", pytrace=False)
    pytest.skip(_why, allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "page.db", bot_delay=0.02) as live:
        yield live


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_card_played_while_the_server_is_down_is_applied_and_the_page_plays_on(
        tmp_path: Path, browser: Any, viewport: dict[str, int]) -> None:
    db = tmp_path / "restart.db"
    first = LiveServer(db, bot_delay=0.02)
    errors: list[str] = []
    page = new_page(browser, viewport, errors)
    with first:
        create_table(page, first.url, "56-4")
        until(page, in_play)       # pass in the auction until it is this page's turn to play a card
        page.evaluate("() => { window.sameDocument = 1; }")
        played_before = page.evaluate("() => document.querySelectorAll('#hand .card').length")
    page.wait_for_selector("#dot:not(.on)")
    page.wait_for_selector("#conn-banner:not(.hidden)")
    assert "econnecting" in page.locator("#conn-banner").inner_text()
    assert "Your turn" not in page.locator("#action-panel").inner_text()
    assert "you to play" not in page.locator("#score-panel").inner_text()
    card = play_card(page)                                   # tapped and confirmed with nobody listening
    assert card is not None
    page.wait_for_selector("#sending")
    with LiveServer(db, bot_delay=0.02, port=first.port):
        page.wait_for_selector("#dot.on", timeout=30000)
        page.wait_for_function(f"() => document.querySelectorAll('#hand .card').length === {played_before - 1}",
                               timeout=30000)     # (56 has two of each card: count them)
        assert page.evaluate("() => window.sameDocument") == 1          # no reload
        # playable again: the next card of this page can be played (or the deal ends)
        until(page, lambda p: in_play(p) or p.locator("#summary-panel:not(.hidden)").count() > 0, limit=60)
        assert not page.locator("#sending").count()
        if in_play(page):
            left = page.evaluate("() => document.querySelectorAll('#hand .card').length")
            assert play_card(page) is not None
            page.wait_for_function(f"() => document.querySelectorAll('#hand .card').length === {left - 1}")
    assert not errors, errors
    page.context.close()

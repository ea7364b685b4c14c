"""One name on every page (issue 57 item 3), in Chromium: a person who gave their name on the club page finds it
on the start page and creates a table without being asked for it again, at 390x844 and 1366x900."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from helpers.live import LiveServer, browser_api

pytestmark = pytest.mark.browser

browser_api()      # skipped without the system Chromium, failed in CI


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "name.db") as live:
        yield live


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}])
def test_a_name_told_on_the_club_page_is_the_start_page_s(server: LiveServer, browser: Any,
                                                            viewport: dict[str, int]) -> None:
    page = browser.new_context(viewport=viewport).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/club")
    page.fill("#cl-player", "Meera")
    with page.expect_navigation():      # the page reloads once the name is stored: a goto before that is aborted
        page.click("#cl-player-btn")
    page.goto(server.url + "/")
    page.wait_for_selector("#create-btn:not([disabled])")      # the page's script has run: the name is filled
    assert page.input_value("#player-name") == "Meera"
    page.click("#create-btn")
    page.wait_for_url("**/t/*")
    assert page.locator("#create-error:not(.hidden)").count() == 0
    assert not errors, errors

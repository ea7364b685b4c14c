"""A host who adds computer players by hand gets the club player, named by its level (issue 45 item 2)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from fiftysix.bots.levels import club_bot
from fiftysix.i18n import translate
from helpers.live import LiveServer, browser_api
from helpers.page import DESKTOP, SMALL_PHONE, TABLE_URL, tap

browser_api()
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("lobby") / "t.db") as live:
        yield live


@pytest.mark.parametrize(("viewport", "lang"), [(SMALL_PHONE, "en"), (SMALL_PHONE, "ml"), (DESKTOP, "ml")],
                         ids=["360-en", "360-ml", "1366-ml"])
def test_add_computer_seats_the_club_player_and_the_lobby_says_so(
        server: LiveServer, browser: Any, viewport: dict[str, int], lang: str) -> None:
    context = browser.new_context(viewport=viewport, locale="ml-IN" if lang == "ml" else "en-GB")
    page = context.new_page()
    page.goto(server.url + "/")
    page.fill("#player-name", "Asha")
    page.select_option("#preset", "56-4")
    page.select_option("#fill", "")                 # seats left empty: the host adds computers by hand
    page.click("#create-btn")
    page.wait_for_url(TABLE_URL)
    add = translate("Add computer", lang)
    page.wait_for_selector(f"#lobby-panel button:has-text('{add}')")
    for seat in (1, 2, 3):
        row = page.locator(f'[data-lobby-seat="{seat}"]')
        tap(row.locator("button", has_text=add))
        name = translate("Club player {n}", lang).format(n=seat)
        page.wait_for_function("([seat, name]) => { const r = document.querySelector(`[data-lobby-seat=\"${seat}\"]`);"
                               " return r && r.innerText.includes(name); }", arg=[seat, name])
    table = page.evaluate("fetch(location.pathname.replace('/t/', '/api/tables/')).then(r => r.json())")
    bots = [s.get("bot") for s in table["seats"][1:]]
    assert bots == [club_bot("56")] * 3, f"the computers seated were {bots}"
    context.close()

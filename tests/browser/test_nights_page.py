"""The club nights page (issue 44) in Chromium, at 360 px (touch) and 1366 px: the owner makes an event on the club
page, a member signs up a team on a phone, the owner starts it; boards finished at every table then show in the
standings and on their board list, a board finished at one table only does not; English and Malayalam, no
sideways scroll."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.live import LiveServer, browser_api, on_server
from helpers.nights import finish_board

pytestmark = pytest.mark.browser

browser_api()      # skipped without the system Chromium, failed in CI

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1366, "height": 900}
SCREENSHOTS = Path("test-artifacts")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "nights.db") as live:
        yield live


def sideways(page: Any) -> bool:
    return not page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_an_owner_makes_and_starts_a_club_night_and_the_standings_show_finished_boards(
        server: LiveServer, browser: Any) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    owner_ctx = browser.new_context(viewport=DESKTOP)
    member_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    asha, ben = owner_ctx.new_page(), member_ctx.new_page()
    errors: list[str] = []
    for page, name in ((asha, "Asha"), (ben, "Ben")):
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + "/")
        assert page.request.post(server.url + "/api/player", data={"name": name}).ok
    made = asha.request.post(server.url + "/api/clubs", data={"name": "Friday club"}).json()
    assert ben.request.post(server.url + "/api/clubs/join", data={"invite": made["invite"]}).ok
    asha.goto(f"{server.url}/club#c={made['id']}")
    asha.wait_for_selector("#nt-make")
    asha.fill("#nt-name", "First Friday")
    asha.fill("#nt-boards", "2")
    asha.fill("#nt-tables", "2")
    asha.select_option("#nt-level", "beginner")
    asha.click("#nt-make")
    asha.wait_for_url("**/club#n=*")
    night = asha.url.split("#n=", 1)[1]
    asha.wait_for_selector("#nt-join")
    assert "First Friday" in asha.inner_text("#cl-title")
    asha.fill("#nt-team", "Asha's team")
    asha.click("#nt-join")
    asha.wait_for_selector("#nt-teams li")
    ben.goto(f"{server.url}/club#n={night}")
    ben.wait_for_selector("#nt-join")
    assert ben.locator("#nt-start").count() == 0          # only the owner starts
    ben.fill("#nt-team", "Ben's team")
    ben.select_option("#nt-table", "2")
    ben.click("#nt-join")
    ben.locator("#nt-teams li").nth(1).wait_for()
    assert not sideways(ben)
    assert ben.locator("#nt-draw").count() == 0           # only the owner draws
    chitra = browser.new_context()                          # a member who came without a team: drawn by the owner
    assert chitra.request.post(server.url + "/api/player", data={"name": "Chitra"}).ok
    assert chitra.request.post(server.url + "/api/clubs/join", data={"invite": made["invite"]}).ok
    chitra.close()
    asha.reload()
    asha.wait_for_selector("input.nt-free").check()
    asha.click("#nt-draw")
    asha.locator("#nt-teams li").nth(2).wait_for()
    assert "Chitra" in asha.inner_text("#nt-teams")
    asha.reload()
    asha.wait_for_selector("#nt-start").click()
    asha.wait_for_selector("#nt-close")
    assert "being played" in asha.inner_text("main")
    assert "No board finished at every table yet." in asha.inner_text("main")

    async def boards(srv: Any) -> None:      # board 1 finished at both tables, board 2 at table 1 only
        await finish_board(srv, night, 1, 1, [2, -2])
        await finish_board(srv, night, 2, 1, [-3, 3])
        await finish_board(srv, night, 1, 2, [1, -1])
    on_server(server, boards)
    for page, size in ((asha, "1366"), (ben, "360")):
        page.reload()
        page.wait_for_selector("ul.night-board li")      # the last part the page draws
        text = page.inner_text("main")
        assert "Board 1" in text and "Board 2" not in text, text
        standings = page.inner_text("ol.night-standings")
        assert standings.index("Asha's team") < standings.index("Ben's team"), standings
        assert "+2.50" in standings and "-2.50" in standings, standings
        assert not sideways(page), size
        page.screenshot(path=str(SCREENSHOTS / f"club-night-{size}.png"), full_page=True)
    ben.evaluate("localStorage.setItem('lang', 'ml')")
    ben.reload()
    ben.wait_for_selector("ul.night-board li")
    assert "ബോർഡ് 1" in ben.inner_text("main") and not sideways(ben)
    ben.screenshot(path=str(SCREENSHOTS / "club-night-ml-360.png"), full_page=True)
    assert not errors, errors
    for ctx in (owner_ctx, member_ctx):
        ctx.close()

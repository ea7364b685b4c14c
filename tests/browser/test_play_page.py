"""One tap to a game (issue 58 item 3): the start page's Play seats a person at another person's public table, or
opens one with computers, and says which, in English and Malayalam, at 360, 390 and 1366 px.  Screenshots go to
test-artifacts/play/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from fiftysix.i18n import translate
from helpers.live import LiveServer, browser_api
from helpers.page import DESKTOP, PHONE, SMALL_PHONE, TABLE_URL, new_page, tap

browser_api()
pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "play"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("play") / "t.db", bot_delay=0.5) as live:
        yield live


def tap_play(browser: Any, server: LiveServer, viewport: dict[str, int], lang: str, name: str, shot: str) -> Any:
    errors: list[str] = []
    page = new_page(browser, viewport, errors)
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
    page.goto(server.url + "/")
    page.wait_for_selector("#play-btn")
    assert page.inner_text("#play-btn").strip() == translate("Play", lang)
    box = page.locator("#play-btn").bounding_box()
    wide = min(viewport["width"] * 0.7, 400)                                                  # a thumb's target
    assert box is not None and box["width"] >= wide and box["height"] >= 44
    assert box["y"] + box["height"] <= viewport["height"]                                      # in view, no scroll
    page.fill("#player-name", name)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"home-{viewport['width']}-{lang}.png"))
    tap(page.locator("#play-btn"))
    page.wait_for_selector("#play-said:not(.hidden)")
    said = page.inner_text("#play-said")
    page.screenshot(path=str(SHOTS / f"{shot}-{viewport['width']}-{lang}.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]       # no sideways scroll
    page.wait_for_url(TABLE_URL, timeout=15000)
    assert not errors, errors
    return page, said


def test_alone_play_opens_a_table_with_computers_and_says_so(server: LiveServer, browser: Any) -> None:
    page, said = tap_play(browser, server, PHONE, "en", "Ravi", "new")
    assert said.startswith("No table had a free seat near your rating: a new table with computers; people who "
                           "arrive take their seats at the next deal")
    code = page.url.split("/t/")[1]
    table = httpx.get(f"{server.url}/api/tables/{code}", timeout=10).json()
    assert table["status"] == "playing" and table["seats"][0]["name"] == "Ravi"
    assert all(s["kind"] == "bot" for s in table["seats"][1:])
    page.context.close()


@pytest.mark.parametrize(("viewport", "lang"), [(PHONE, "en"), (SMALL_PHONE, "ml"), (PHONE, "ml"), (DESKTOP, "ml")],
                         ids=["390-en", "360-ml", "390-ml", "1366-ml"])
def test_play_seats_a_person_at_anothers_public_table_and_says_whose(
        server: LiveServer, browser: Any, viewport: dict[str, int], lang: str) -> None:
    host = httpx.post(f"{server.url}/api/player", json={"name": "Anu"}, timeout=10).json()["token"]
    httpx.post(f"{server.url}/api/tables", json={"token": host, "public": True, "preset": "56-6"}, timeout=10)
    page, said = tap_play(browser, server, viewport, lang, "Ben", "seated")
    assert said.startswith(translate("Seated at {host}'s table", lang).format(host="Anu"))
    table = httpx.get(f"{server.url}/api/tables/{page.url.split('/t/')[1]}", timeout=10).json()
    assert [s.get("name") for s in table["seats"] if s["kind"] == "player"][:1] == ["Anu"]
    assert "Ben" in [s.get("name") for s in table["seats"]]
    page.context.close()


CLAIM_LINE = "Your seat from the next deal: seat {n}. Until then you watch."


@pytest.mark.parametrize("lang", ["en", "ml"])
def test_a_claimant_mid_deal_watches_with_a_line_naming_their_seat_from_the_next_deal(
        browser: Any, tmp_path: Path, lang: str) -> None:
    """Item 3: the only table in reach is mid-deal, so Play gives the newcomer a computer's seat from the next deal;
    the table page says which seat, in their language, at 390 px, while they watch this deal."""
    with LiveServer(tmp_path / "t.db", bot_delay=0.5) as live:
        anu = httpx.post(f"{live.url}/api/player", json={"name": "Anu"}, timeout=10).json()["token"]
        opened = httpx.post(f"{live.url}/api/play", json={"token": anu}, timeout=30).json()
        assert opened["outcome"] == "new"                                 # Anu's table with computers, dealt
        page, said = tap_play(browser, live, PHONE, lang, "Ben", "claim")
        assert said.startswith(translate("Seated at {host}'s table: a deal is on, you play from the next one",
                                         lang).format(host="Anu"))
        table = httpx.get(f"{live.url}/api/tables/{opened['code']}", timeout=10).json()
        assert table["status"] == "playing" and len(table["claimed"]) == 1
        seat = table["claimed"][0]
        line = page.locator("#claim-line")
        line.wait_for(state="visible", timeout=15000)
        assert line.inner_text().strip() == translate(CLAIM_LINE, lang).format(n=seat)
        box = line.bounding_box()
        assert box is not None and box["width"] <= PHONE["width"] and box["height"] > 0
        assert "Ben" not in [s.get("name") for s in table["seats"]]     # a computer plays the seat this deal
        page.screenshot(path=str(SHOTS / f"claim-390-{lang}.png"))
        page.context.close()

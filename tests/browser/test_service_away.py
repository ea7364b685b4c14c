"""While the server's database is away the page says one thing: the table waits (issue 45 item 5).

The page's socket is routed through Playwright (``route_web_socket``) to the real server, so the test can add the
server's own ``service`` message at a chosen moment: no "Your turn" that cannot be taken, no second message that
asks the player to try again."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from fiftysix.i18n import translate
from helpers.live import LiveServer, browser_api
from helpers.page import SMALL_PHONE, create_table, in_play, my_turn, until

browser_api()
pytestmark = pytest.mark.browser

WAITING = ("The table is waiting: the server's database is not answering. Play goes on by itself when it is back.")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("away") / "t.db", bot_delay=0.02) as live:
        yield live


@pytest.mark.parametrize("lang", ["en", "ml"])
def test_a_database_outage_is_one_message_and_no_turn(server: LiveServer, browser: Any, lang: str) -> None:
    context = browser.new_context(viewport=SMALL_PHONE, is_mobile=True, has_touch=True,
                                  locale="ml-IN" if lang == "ml" else "en-GB")
    page = context.new_page()
    sockets: list[Any] = []

    def relay(ws: Any) -> None:
        ws.connect_to_server()        # every message passes both ways; the test may add the server's own
        sockets.append(ws)

    page.route_web_socket("**/ws/**", relay)
    create_table(page, server.url, "56-4")
    page.wait_for_function("() => !!document.querySelector('#action-panel.you-move')", timeout=60000)
    assert page.title().startswith("●")

    def service(ok: bool) -> None:
        sockets[-1].send(json.dumps({"type": "service", "service": "database", "ok": ok}))

    service(False)
    page.wait_for_function("() => !document.getElementById('conn-banner').classList.contains('hidden')")
    assert page.locator("#conn-banner").inner_text().strip() == translate(WAITING, lang)
    assert not my_turn(page) and page.locator("#action-panel").is_hidden()
    assert not page.title().startswith("●"), page.title()
    assert not page.locator("#hand button.card.legal").count()
    # a refusal the server sends meanwhile (a move it could not store) adds no second message
    sockets[-1].send(json.dumps({"type": "error", "message": translate(
        "the server could not save that just now; please try again", lang)}))
    page.wait_for_timeout(300)
    assert page.locator("#error").is_hidden()
    # a card tapped meanwhile stays in the hand and the line under it says why (issue 57 item 6)
    away = translate("Not played: the table is waiting for the server's database. Your card stays in your hand; "
                     "play goes on when it is back.", lang)
    page.locator("#hand .card").first.dispatch_event("click")
    page.wait_for_function("(text) => document.getElementById('card-why')?.textContent === text", arg=away)
    assert page.locator("#error").is_hidden()
    service(True)
    page.wait_for_function("() => !!document.querySelector('#action-panel.you-move')")
    assert page.locator("#conn-banner").is_hidden() and page.title().startswith("●")
    context.close()


@pytest.mark.parametrize("lang", ["en", "ml"])
def test_a_card_the_server_could_not_store_comes_back_with_the_reason(server: LiveServer, browser: Any,
                                                                      lang: str) -> None:
    """Issue 57 item 6: the card is tapped and sent, then the database goes away before the server stores it (the
    server says so and refuses the move): the card is back in the hand and the line under it says why; no red
    message, nothing silent."""
    context = browser.new_context(viewport=SMALL_PHONE, is_mobile=True, has_touch=True,
                                  locale="ml-IN" if lang == "ml" else "en-GB")
    page = context.new_page()
    armed: list[bool] = []
    held: list[dict[str, Any]] = []

    def relay(ws: Any) -> None:
        remote = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message) if isinstance(message, str) else {}
            if armed and data.get("type") == "move" and not held:
                held.append(data)       # never reaches the server: its database "went away" meanwhile
                ws.send(json.dumps({"type": "service", "service": "database", "ok": False}))
                ws.send(json.dumps({"type": "error", "id": data["id"], "message": translate(
                    "the server could not save that just now; please try again", lang)}))
                return
            remote.send(message)
        ws.on_message(from_page)

    page.route_web_socket("**/ws/**", relay)
    create_table(page, server.url, "56-4")
    until(page, in_play)
    cards = page.locator("#hand .card").count()
    armed.append(True)
    page.locator("#hand button.card.legal").first.dispatch_event("click")
    if page.locator("#confirm-btn").count():
        page.locator("#confirm-btn").dispatch_event("click")
    away = translate("Not played: the table is waiting for the server's database. Your card stays in your hand; "
                     "play goes on when it is back.", lang)
    page.wait_for_function("(text) => document.getElementById('card-why')?.textContent === text", arg=away)
    assert held and held[0]["type"] == "move"
    assert page.locator("#hand .card").count() == cards
    assert page.locator("#error").is_hidden()
    assert page.locator("#conn-banner").inner_text().strip() == translate(WAITING, lang)
    context.close()

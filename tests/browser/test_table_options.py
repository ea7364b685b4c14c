"""The table page's quiet options (issue 13): sound off by default and remembered, no motion when the player asks
for reduced motion, and a resent move the table had already applied (``moved`` with ``again``) ends "sent".

System Chromium only; skipped without it except in CI (``CI=true``), where a missing browser fails the run.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from helpers.live import LiveServer, browser_api
from helpers.page import PHONE, create_table, in_play, new_page, play_card, tap, until

pytestmark = pytest.mark.browser

sync_api = browser_api()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "options.db", bot_delay=0.02) as live:
        yield live


def test_sound_is_off_by_default_and_the_choice_is_remembered(server: LiveServer, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, PHONE, errors)
    create_table(page, server.url, "56-4")
    sound = page.locator("#sound")
    assert sound.get_attribute("aria-pressed") == "false"
    assert page.evaluate("() => localStorage.getItem('fiftysix-sound')") is None
    tap(sound)
    page.wait_for_selector('#sound[aria-pressed="true"]')
    page.reload()                                           # the same browser comes back: still on
    page.wait_for_selector('#sound[aria-pressed="true"]')
    tap(page.locator("#sound"))
    page.wait_for_selector('#sound[aria-pressed="false"]')
    page.reload()
    page.wait_for_selector("#hand .card")
    assert page.locator("#sound").get_attribute("aria-pressed") == "false"
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_reduced_motion_means_no_card_moves(server: LiveServer, browser: Any, motion: str) -> None:
    errors: list[str] = []
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, reduced_motion=motion)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    create_table(page, server.url, "56-4")
    running: list[str] = []
    # every animation or transition that starts on the table or the hand, recorded by the page itself (polling
    # alone can miss a short one on a loaded machine)
    page.evaluate("""() => { window.moves = [];
        for (const kind of ['animationstart', 'transitionstart'])
            document.addEventListener(kind, e => {
                if (e.target.closest && e.target.closest('#felt, #hand'))
                    window.moves.push(e.animationName || e.propertyName || kind); }, true);
        // and every card put on the table with an animation of its own (as the style sheet gives it)
        new MutationObserver(records => { for (const r of records) for (const n of r.addedNodes) {
            if (n.classList && n.classList.contains('tcard')) {
                const name = getComputedStyle(n).animationName;
                if (name && name !== 'none') window.moves.push(name);
            } } }).observe(document.body, { childList: true, subtree: true }); }""")

    def sample(p: Any) -> None:   # every running animation or transition on the table and the hand
        running.extend(p.evaluate("() => window.moves.splice(0)"))
        running.extend(p.evaluate("""() => document.getAnimations()
            .filter(a => a.playState === 'running' && a.effect && a.effect.target
                         && a.effect.target.closest('#felt, #hand'))
            .map(a => a.animationName || a.transitionProperty || 'animation')"""))

    until(page, lambda p: p.evaluate("() => document.querySelectorAll('#felt .tcard').length") >= 3 and
          bool(running) == (motion == "no-preference") or (motion == "reduce" and
                                                           p.locator("#trick.finished").count() > 0),
          limit=90, play=True, each=sample)
    if motion == "reduce":
        assert not running, f"moving with reduced motion asked: {running[:5]}"
    else:
        assert running, "no motion at all (the check would not see it)"
    assert not errors, errors
    context.close()


def test_a_resent_move_the_table_had_applied_ends_the_sent_state(server: LiveServer, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, PHONE, errors)
    held: dict[str, Any] = {"move": None, "hold": False, "armed": False}

    def route(ws: Any) -> None:
        upstream = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            upstream.send(message)
            msg = json.loads(message)
            if msg.get("type") == "move" and held["armed"] and held["move"] is None:
                # the table applies it, but its answer is lost on the way (as on a flaky phone network) ...
                held["move"] = msg
                held["hold"] = True
                # ... and the page's move reaches the table a second time: "moved", "again"
                upstream.send(message)

        def from_server(message: str | bytes) -> None:
            msg = json.loads(message)
            if held["hold"] and not (msg.get("type") == "moved" and msg.get("again")):
                return
            ws.send(message)

        ws.on_message(from_page)
        upstream.on_message(from_server)

    page.route_web_socket("**/ws/*", route)
    create_table(page, server.url, "56-4")
    until(page, in_play, limit=60)
    held["armed"] = True                     # the card this page plays next
    assert play_card(page) is not None
    # only "moved" with "again" came back: nothing is on its way any more, so "sent" must end
    page.wait_for_function("() => !document.querySelector('#sending')", timeout=5000)
    assert held["move"] is not None
    assert not errors, errors
    page.context.close()



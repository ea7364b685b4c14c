"""Driving the table page in Playwright: create a table, make moves as a person would (tap, then confirm)."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1366, "height": 900}
TABLE_URL = re.compile(r".*/t/[A-Z0-9]+(#k=[A-Za-z0-9_-]+)?$")


def new_page(browser: Any, viewport: dict[str, int], errors: list[str]) -> Any:
    """A page in a fresh context (a phone viewport is a touch device), collecting script and CSP errors."""
    touch = viewport["width"] < 700
    context = browser.new_context(viewport=viewport, is_mobile=touch, has_touch=touch)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    return page


def each_of(page: Any, selector: str, function: str) -> Any:
    """``function`` (JS, taking the list of elements) on every element matching ``selector``, in one look.

    Playwright's ``eval_on_selector_all`` finds the elements and runs the function in two round trips: a redraw
    between them (a bot's move) leaves detached elements, 0 px wide and with no computed style.
    """
    return page.evaluate(f"sel => ({function})([...document.querySelectorAll(sel)])", selector)


def create_table(page: Any, url: str, preset: str, name: str = "Asha", start: bool = True) -> str:
    """From the start page: a table of ``preset`` with computer players in the empty seats; its code."""
    page.goto(url + "/")
    page.fill("#player-name", name)
    page.select_option("#preset", preset)
    page.click("#create-btn")
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#start-btn")
    if start:
        page.click("#start-btn")
        page.wait_for_selector("#hand .card")
    return str(page.locator("#code").inner_text())


def seated(page: Any, seat: int, name: str) -> None:
    """Wait until ``page``'s lobby shows ``name`` in ``seat`` (every lobby seat has a bold name, "empty" too: waiting
    for the bold alone let a host start before the guest sat, and computers took the guest's seat)."""
    page.wait_for_function("([seat, name]) => document.querySelector(`#lobby-panel [data-lobby-seat='${seat}'] b`)"
                           "?.textContent === name", arg=[seat, name])


def tap(locator: Any) -> None:
    """A tap: the click event on the element (no waiting for a stable box while the page re-renders)."""
    locator.dispatch_event("click")


def my_turn(page: Any) -> bool:
    return bool(page.locator("#action-panel.you-move").count())


def call(page: Any, offline: bool = False) -> bool:
    """Pass if allowed (else the lowest bid) when it is this page's turn in the auction."""
    panel = page.locator("#action-panel")
    button = panel.locator('[data-move="P"]')
    if not button.count():
        button = panel.locator("#bids button")
    if not button.count():
        return False
    tap(button.first)
    page.wait_for_selector("#confirm-btn")
    if not offline:
        page.wait_for_function("() => document.getElementById('meaning') && "
                               "document.getElementById('meaning').textContent !== '…'")
    tap(page.locator("#confirm-btn"))
    return True


def tap_card(page: Any, card: Any) -> None:
    """Play a raised card as a person does: one tap plays it, and when the page is set to confirm each card
    (``#confirm-cards``), the tap selects it and "Play" confirms it."""
    left = page.locator("#hand .card").count()
    tap(card)
    page.wait_for_function(f"() => !!document.querySelector('#confirm-btn') || !!document.querySelector('#sending') "
                           f"|| document.querySelectorAll('#hand .card').length < {left}")
    if page.locator("#confirm-btn").count():
        tap(page.locator("#confirm-btn"))


def play_card(page: Any) -> str | None:
    """Play the first legal card (a tap; confirmed when the page asks); the card played."""
    legal = page.locator("#hand button.card.legal")
    if not legal.count():
        return None
    played = str(legal.first.get_attribute("data-card"))
    tap_card(page, legal.first)
    return played


def act(page: Any, offline: bool = False) -> bool:
    """One move if it is this page's turn: a call (a pass, else the lowest bid), a trump, a discard or a card
    (``offline``: a call without waiting for its meaning, which the server gives)."""
    if not my_turn(page):
        return False
    panel = page.locator("#action-panel")
    if page.locator("#bids").count() or page.locator("#specials").count():
        done = call(page, offline)
    elif page.locator("#hand button.card.legal").count():
        play_card(page)
        return True
    elif panel.locator("[data-move]").count():
        tap(panel.locator("[data-move]").first)
        page.wait_for_selector("#confirm-btn")
        tap(page.locator("#confirm-btn"))
        done = True
    else:
        return False
    if done:
        page.wait_for_function("() => !document.querySelector('#confirm-btn')")
    return done


def until(page: Any, condition: Any, limit: float = 90, play: bool = False, each: Any = None) -> None:
    """Make this page's calls (its cards too when ``play``; "Next deal" after a deal) until ``condition(page)``;
    ``each(page)`` is called on every round (a sampler)."""
    deadline = time.monotonic() + limit
    while not condition(page):
        if time.monotonic() > deadline:
            raise AssertionError("the page did not reach the wanted state in time")
        if each is not None:
            each(page)
            if condition(page):     # what the sampler saw is the wanted state: no move after it (a "Next deal"
                return              # tapped here took a deal's last trick away before it was measured)
        if page.locator("#next-btn").count():
            tap(page.locator("#next-btn"))
            page.wait_for_timeout(50)
        elif my_turn(page) and (play or not in_play(page)):
            act(page)
        else:
            page.wait_for_timeout(25)


def in_play(page: Any) -> bool:
    """This page's turn to play a card."""
    return bool(page.locator("#hand button.card.legal").count())


def shot(page: Any, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=False)


AXE = Path(__file__).resolve().parents[1] / "browser" / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page at rest.

    Computers keep playing while axe runs (a second or more on a loaded machine): a card sliding into the trick or
    fading to its winner is drawn half transparent, and axe would judge that frame's contrast. So the page is shown
    as a player who asked for reduced motion sees it (no slide, no fade) for the length of the run.
    """
    if not AXE.exists():
        import pytest
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("axe-core is missing: make test installs it with npm", pytrace=False)
        pytest.skip("axe-core is not installed: npm install --prefix tests/browser axe-core@4")
    page.emulate_media(reduced_motion="reduce")
    try:
        page.evaluate("() => Promise.all(document.getAnimations().map(a => a.finished.catch(() => null)))")
        if not page.evaluate("() => !!window.axe"):
            page.evaluate(AXE.read_text(encoding="utf-8"))
        result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    finally:
        page.emulate_media(reduced_motion="no-preference")
    return [v for v in result["violations"] if v["impact"] in ("serious", "critical")]

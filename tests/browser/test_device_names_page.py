"""Devices named when they sign in (issue 57, item 6: "three identical 'Chrome · Android' rows"), on a 390 phone in
English and Malayalam: a second phone of the same make signs in with a one-time link, the page offers it a name
filled in with the browser's label, the person names it, and each phone's list reads two rows told apart by their
names, "this device" on its own; the owner renames the other phone from the first, and an empty name is refused in
the page's language."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fiftysix.i18n import translate
from helpers.live import LiveServer, browser_api

pytestmark = pytest.mark.browser

browser_api()      # skipped without the system Chromium, failed in CI

PHONE = {"width": 390, "height": 844}
LOCALES = {"en": "en-GB", "ml": "ml-IN"}
ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 "
           "Mobile Safari/537.36")
SCREENSHOTS = Path("test-artifacts")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "devices.db") as live:
        yield live


def phone(browser: Any, lang: str, errors: list[str]) -> Any:
    """A 390 Android phone reading ``lang`` (both phones of one make: the same browser label)."""
    page = browser.new_context(viewport=PHONE, locale=LOCALES[lang], is_mobile=True, has_touch=True,
                               user_agent=ANDROID).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def rows(page: Any) -> list[str]:
    return [r.inner_text() for r in page.locator("#ac-devices li").all()]


def name_here(page: Any, lang: str, name: str) -> None:
    """Name this device in the box the page offers it, which shows the browser's label first."""
    box = page.wait_for_selector("#ac-here:not(.hidden)")
    assert translate("Name this device", lang) in box.inner_text()
    assert page.input_value("#ac-here-name") == "Chrome · Android"
    page.fill("#ac-here-name", name)
    page.click("#ac-here-form button")
    page.wait_for_selector("#ac-here.hidden", state="attached")
    page.locator("#ac-devices li .device-name", has_text=name).wait_for()


def rename(page: Any, row_text: str, name: str) -> None:
    """Rename the device whose row reads ``row_text`` with its own "Rename" control."""
    row = page.locator("#ac-devices li", has_text=row_text)
    if not row.locator("details").evaluate("(d) => d.open"):
        row.locator("summary").click()
    row.locator("input").fill(name)
    row.locator("form button").click()


@pytest.mark.parametrize("lang", ["en", "ml"])
def test_a_second_phone_is_named_when_it_signs_in(server: LiveServer, browser: Any, lang: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    errors: list[str] = []
    first, second = phone(browser, lang, errors), phone(browser, lang, errors)
    first.goto(server.url + "/")
    assert first.request.post(server.url + "/api/player", data={"name": "Asha"}).ok
    first.goto(server.url + "/account")          # the account is made here: this phone is offered a name
    name_here(first, lang, "Asha's phone")

    first.click("#ac-link")
    link = first.wait_for_selector("#ac-link-box input").input_value()
    second.goto(link)                              # the second phone signs in: it is offered a name too
    name_here(second, lang, "Kitchen tablet")

    this = translate("this device", lang)
    for page, mine, other in ((second, "Kitchen tablet", "Asha's phone"), (first, "Asha's phone", "Kitchen tablet")):
        page.reload()
        page.wait_for_selector("#ac-devices li:nth-child(2)")
        read = rows(page)
        assert len(read) == 2 and read[0] != read[1], read
        [here] = [r for r in read if this in r]
        [there] = [r for r in read if this not in r]
        assert mine in here and other in there and other not in here, read
        assert all("Chrome · Android" in r for r in read)         # the label stays beside the name
        # when each signed in, in the one date format of the history and club pages (dom.dateText)
        since = page.evaluate("""async () => (await (await fetch('/api/account')).json()).devices.map(
          (d) => new Date(d.created * 1000).toLocaleDateString())""")
        assert all(day in r for day, r in zip(since, read, strict=True)), (since, read)
        assert page.locator("#ac-here").is_hidden()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    second.screenshot(path=str(SCREENSHOTS / f"account-devices-390-{lang}.png"), full_page=True)

    # the owner renames the other phone from this one; an empty name is refused in the page's language
    rename(first, "Kitchen tablet", "  ")
    error = first.wait_for_selector("#ac-error:not(.hidden)").inner_text()
    assert translate("choose a {what} (1 to {limit} characters)", lang).format(
        what=translate("device name", lang), limit=40) in error, error
    rename(first, "Kitchen tablet", "Amma's tablet")
    first.locator("#ac-devices li .device-name", has_text="Amma's tablet").wait_for()
    assert first.locator("#ac-error").is_hidden()
    second.reload()
    second.locator("#ac-devices li", has_text=this).locator(".device-name", has_text="Amma's tablet").wait_for()
    assert not errors, errors

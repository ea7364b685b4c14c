"""28♥ and ♥28 are different calls (the written form is a public convention): they must differ at a glance and
to a screen reader (issue 45 item 6)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from fiftysix.i18n import translate
from helpers.live import LiveServer, browser_api
from helpers.page import DESKTOP, create_table, tap

browser_api()
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("forms") / "t.db", bot_delay=0.02) as live:
        yield live


@pytest.mark.parametrize("lang", ["en", "ml"])
def test_a_suit_first_bid_reads_apart_from_a_number_first_bid(server: LiveServer, browser: Any, lang: str) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="ml-IN" if lang == "ml" else "en-GB")
    page = context.new_page()
    for _ in range(20):              # a deal where this seat calls while 3x bids are still open
        create_table(page, server.url, "56-4")
        page.wait_for_function("() => !!document.querySelector('#action-panel.you-move') || "
                               "!!document.querySelector('#hand button.card.legal')", timeout=60000)
        if page.locator("#all-bids").count():
            break
    if not page.locator("#all-bids").evaluate("d => d.open"):
        tap(page.locator("#all-bids summary"))
    hearts = page.locator("#all-bids [data-tab='H']")
    if hearts.count():
        tap(hearts)
    buttons = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#bids button')]
        .map(b => [b.dataset.move, {cls: b.className, label: b.getAttribute('aria-label'), text: b.textContent}]))""")
    pairs = [(m, "H" + m[:-1]) for m in buttons if m.endswith("H") and m[:-1].isdigit() and "H" + m[:-1] in buttons]
    assert pairs, f"no bid offered in both forms: {sorted(buttons)}"
    hearts_word = translate("hearts", lang)
    for number_first, suit_first in pairs:
        a, b = buttons[number_first], buttons[suit_first]
        assert "suit-first" in b["cls"] and "suit-first" not in a["cls"]
        assert a["label"] != b["label"] and hearts_word in a["label"] and hearts_word in b["label"]
        assert b["label"].startswith(hearts_word) and a["label"].endswith(hearts_word)
    context.close()

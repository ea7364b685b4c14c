"""Share with the whole server's QR budget spent (issue 41): the page still gives the link, and says why there is no
image, instead of everyone waiting for QR codes (a server of its own, whose QR codes are all refused)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from fiftysix.server.edge.limits import Limits
from helpers.live import LiveServer, browser_api
from helpers.page import DESKTOP, create_table, new_page, tap

pytestmark = pytest.mark.browser

sync_api = browser_api()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "busy.db", bot_delay=0.02, limits=Limits(qr_running=0)) as live:
        yield live


def test_share_with_its_qr_code_refused_still_gives_the_link(server: LiveServer, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors)
    create_table(page, server.url, "56-4", start=False)
    tap(page.locator("#share"))
    page.wait_for_selector("#share-busy")
    assert page.locator("#share-url").input_value() == page.url
    assert page.locator("#share-qr").count() == 0
    assert "busy making QR codes" in page.locator("#share-busy").inner_text()
    assert not errors, errors
    page.context.close()

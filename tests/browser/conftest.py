"""The browser of the page tests: the system Chromium through Playwright, one per test module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from helpers.live import CHROMIUM, CHROMIUM_ARGS, browser_api


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = browser_api()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()

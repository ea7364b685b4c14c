"""Screenshots of a 56-6 deal on the table page (auction, mid-trick, finished trick) at a phone's 390x844 and a
desktop's 1366x900, written to docs/screenshots/.  One person plays with five computer players.

    PYTHONPATH=src:tests python bench/screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers.live import CHROMIUM, CHROMIUM_ARGS, LiveServer  # noqa: E402
from helpers.page import DESKTOP, PHONE, create_table, in_play, my_turn, new_page, play_card, tap, until  # noqa: E402

FINISHED = "() => document.querySelector('#trick.finished .winmark') && " \
           "document.querySelectorAll('#trick .tcard').length === 6"


def still(page: Any) -> None:
    """Wait until no card is on its way (a shot mid-move shows a card half under a seat)."""
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")


def auction_turn(page: Any) -> bool:
    return my_turn(page) and bool(page.locator("#bids button, #specials button").count())


def mid_trick(page: Any) -> bool:
    return in_play(page) and page.locator("#trick:not(.finished) .tcard").count() >= 2


def one_size(browser: Any, url: str, size: dict[str, int], name: str, out: Path) -> None:
    errors: list[str] = []
    page = new_page(browser, size, errors)
    create_table(page, url, "56-6")
    until(page, auction_turn)
    bid = page.locator("#bids button")
    if bid.count():                       # a bid selected: its meaning in words, waiting to be confirmed
        tap(bid.first)
        page.wait_for_function("() => document.getElementById('meaning') && "
                               "document.getElementById('meaning').textContent !== '…'")
    still(page)
    page.screenshot(path=str(out / f"56-6-auction-{name}.png"))
    deadline = time.monotonic() + 120
    while not mid_trick(page):         # play on until this page is to play with two cards or more down
        if time.monotonic() > deadline:
            raise SystemExit("no mid-trick turn in time")
        if in_play(page):                # (a finished trick stays shown until this page leads: lead anyway)
            play_card(page)
            page.wait_for_function("() => !document.querySelector('#hand button.card.legal')")
        until(page, in_play, limit=60)
    still(page)
    page.screenshot(path=str(out / f"56-6-mid-trick-{name}.png"))
    play_card(page)
    page.wait_for_function(FINISHED, timeout=30000)
    still(page)
    page.screenshot(path=str(out / f"56-6-finished-trick-{name}.png"))
    if errors:
        raise SystemExit(f"page errors: {errors}")
    page.context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, LiveServer(Path(tmp) / "shots.db", bot_delay=0.05) as live, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
            one_size(browser, live.url, size, name, args.out)
        browser.close()
    print(f"screenshots written to {args.out}/")


if __name__ == "__main__":
    main()

"""The whole journey of issue 43 in real Chromium: two people (two browser contexts) make accounts; one makes a club on
the club page and invites the other, who joins by the invite link on a phone; they play a match with computer players
at a club table; then both see it in their history, both ratings moved with the right signs, the club's leaderboard
orders them (both are regulars with established ratings: two new accounts on opposing sides rate nothing,
docs/server.md "Who is rated, and farming"); a third context signs in as the first player with a one-time link and
sees the same history; it signs out; the second person deletes their account and the first one's history shows "a
former player" in their seat. (The passkey sign-up and sign-in on localhost: test_account_page.py.)"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.live import LiveServer, browser_api
from helpers.page import seated

pytestmark = pytest.mark.browser

browser_api()      # skipped without the system Chromium, failed in CI

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1366, "height": 900}
SCREENSHOTS = Path("test-artifacts")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "journey.db", bot_delay=0, next_delay=0) as live:
        yield live


def history(page: Any, server: LiveServer) -> dict[str, Any]:
    data: dict[str, Any] = page.request.get(f"{server.url}/api/players/me/history").json()
    return data


def no_sideways_scroll(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


def test_club_match_history_leaderboard_and_an_identity_that_travels(server: LiveServer, browser: Any) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    contexts = [browser.new_context(viewport=DESKTOP),
                browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True),
                browser.new_context(viewport=DESKTOP)]
    asha, ben, third = (c.new_page() for c in contexts)
    errors: list[str] = []
    for page in (asha, ben, third):
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("dialog", lambda d: d.accept())
    ids = []
    for page, name in ((asha, "Asha"), (ben, "Ben")):
        page.goto(server.url + "/")
        made_player = page.request.post(server.url + "/api/player", data={"name": name})
        assert made_player.ok
        ids.append(made_player.json()["id"])
        page.goto(server.url + "/account")          # the cookie player becomes an account
        page.wait_for_selector("#ac-devices li")
    with sqlite3.connect(server.db_path) as db:     # regulars: 10 rated matches each, so their match rates both
        db.executemany("INSERT INTO ratings (player_id, family, mu, sigma, matches, last_match) "
                       "VALUES (?, '56', 25.0, 3.0, 10, '')", [(i,) for i in ids])

    # Asha makes a club on the club page and an invite link; Ben joins by it on his phone
    asha.goto(server.url + "/club")
    asha.fill("#cl-new", "Thursday club")
    asha.get_by_role("button", name="Make a club").click()
    asha.wait_for_url("**/club#c=*")
    club = asha.url.split("#c=", 1)[1]
    asha.wait_for_selector("text=New invite link")
    asha.get_by_role("button", name="New invite link").click()
    invite = asha.locator("input[readonly]").last.input_value()
    assert "/club#i=" in invite
    ben.goto(invite)
    ben.wait_for_url("**/club#c=*")
    ben.wait_for_selector("text=Thursday club")
    assert no_sideways_scroll(ben)
    ben.screenshot(path=str(SCREENSHOTS / "club-joined-360.png"), full_page=True)
    members = asha.request.get(f"{server.url}/api/clubs/{club}").json()["members"]
    assert sorted(m["name"] for m in members) == ["Asha", "Ben"]

    # a club table of 56-4 with computer players; someone outside the club watches (the owner allows it)
    assert asha.request.post(f"{server.url}/api/clubs/{club}/settings", data={"watchers": True}).ok
    made = asha.request.post(f"{server.url}/api/clubs/{club}/tables",
                             data={"preset": "56-4", "fill": "random", "grace": 0}).json()
    asha.goto(server.url + made["url"])
    asha.wait_for_selector("#start-btn")
    ben.goto(server.url + made["url"])
    ben.wait_for_selector("#join-name")
    ben.fill("#join-name", "Ben")
    ben.click("#join-btn")
    seated(asha, 1, "Ben")     # the host sees the guest in the seat before starting
    third.goto(server.url + made["url"])        # watching: the deals follow one another with both people away
    asha.click("#start-btn")
    time.sleep(0.5)
    for page in (asha, ben):        # both leave: their computer players finish the match (grace 0)
        page.goto(server.url + "/history")
    deadline = time.monotonic() + 180
    while not history(asha, server)["matches"]:
        assert time.monotonic() < deadline, "the match did not end in 3 minutes"
        time.sleep(0.5)

    # both see the match; ratings moved with the right signs; the leaderboard orders them
    mine, theirs = history(asha, server), history(ben, server)
    [a], [b] = mine["matches"], theirs["matches"]
    assert a["id"] == b["id"] and a["won"] != b["won"]
    for m in (a, b):
        before, after = m["rating"]["before"][0], m["rating"]["after"][0]
        assert (after > before) == m["won"], m
    board = asha.request.get(f"{server.url}/api/clubs/{club}/leaderboard?family=56").json()
    rows = board["members"]
    names = [r["name"] for r in rows]
    winner, loser = ("Asha", "Ben") if a["won"] else ("Ben", "Asha")
    assert names.index(winner) < names.index(loser), rows
    asha.goto(f"{server.url}/club#c={club}")
    asha.wait_for_selector("text=Thursday club")
    board_56 = asha.wait_for_selector("ol.leaderboard[data-family='56']")
    shown = [li.inner_text() for li in board_56.query_selector_all("li")]
    assert [s.split()[0] for s in shown] == [winner, loser], shown
    assert all("provisional" not in s and "matches: 11" in s for s in shown), shown
    asha.screenshot(path=str(SCREENSHOTS / "club-leaderboard-1366.png"), full_page=True)

    # a third context signs in as Asha with a one-time link and sees the same history; then signs out
    link = asha.request.post(f"{server.url}/api/account/link", data={}).json()["url"]
    third.goto(link)
    third.wait_for_selector("#ac-devices li")     # the link used: this context is Asha's now
    third.goto(server.url + "/history")
    third.wait_for_selector("#hs-matches li.match")
    assert [m["id"] for m in history(third, server)["matches"]] == [a["id"]]
    assert third.request.post(f"{server.url}/api/account/signout", data={}).ok
    assert history(third, server).get("matches") in (None, [])
    assert [m["id"] for m in history(asha, server)["matches"]] == [a["id"]]     # Asha's own device stays in

    # Ben deletes his account: Asha's history keeps the match with "a former player" in his seat
    assert ben.request.post(f"{server.url}/api/account/delete", data={"confirm": True}).ok
    [after] = history(asha, server)["matches"]
    assert after["id"] == a["id"] and "Ben" not in str(after)
    asha.goto(server.url + "/history")
    asha.wait_for_selector("#hs-matches li.match")
    assert "a former player" in asha.inner_text("#hs-matches")
    assert not errors, errors
    for ctx in contexts:
        ctx.close()

"""The whole journey of issues 43 and 57 in real Chromium, in English and in Malayalam (a 1366 desktop and a 390 phone):
two people (two browser contexts) make accounts, the first adds a passkey and signs in with it (on localhost, a
secure context); one makes a club on the club page, whose invite link shows at once; the other opens it on a phone,
is greeted by the club's name with their name already filled in (no second name prompt) and joins; the owner makes a
short club table on the page (game, preset, computer level chosen there); they play a match with computer players;
then both see it in their history, the same rating figure (never negative) on the history, the match line, the
club's leaderboard and a club-mate's stats page, both ratings moved with the right signs, the club's leaderboard
orders them (both are regulars with established ratings: two new accounts on opposing sides rate nothing,
docs/server.md "Who is rated, and farming"); a third context signs in as the first player with a one-time link and
sees the same history; it signs out; the second person deletes their account and the first one's history shows "a
former player" in their seat."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fiftysix.i18n import translate
from helpers.live import LiveServer, browser_api
from helpers.page import seated

pytestmark = pytest.mark.browser

browser_api()      # skipped without the system Chromium, failed in CI

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
SCREENSHOTS = Path("test-artifacts")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "journey.db", bot_delay=0, next_delay=0) as live:
        yield live


def history(page: Any, base: str) -> dict[str, Any]:
    data: dict[str, Any] = page.request.get(f"{base}/api/players/me/history").json()
    return data


def no_sideways_scroll(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


def figure(text: str) -> int:
    """A rating figure as a person reads it ("1540", "1500?")."""
    return int(text.strip().rstrip("?"))


@pytest.mark.parametrize("locale", ["en-GB", "ml-IN"])
def test_club_match_history_leaderboard_and_an_identity_that_travels(server: LiveServer, browser: Any,
                                                                    locale: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    lang = locale[:2]
    base = server.url.replace("127.0.0.1", "localhost")     # a secure context with a name: passkeys are offered
    contexts = [browser.new_context(viewport=DESKTOP, locale=locale),
                browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale=locale),
                browser.new_context(viewport=DESKTOP, locale=locale)]
    asha, ben, third = (c.new_page() for c in contexts)
    errors: list[str] = []
    for page in (asha, ben, third):
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("dialog", lambda d: d.accept())
    ids = []
    for page, name in ((asha, "Asha"), (ben, "Ben")):
        page.goto(base + "/")
        made_player = page.request.post(base + "/api/player", data={"name": name})
        assert made_player.ok
        ids.append(made_player.json()["id"])
        page.goto(base + "/account")          # the cookie player becomes an account
        page.wait_for_selector("#ac-devices li")
    # Asha adds a passkey (Chromium's virtual authenticator stands in for the screen lock) and signs in with it
    cdp = contexts[0].new_cdp_session(asha)
    cdp.send("WebAuthn.enable")
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})
    asha.wait_for_selector("#ac-passkeys:not(.hidden)")
    asha.click("#ac-passkey-add")
    asha.locator("#ac-passkey-state", has_text="1").wait_for()
    asha.click("#ac-signout")
    asha.wait_for_selector("#ac-passkey-in:not(.hidden)")
    asha.click("#ac-passkey-signin")
    asha.wait_for_selector("#ac-in:not(.hidden)")
    assert asha.request.get(base + "/api/account").json()["id"] == ids[0]
    with sqlite3.connect(server.db_path) as db:     # regulars: 10 rated matches each, so their match rates both
        db.executemany("INSERT INTO ratings (player_id, family, mu, sigma, matches, last_match) "
                       "VALUES (?, '56', 25.0, 3.0, 10, '')", [(i,) for i in ids])

    # Asha makes a club on the club page: its invite link shows at once, with a copy button and a QR code
    asha.goto(base + "/club")
    asha.fill("#cl-new", "Thursday club")
    asha.click("#cl-mine button.primary")
    asha.wait_for_url("**/club#c=*")
    club = asha.url.split("#c=", 1)[1]
    invite = asha.wait_for_selector("#cl-invite-box #cl-invite").input_value()
    assert "/club#i=" in invite
    asha.wait_for_selector("#cl-invite-qr")
    assert asha.locator("#cl-invite-copy").is_visible()
    # Ben opens it on his phone: the club is named, his name is filled in, nothing is red; one tap joins
    ben.goto(invite)
    greeting = ben.wait_for_selector(".invite-greeting").inner_text()
    assert "Thursday club" in greeting and ben.inner_text("#cl-title") == "Thursday club"
    assert ben.locator("#cl-join-name").input_value() == "Ben"
    assert not ben.locator("#cl-error").is_visible() and not ben.locator("#cl-name-box").is_visible()
    ben.screenshot(path=str(SCREENSHOTS / f"club-invite-390-{lang}.png"), full_page=True)
    ben.click("#cl-join-btn")
    ben.wait_for_url("**/club#c=*")
    ben.wait_for_selector("#cl-club h2")
    assert no_sideways_scroll(ben)
    ben.screenshot(path=str(SCREENSHOTS / f"club-joined-390-{lang}.png"), full_page=True)
    members = asha.request.get(f"{base}/api/clubs/{club}").json()["members"]
    assert sorted(m["name"] for m in members) == ["Asha", "Ben"]

    # a club table of 56-4 with computer players, chosen on the club page; someone outside the club watches
    assert asha.request.post(f"{base}/api/clubs/{club}/settings", data={"watchers": True}).ok
    asha.goto(f"{base}/club#c={club}")
    asha.click("#cl-table-form summary")
    asha.wait_for_selector("#preset option[value='56-4']", state="attached")
    asha.select_option("#preset", "56-4")
    asha.select_option("#fill", "random")
    asha.fill("#cl-grace", "0")
    asha.screenshot(path=str(SCREENSHOTS / f"club-owner-1366-{lang}.png"), full_page=True)
    asha.click("#cl-table-btn")
    asha.wait_for_url("**/t/*")
    table_url = asha.url
    asha.wait_for_selector("#start-btn")
    code = table_url.split("/t/", 1)[1].split("#")[0]
    assert asha.request.get(f"{base}/api/clubs/{club}").json()["tables"][0]["code"] == code
    ben.goto(table_url)
    ben.wait_for_selector("#join-name")
    assert ben.locator("#join-name").input_value() == "Ben"       # one name on every page: nothing to type
    ben.click("#join-btn")
    seated(asha, 1, "Ben")     # the host sees the guest in the seat before starting
    third.goto(table_url)        # watching: the deals follow one another with both people away
    asha.click("#start-btn")
    time.sleep(0.5)
    for page in (asha, ben):        # both leave: their computer players finish the match (grace 0)
        page.goto(base + "/history")
    deadline = time.monotonic() + 180
    while not history(asha, base)["matches"]:
        assert time.monotonic() < deadline, "the match did not end in 3 minutes"
        time.sleep(0.5)

    # both see the match; ratings moved with the right signs; the leaderboard orders them
    mine, theirs = history(asha, base), history(ben, base)
    [a], [b] = mine["matches"], theirs["matches"]
    assert a["id"] == b["id"] and a["won"] != b["won"]
    for m in (a, b):
        before, after = m["rating"]["before"][0], m["rating"]["after"][0]
        assert (after > before) == m["won"], m
    board = asha.request.get(f"{base}/api/clubs/{club}/leaderboard?family=56").json()
    rows = board["members"]
    names = [r["name"] for r in rows]
    winner, loser = ("Asha", "Ben") if a["won"] else ("Ben", "Asha")
    assert names.index(winner) < names.index(loser), rows
    asha.goto(f"{base}/club#c={club}")
    board_56 = asha.wait_for_selector("ol.leaderboard[data-family='56']")
    shown = [li.inner_text() for li in board_56.query_selector_all("li")]
    assert [s.split()[0] for s in shown] == [winner, loser], shown
    assert [t["code"] for t in asha.request.get(f"{base}/api/clubs/{club}").json()["tables"]] == []
    line = asha.wait_for_selector("li.club-match").inner_text()      # who played, who won, a link to the match
    assert "Asha" in line and "Ben" in line and asha.locator("li.club-match a").count() == 1
    asha.screenshot(path=str(SCREENSHOTS / f"club-leaderboard-1366-{lang}.png"), full_page=True)

    # one figure per person on every page: the leaderboard, their history's headline and match line, the API,
    # and a club-mate's stats page reached from the club's member list; never negative
    on_board = {li.query_selector("b").inner_text(): figure(li.query_selector(".rating-figure").inner_text())
                for li in board_56.query_selector_all("li")}
    for page, name, m in ((asha, "Asha", a), (ben, "Ben", b)):
        page.goto(base + "/history")
        headline = figure(page.wait_for_selector(".rating[data-family='56'] .rating-figure").inner_text())
        match_line = page.wait_for_selector("#hs-matches .match-line").inner_text()
        assert f"→ {headline}" in match_line, match_line
        assert headline == on_board[name] == history(page, base)["ratings"]["56"]["display"] == \
            m["rating"]["display_after"] >= 0
    asha.goto(f"{base}/club#c={club}")
    asha.locator("#cl-club li a", has_text="Ben").click()
    asha.wait_for_url("**/history?p=*")
    mate = figure(asha.wait_for_selector(".rating[data-family='56'] .rating-figure").inner_text())
    assert mate == on_board["Ben"] >= 0

    # a third context signs in as Asha with a one-time link and sees the same history; then signs out
    link = asha.request.post(f"{base}/api/account/link", data={}).json()["url"]
    third.goto(link)
    third.wait_for_selector("#ac-devices li")     # the link used: this context is Asha's now
    third.goto(base + "/history")
    third.wait_for_selector("#hs-matches li.match")
    assert [m["id"] for m in history(third, base)["matches"]] == [a["id"]]
    assert third.request.post(f"{base}/api/account/signout", data={}).ok
    assert history(third, base).get("matches") in (None, [])
    assert [m["id"] for m in history(asha, base)["matches"]] == [a["id"]]     # Asha's own device stays in

    # Ben deletes his account: Asha's history keeps the match with "a former player" in his seat
    assert ben.request.post(f"{base}/api/account/delete", data={"confirm": True}).ok
    [after] = history(asha, base)["matches"]
    assert after["id"] == a["id"] and "Ben" not in str(after)
    asha.goto(base + "/history")
    asha.wait_for_selector("#hs-matches li.match")
    assert translate("a former player", lang) in asha.inner_text("#hs-matches")
    assert not errors, errors
    for ctx in contexts:
        ctx.close()

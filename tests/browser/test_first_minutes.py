"""A new player's first ten minutes (issue 27), at 360, 390 and 1366 px, in English and in Malayalam (ml-IN).

Each test plays what a newcomer meets, in the page's language (the expected words come from the same gettext
catalogue the page reads, so a missing translation or a raw key fails):

- the start page: 56-6 first, every option's name and the computer players' levels in words; every Malayalam
  letter is drawn by a font that has Malayalam (the system's Manjari where it is installed, else the shipped
  one: no boxes, no fallback to a font without it), an English page never fetches the whole font;
- a phone without Malayalam fonts (a browser whose fontconfig sees only DejaVu): the page fetches the shipped
  Manjari and draws its Malayalam in it (and the check above sees boxes when the font cannot be fetched);
- a deal at a 56-4 table: a heading, the computers named, the call the hand supports above the folded list of
  bids, the tab's title on your turn, one tap to play a card, the next trick shown at once with the finished one
  aside, axe over the table mid-trick, the forced last card played for you, "your team" and a score sheet at the
  deal's end, the table's rules one tap away, a layout that fits the width and uses a desktop's;
- the turn clock: said in words when it runs low, and what the computer did when it ran out (it passes);
- a host and a guest: host controls that stay open, a paused table that says so (no "your turn"), a refusal
  written as a sentence in the player's language, the guest told when the host gives their seat to a computer;
- a table opened offline says so; /review, the offline and the not-found pages pass axe.

Screenshots go to test-artifacts/first-minutes/ (with ``SCREENSHOTS=docs``, those of :data:`DOCS_SHOTS` at 390
and 1366 px to docs/screenshots/, ``first-NAME-WIDTH-LANG.png``).
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fiftysix.bots.levels import FIGURES, levels_for
from fiftysix.core.meaning import Meaning
from fiftysix.i18n import translate
from fiftysix.server.edge.limits import Limits
from fiftysix.server.table.words import OPTIONS
from helpers.live import CHROMIUM, CHROMIUM_ARGS, LiveServer, browser_api
from helpers.page import (
    DESKTOP,
    PHONE,
    SMALL_PHONE,
    TABLE_URL,
    act,
    axe_violations,
    call,
    my_turn,
    tap,
    tap_card,
    until,
)

pytestmark = pytest.mark.browser

sync_api = browser_api()

ROOT = Path(__file__).resolve().parents[2]
MALAYALAM = re.compile(r"[\u0d00-\u0d7f]")
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
SIZES = {"360": SMALL_PHONE, "390": PHONE, "1366": DESKTOP}
COMBOS = [(width, lang) for width in SIZES for lang in ("en", "ml")]
IDS = [f"{width}-{lang}" for width, lang in COMBOS]
DOCS_SHOTS = {"home", "auction", "next-trick", "deal-end", "paused", "clock-low"}   # committed at 390 and 1366 px


def words(lang: str, msgid: str, **params: object) -> str:
    """What the page shows for ``msgid`` in ``lang`` (the page's t() fills numbers as plain digits)."""
    text = translate(msgid, lang)
    return text.format(**{k: str(v) for k, v in params.items()}) if params else text


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # every test here comes from one address, and "Add computer" seats the club player, a searching bot: more
    # than the 4 open tables with searching computers an address may have (limits.py) in one module
    limits = Limits(search_tables_address=100, search_tables=100)
    with LiveServer(tmp_path_factory.mktemp("db") / "first.db", bot_delay=0.05, limits=limits) as live:
        yield live


def context_for(browser: Any, width: str, lang: str, **extra: Any) -> Any:
    viewport = SIZES[width]
    touch = viewport["width"] < 700
    return browser.new_context(viewport=viewport, is_mobile=touch, has_touch=touch, bypass_csp=True,
                               locale="ml-IN" if lang == "ml" else "en-GB", **extra)


def watch(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def shot(page: Any, name: str, width: str, lang: str) -> None:
    folder = ROOT / "test-artifacts" / "first-minutes"
    if os.environ.get("SCREENSHOTS") == "docs" and width != "360" and name in DOCS_SHOTS:
        folder = ROOT / "docs" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"first-{name}-{width}-{lang}.png"))


def axe(page: Any) -> list[tuple[str, list[Any]]]:
    """axe-core's serious and critical violations on the page as it is now (at rest: see axe_violations)."""
    return [(v["id"], [n["target"] for n in v["nodes"]][:4]) for v in axe_violations(page)]


def fits(page: Any) -> None:
    """Nothing is wider than the window (no sideways scrolling)."""
    over = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert over <= 1, f"the page is {over} px wider than the window"


def platform_fonts(page: Any, selector: str) -> list[dict[str, Any]]:
    """The fonts the browser really drew an element's text with (DevTools protocol)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    return list(cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"])


def need(tool: str, why: str) -> None:
    """Skip (fail in CI) a test that needs something this machine lacks."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{why} (CI=true: the browser tests must run)", pytrace=False)
    pytest.skip(why)


def malayalam_fonts(env: dict[str, str] | None = None) -> set[str]:
    """The PostScript names of the system fonts that have Malayalam, as fontconfig (where Chromium on Linux finds
    its fonts) lists them for a browser started with ``env``."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        need("fc-list", "fc-list is missing (apt-get install fontconfig): it tells which fonts have Malayalam")
    out = subprocess.run([str(fc_list), "--format", "%{postscriptname}\n", ":lang=ml"], env=env, check=True,
                         capture_output=True, text=True, timeout=60).stdout
    return {name for name in out.splitlines() if name}


def malayalam_drawing(page: Any, system: set[str]) -> tuple[int, list[tuple[str, list[dict[str, Any]]]]]:
    """Every element whose own text has Malayalam and is drawn, through the DevTools protocol: how many there are,
    and those where a font without Malayalam drew more glyphs than the text has characters outside Malayalam (a
    Malayalam letter fell back to it: a box).

    A font has Malayalam when it is one of ``system`` (:func:`malayalam_fonts`) or the shipped Manjari (a web
    font: the browser draws with it only the letters it has)."""
    def has_malayalam(font: dict[str, Any]) -> bool:
        return (font["postScriptName"] in system if not font["isCustomFont"] else "Manjari" in font["familyName"])

    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    stack = [cdp.send("DOM.getDocument", {"depth": -1})["root"]]
    drawn, wrong = 0, []
    while stack:
        node = stack.pop()
        children = node.get("children", [])
        stack.extend(child for child in children if child["nodeType"] == 1)
        text = "".join(child["nodeValue"] for child in children if child["nodeType"] == 3)
        if node["nodeType"] != 1 or not MALAYALAM.search(text):
            continue
        try:
            fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})["fonts"]
        except sync_api.Error:      # redrawn meanwhile
            continue
        if not fonts:               # not drawn (hidden, the page's title)
            continue
        drawn += 1
        others = MALAYALAM.sub("", re.sub(r"\s+", " ", text))     # spaces, digits: any font may draw them
        markers = [p for p in node.get("pseudoElements", []) if p.get("pseudoType") == "marker"]    # "▶ ", "• "
        if sum(f["glyphCount"] for f in fonts if not has_malayalam(f)) > len(others) + 2 * len(markers):
            wrong.append((text.strip(), fonts))
    cdp.detach()
    return drawn, wrong


def hand_size(page: Any) -> int:
    return int(page.evaluate("() => document.querySelectorAll('#hand .card').length"))


# --- the start page and a whole deal -------------------------------------------------------------------------

@pytest.mark.parametrize(("width", "lang"), COMBOS, ids=IDS)
def test_a_newcomers_first_deal(server: LiveServer, browser: Any, width: str, lang: str) -> None:
    context = context_for(browser, width, lang)
    page = context.new_page()
    errors = watch(page)
    fonts: list[str] = []
    page.on("request", lambda r: fonts.append(r.url) if "/static/fonts/" in r.url else None)

    # the start page: 56-6 first; each option named in words, the levels of the computer players too
    page.goto(server.url + "/")
    page.wait_for_function("() => document.querySelectorAll('#options [data-option-row]').length > 0")
    assert page.locator("#preset").input_value() == "56-6"
    rows = page.evaluate("() => [...document.querySelectorAll('#options [data-option-row]')].map(r => "
                         "[r.dataset.optionRow, r.querySelector('label').textContent])")
    assert len(rows) >= 10
    for key, label in rows:
        assert label == words(lang, OPTIONS[key][0]), (key, label)
    fill = page.evaluate("() => [...document.querySelectorAll('#fill option')].map(o => o.textContent)")
    for level in ("beginner", "club player", "expert"):
        assert any(words(lang, level) in text for text in fill), (level, fill)
    # each level's measured figure under the picker (the panel's share of deal pairs won against the beginner)
    chosen = page.locator("#fill").input_value()
    for level, bot in levels_for("56").items():
        page.select_option("#fill", bot)
        helptext = page.locator("#fill-help").text_content() or ""
        figure = FIGURES["56"].get(level)
        if figure is None:
            assert helptext == words(lang, "The other levels are measured against this one."), helptext
        else:
            js_round = [math.floor(v + 0.5) for v in (figure.value, figure.low, figure.high)]   # Math.round
            assert f"{js_round[0]}%" in helptext and f"{js_round[1]}-{js_round[2]}%" in helptext, helptext
            assert words(lang, "beginner") in helptext, helptext
    page.select_option("#fill", chosen)
    # every Malayalam letter drawn by a font that has Malayalam: the system's, else the shipped one (whether the
    # shipped one is fetched and used where the system has none: test_a_phone_without_malayalam_fonts_...)
    page.evaluate("() => document.fonts.ready")
    drawn, wrong = malayalam_drawing(page, malayalam_fonts())
    assert not wrong, f"Malayalam drawn by a font without it: {wrong}"
    # (an English page draws Malayalam only in the closed language picker's option, which has no box to measure)
    assert drawn >= 10 or lang == "en", drawn
    if lang == "ml":
        assert all(MALAYALAM.search(label) for _, label in rows)
    else:     # an English page draws the selector's "മലയാളം" from a 1.3 KB cut of the font, never the whole font
        assert not [url for url in fonts if "manjari-malayalam-" in url], fonts
    fits(page)
    shot(page, "home", width, lang)

    # a 56-4 table with computer players: a heading, the computers named in the page's language
    page.fill("#player-name", "Asha")
    page.select_option("#preset", "56-4")
    page.click("#create-btn")
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#start-btn")
    assert page.locator("h1#title").inner_text().strip()
    page.click("#start-btn")
    page.wait_for_selector("#hand .card")
    seats = page.evaluate("() => [...document.querySelectorAll('#seats .seat .name')].map(n => n.textContent)")
    # named by their level (the start page's default fill is the beginner, `rules`)
    assert any(words(lang, "Beginner {n}", n=1) in s for s in seats), seats

    # this page's first call: the call its hand supports comes first, the full list folds away; the tab says so
    until(page, lambda p: bool(p.locator("#action-panel.you-move #specials").count()) or
          bool(p.locator("#hand button.card.legal").count()), limit=60)
    if page.locator("#specials").count():
        suggested = page.locator("#action-panel [data-suggested]")
        assert suggested.count() >= 1
        # each call is offered once: a suggested Pass is marked among the calls, not repeated below them
        moves = page.evaluate("() => [...document.querySelectorAll('#specials [data-move], #suggest [data-move]')]"
                              ".map(b => b.dataset.move)")
        assert len(moves) == len(set(moves)), moves
        assert not page.locator("#all-bids").evaluate("d => d.open")
        assert page.title().startswith("● " + words(lang, "Your turn"))
        summary = page.locator("#auction-panel summary").inner_text()
        assert (MALAYALAM.search(summary) if lang == "ml" else "call" in summary), summary
        shot(page, "auction", width, lang)
        tap(suggested.first)
        page.wait_for_selector("#confirm-btn")
        tap(page.locator("#confirm-btn"))
    until(page, lambda p: bool(p.locator("#hand button.card.legal").count()), limit=90)
    fits(page)
    if width == "1366":      # a desktop window is used: a wide column, large cards
        box = page.evaluate("() => [document.querySelector('main').getBoundingClientRect().width, "
                            "document.querySelector('#hand .card').getBoundingClientRect().width]")
        assert box[0] >= 1200 and box[1] >= 60, box

    # one tap plays a card: no confirm step
    left = hand_size(page)
    tap(page.locator("#hand button.card.legal").first)
    assert not page.locator("#confirm-btn").count()
    page.wait_for_function(f"() => document.querySelectorAll('#hand .card').length === {left - 1}")

    # the next trick is shown at once, the finished one shrunk aside, its lead said in words
    led = " led " if lang == "en" else "ആദ്യം"      # "Asha led 9♥" / "you led 9♥"

    def new_trick_shown(p: Any) -> bool:
        return bool(p.evaluate("(led) => !!document.querySelector('#prev-trick') && "
                               "!document.querySelector('#trick.finished') && "
                               "document.querySelectorAll('#trick > .tcard').length >= 1 && "
                               "document.getElementById('trick-info').innerText.includes(led)", led))

    def play_but_the_last(p: Any) -> None:
        if my_turn(p) and hand_size(p) > 1 and p.locator("#hand button.card.legal").count():
            tap_card(p, p.locator("#hand button.card.legal").first)

    until(page, new_trick_shown, limit=120, each=play_but_the_last)
    assert axe(page) == []               # the table mid-trick
    shot(page, "next-trick", width, lang)

    # the last card is forced: played for you, and said so; then the deal's end
    def deal_over(p: Any) -> bool:
        return bool(p.locator("#summary-panel:not(.hidden)").count())

    until(page, deal_over, limit=180, each=play_but_the_last)
    played_for_you = words(lang, "Your last card, {card}, was played for you.", card="@").split("@")[0]
    page.wait_for_function("(t) => document.getElementById('notes').innerText.includes(t)", arg=played_for_you)
    summary = page.locator("#summary-panel").inner_text()
    assert f"({words(lang, 'your team')})" in summary, summary
    sheet = page.locator("#history").inner_text()
    assert words(lang, "Score now") in sheet and words(lang, "your team") in sheet, sheet
    link = page.locator("#history a[download]").first.text_content()
    assert re.fullmatch(r"\d+\.\d+ \S.*", link), link          # the deal's number, its record named for a reader
    fits(page)
    shot(page, "deal-end", width, lang)

    # the table's rules, one tap away, in words
    tap(page.locator("#rules"))
    page.wait_for_selector("#rules-list dt")
    terms = page.evaluate("() => [...document.querySelectorAll('#rules-list dt')].map(d => d.textContent)")
    assert terms[0] == words(lang, OPTIONS["players"][0]) and len(terms) >= 8, terms
    assert not errors, errors
    context.close()


@pytest.fixture
def dejavu_only(tmp_path: Path) -> dict[str, str]:
    """The environment of a browser that sees no Malayalam font: a fontconfig with only DejaVu (its cache in a
    temporary folder), as on a phone without Malayalam fonts."""
    if not DEJAVU.is_dir():
        need("DejaVu", f"{DEJAVU} is missing (apt-get install fonts-dejavu-core)")
    conf = tmp_path / "fonts.conf"
    conf.write_text(f"""<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir>{DEJAVU}</dir>
  <cachedir>{tmp_path / "fontconfig-cache"}</cachedir>
  <alias><family>sans-serif</family><prefer><family>DejaVu Sans</family></prefer></alias>
  <alias><family>system-ui</family><prefer><family>DejaVu Sans</family></prefer></alias>
  <alias><family>monospace</family><prefer><family>DejaVu Sans Mono</family></prefer></alias>
</fontconfig>
""", encoding="utf-8")
    return dict(os.environ, FONTCONFIG_FILE=str(conf))


def test_a_phone_without_malayalam_fonts_fetches_and_uses_the_shipped_font(
        server: LiveServer, browser: Any, dejavu_only: dict[str, str]) -> None:
    assert not malayalam_fonts(dejavu_only), "the DejaVu-only fontconfig lists a Malayalam font"
    bare = browser.browser_type.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, env=dejavu_only)
    try:
        context = context_for(bare, "390", "ml")
        page = context.new_page()
        errors = watch(page)
        fetched: list[tuple[str, int]] = []
        page.on("response", lambda r: fetched.append((r.url, r.status)) if "/static/fonts/" in r.url else None)
        page.goto(server.url + "/")
        page.wait_for_function("() => document.querySelectorAll('#options [data-option-row]').length > 0")
        page.evaluate("() => document.fonts.ready")
        assert [url for url, status in fetched if "manjari-malayalam-" in url and status == 200], fetched
        title = platform_fonts(page, "#create-title")
        assert any(f["isCustomFont"] and "Manjari" in f["familyName"] and f["glyphCount"] for f in title), title
        drawn, wrong = malayalam_drawing(page, set())
        assert drawn >= 10 and not wrong, (drawn, wrong)
        assert not errors, errors
        context.close()

        # the check sees boxes: with the font's requests refused, the same page has no font for its Malayalam
        context = context_for(bare, "390", "ml", service_workers="block")
        context.route("**/static/fonts/**", lambda route: route.abort())
        page = context.new_page()
        page.goto(server.url + "/")
        page.wait_for_function("() => document.querySelectorAll('#options [data-option-row]').length > 0")
        page.evaluate("() => document.fonts.ready")
        drawn, wrong = malayalam_drawing(page, set())
        assert drawn >= 10 and len(wrong) == drawn, (drawn, wrong[:2])
        context.close()
    finally:
        bare.close()


# --- the turn clock -------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("width", "lang"), COMBOS, ids=IDS)
def test_the_clock_says_when_it_is_low_and_what_the_computer_did(
        server: LiveServer, browser: Any, width: str, lang: str) -> None:
    context = context_for(browser, width, lang)
    page = context.new_page()
    errors = watch(page)
    page.goto(server.url + "/")
    url = page.evaluate("""async () => {
        const res = await fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'},
          body: JSON.stringify({player_name: 'Asha', preset: '56-4', fill: 'random', clock: {move: 2, bank: 12}})});
        return (await res.json()).url; }""")
    page.goto(server.url + url)
    page.wait_for_selector("#start-btn")
    page.click("#start-btn")
    try:
        page.wait_for_selector("#action-panel.you-move #specials", timeout=30000)
    except Exception:
        shot(page, "clock-fail", width, lang)
        print(page.locator("main").inner_text())
        raise
    # the move seconds run out: the bank is running, in words; near the end, the computer is about to move
    bank = words(lang, "Your move time is up: your time bank is running ({n} s left for the match).", n="@")
    page.wait_for_function("(t) => document.getElementById('notes').innerText.includes(t)",
                           arg=bank.split("@")[0], timeout=10000)
    shot(page, "clock-low", width, lang)
    soon = words(lang, "{n} s left: then the computer moves for you.", n="@").split("@")[1]
    page.wait_for_function("(t) => document.getElementById('notes').innerText.includes(t)", arg=soon, timeout=15000)
    # out of time in the auction: the computer passes for you (it never bids you into a contract), and says so
    passed = words(lang, "Your time ran out: the computer passed for you.")
    page.wait_for_function("(t) => document.getElementById('notes').innerText.includes(t)", arg=passed, timeout=15000)
    fits(page)
    tap(page.locator("#notes .note-acted .note-close"))
    assert passed not in page.locator("#notes").inner_text()
    assert not errors, errors
    context.close()


# --- a host and a guest ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("width", "lang"), COMBOS, ids=IDS)
def test_a_host_pauses_and_gives_a_seat_away_and_the_guest_is_told(
        server: LiveServer, browser: Any, width: str, lang: str) -> None:
    host_ctx, guest_ctx = context_for(browser, "1366", lang), context_for(browser, width, lang)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    errors = watch(host) + watch(guest)
    host.goto(server.url + "/")
    host.fill("#player-name", "Asha")
    host.select_option("#preset", "56-4")
    host.select_option("#fill", "")                      # seats left empty: the guest takes one
    host.locator("#public").check()
    host.click("#create-btn")
    host.wait_for_url(TABLE_URL)
    host.wait_for_selector("#start-btn")
    guest.goto(host.url.split("#")[0])
    guest.fill("#join-name", "Ravi")
    tap(guest.locator("#join-btn"))
    guest.wait_for_function("() => [...document.querySelectorAll('.lobby-seat')]"
                            ".some(r => r.innerText.includes('Ravi'))")
    # computer players in the two seats left, each once the host's page shows the seat before filled: a click on
    # a page that has not drawn the last change yet goes to a seat taken meanwhile (Ravi's, refused, or the first
    # computer's, replaced) and the start is refused with a seat still empty (a flaky failure in CI)
    add = words(lang, "Add computer")
    seated_and_free = ("([name, add, free]) => { const rows = [...document.querySelectorAll('.lobby-seat')];"
                       " return rows.some(r => r.innerText.includes(name)) && rows.filter(r => [...r.querySelectorAll("
                       "'button')].some(b => b.textContent === add)).length === free; }")
    for free in (2, 1):
        host.wait_for_function(seated_and_free, arg=["Ravi", add, free])
        host.locator("#lobby-panel button", has_text=add).first.dispatch_event("click")
    host.wait_for_function(seated_and_free, arg=["Ravi", add, 0])      # every seat filled: the start deals
    host.click("#start-btn")
    started(host, guest)

    # the host opens the controls: a move later they are still open
    host.wait_for_selector("#host-controls summary")
    host.locator("#host-controls summary").click()
    until(host, lambda p: bool(p.locator("#action-panel.you-move").count()), limit=60, each=lambda _: act(guest))
    call(host)
    # the table took the call and the page drew its answer ("Sent; waiting for the table…" gone)
    host.wait_for_function("() => !document.querySelector('#confirm-btn, #sending')")
    assert host.locator("#host-controls").evaluate("d => d.open")

    # paused: nobody is told "your turn"; a greyed card says why; the host resumes from the same panel
    host.locator("#pause-btn").dispatch_event("click")
    paused = words(lang, "The host has paused the table: play goes on when they resume it.")
    guest.wait_for_function("(t) => document.getElementById('action-panel').innerText.includes(t)", arg=paused)
    assert words(lang, "Your call") not in guest.locator("#action-panel").inner_text()
    assert not guest.locator("#action-panel.you-move").count()
    assert not guest.title().startswith("●")
    tap(guest.locator("#hand button.card").first)
    assert guest.locator("#card-why").inner_text() == paused
    shot(guest, "paused", width, lang)

    # a refusal is a sentence in the player's language: too many reactions at once
    for _ in range(12):
        buttons = guest.locator(".reaction-bar button.react")
        if buttons.count():
            buttons.first.dispatch_event("click")
    guest.wait_for_selector("#error:not(.hidden)")
    refusal = guest.locator("#error").inner_text()
    assert refusal[0] == refusal[0].upper() and refusal.endswith("."), refusal
    assert (MALAYALAM.search(refusal) if lang == "ml" else refusal.startswith("Too many reactions")), refusal
    host.locator("#pause-btn").dispatch_event("click")          # resume
    guest.wait_for_function("(t) => !document.getElementById('action-panel').innerText.includes(t)", arg=paused)

    # the host gives the guest's seat to a computer player: the guest is told, in words
    if not host.locator("#host-controls").evaluate("d => d.open"):
        host.locator("#host-controls summary").click()
    host.locator("[data-replace]").first.dispatch_event("click")
    told = words(lang, "The host gave your seat to a computer player: you are watching now. Ask the host to offer "
                       "it back to you.")
    guest.wait_for_function("(t) => document.getElementById('notes').innerText.includes(t)", arg=told)
    fits(guest)
    shot(guest, "replaced", width, lang)
    assert not errors, errors
    host_ctx.close()
    guest_ctx.close()


def started(host: Any, *others: Any) -> None:
    """Wait for the deal to be dealt to each of ``others`` after the host's start; on a timeout, say what the host
    was told (a refused start shows why on the host's page)."""
    for page in others:
        try:
            page.wait_for_selector("#hand .card")
        except sync_api.TimeoutError:
            told = host.locator("#error:not(.hidden)")
            raise AssertionError(f"no deal after the start; the host was told: "
                                 f"{told.inner_text() if told.count() else 'nothing'}") from None


# --- offline, /review, and every page through axe -------------------------------------------------------------

@pytest.mark.parametrize(("width", "lang"), COMBOS, ids=IDS)
def test_offline_review_and_every_page_have_words_and_pass_axe(
        server: LiveServer, browser: Any, width: str, lang: str) -> None:
    context = context_for(browser, width, lang)
    page = context.new_page()
    errors = watch(page)
    page.goto(server.url + "/")
    page.wait_for_function("() => document.querySelectorAll('#options [data-option-row]').length > 0")
    assert axe(page) == []
    page.fill("#player-name", "Asha")
    page.select_option("#preset", "56-4")
    page.click("#create-btn")
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#start-btn")
    assert axe(page) == []                                   # the lobby
    code = page.locator("#code").inner_text()
    page.click("#start-btn")
    until(page, lambda p: bool(p.locator("#summary-panel:not(.hidden)").count()), limit=180, play=True)
    assert axe(page) == []                                   # a deal's end, with the score sheet

    # /review of that deal: the file field has a label, the page a heading
    page.goto(f"{server.url}/review?table={code}&deal=1")
    page.wait_for_selector("#rv-deal:not(.hidden)", timeout=60000)
    assert page.locator("label[for='rv-file']").count() == 1
    assert page.locator("h1").inner_text().strip()
    assert axe(page) == []
    fits(page)
    shot(page, "review", width, lang)
    page.goto(server.url + "/t/NOSUCH")
    page.wait_for_load_state("networkidle")
    assert axe(page) == []

    # a table opened with no network: the page says so in words, and which table it is
    page.goto(f"{server.url}/t/{code}")
    page.wait_for_function("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    context.set_offline(True)
    page.reload()
    offline = words(lang, "No connection: the table appears here as soon as this device is back online.")
    page.wait_for_function("(t) => document.getElementById('conn-banner').innerText.includes(t)", arg=offline,
                           timeout=15000)
    assert code in page.locator("h1#title").inner_text()
    assert axe(page) == []
    shot(page, "offline", width, lang)
    context.set_offline(False)
    assert not errors, errors
    context.close()


def test_the_words_the_tests_look_for_are_translated() -> None:
    """The catalogue has every sentence above in Malayalam (else the ml runs would pass on English)."""
    for msgid in ("Your turn", "your team", "Score now", "Random computer", "Beginner {n}", "Club player {n}",
                  "beginner", "Rules",
                  "Your time ran out: the computer passed for you.",
                  "The host has paused the table: play goes on when they resume it."):
        assert MALAYALAM.search(translate(msgid, "ml")), msgid
    assert MALAYALAM.search(translate(Meaning("Club player {n}", {"n": 2}), "ml"))
    catalogue = json.loads((ROOT / "src/fiftysix/server/static/i18n/ml.json").read_text(encoding="utf-8"))
    assert isinstance(catalogue["{n} call"], dict)        # the auction's "(8 calls)" (a nested call was missed)

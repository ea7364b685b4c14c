"""Refusals reach each player in their own language (``Accept-Language`` or the ``lang`` cookie): the
create form's clock errors, a host control's, a malformed move's (the rules' notation error), and the
review page's record errors; English players get the same words as before."""

from __future__ import annotations

import time
from typing import Any

import pytest

from helpers.cli import match_record
from helpers.server import client, create, hello, keyed, my_turn, player, receive_until

ML = {"accept-language": "ml-IN,ml;q=0.9"}
EN = {"accept-language": "en-GB"}


@pytest.mark.parametrize(("clock", "english", "malayalam"), [
    ({"move": 0.5}, "clock move must be at least 1 second", "clock move കുറഞ്ഞത് 1 സെക്കൻഡ് ആകണം"),
    ({"move": 20, "bank": 5000}, "clock bank must be a number of seconds from 0 to 3600",
     "clock bank 0 മുതൽ 3,600 വരെ സെക്കൻഡ് ആകണം"),
    ({"moves": 20}, 'clock must be null (no clock) or {"move": seconds a move, "bank": seconds a match}',
     'clock null (ക്ലോക്ക് ഇല്ല) അല്ലെങ്കിൽ {"move": ഒരു നീക്കത്തിനുള്ള സെക്കൻഡ്, "bank": മാച്ചിനാകെയുള്ള '
     'സെക്കൻഡ്} ആകണം'),
])
def test_the_create_forms_clock_errors_in_each_language(db: str, clock: Any, english: str, malayalam: str) -> None:
    with client(db) as c:
        token = player(c, "Asha")
        form = {"token": token, "preset": "56-6", "clock": clock}
        assert c.post("/api/tables", json=form, headers=EN).json() == {"error": english}
        assert c.post("/api/tables", json=form, headers=ML).json() == {"error": malayalam}
        c.cookies.set("lang", "ml")          # the player's choice outweighs the browser's
        assert c.post("/api/tables", json=form, headers=EN).json() == {"error": malayalam}


def test_a_host_control_and_a_malformed_move_are_refused_in_malayalam(db: str) -> None:
    with client(db) as c:
        token = player(c, "Asha")
        code = create(c, token, preset="56-6", fill="random")
        with c.websocket_connect(keyed(f"/ws/{code}"), headers=ML) as ws:
            hello(ws, token)
            ws.send_json({"type": "host", "seat": 99})
            error = receive_until(ws, lambda m: m["type"] == "error")
            assert error["message"] == "സീറ്റ് 0-5 വരെയുള്ള ഒരു സംഖ്യ ആകണം"
            ws.send_json({"type": "start"})
            turn = receive_until(ws, my_turn)
            ws.send_json({"type": "move", "move": "zz9"})
            error = receive_until(ws, lambda m: m["type"] == "error")
            # her first turn is a call, unless the computer players' auction ended before it reached her
            expected = "തെറ്റായ വിളി 'zz9'; വിളികൾ: P, X, XX" if turn["view"]["phase"] == "auction" else \
                "തെറ്റായ ചീട്ട് 'zz9'"
            assert error["message"].startswith(expected), error


BAD_HANDS = {"game": "56", "rules": "56-6", "dealer": 0, "hands": [["ZZ"]] * 6, "auction": [], "play": []}


@pytest.mark.parametrize(("record", "english", "malayalam"), [
    (BAD_HANDS, "invalid record (hands[0]): malformed card 'ZZ' in the hand of seat 0",
     "രേഖ ശരിയല്ല (hands[0]): സീറ്റ് 0-ന്റെ കൈയിൽ തെറ്റായ ചീട്ട് 'ZZ'"),
    ({"game": "56", "rules": "56-6", "deals": []}, "this match record has no deals",
     "ഈ മാച്ചിന്റെ രേഖയിൽ കളികളില്ല"),
    ({**BAD_HANDS, "game": "57"}, 'invalid record (game): game must be "55" or "56", not "57"',
     'രേഖ ശരിയല്ല (game): game "55" അല്ലെങ്കിൽ "56" ആകണം, "57" പറ്റില്ല'),
])
def test_the_review_pages_record_errors_in_each_language(db: str, record: dict[str, Any], english: str,
                                                         malayalam: str) -> None:
    with client(db) as c:
        for headers, expected in ((EN, english), (ML, malayalam), (EN, english)):   # a cached refusal too
            r = c.post("/api/review", json={"record": record, "deal": 0}, headers=headers)
            assert (r.status_code, r.json()) == (422, {"error": expected})


def test_a_review_without_any_card_played_says_so_in_each_language(db: str) -> None:
    record = {**match_record("56-6", deals=1)["deals"][0], "play": []}
    with client(db) as c:
        for headers, expected in ((ML, "ഈ കളിയിൽ ഒരു ചീട്ടും ഇറക്കിയില്ല"), (EN, "no card was played in this deal")):
            deadline = time.monotonic() + 120          # the review runs in a worker process: ask again
            while True:
                r = c.post("/api/review", json={"record": record, "deal": 0}, headers=headers)
                if r.status_code != 202 or time.monotonic() > deadline:
                    break
                time.sleep(0.5)
            assert r.status_code == 200, r.text
            assert r.json()["analysis"] is None and r.json()["analysis_error"] == expected


@pytest.mark.parametrize(("name", "english", "malayalam"), [
    ("", "choose a name (1 to 24 characters)", "പേര് നൽകുക (1 മുതൽ 24 വരെ അക്ഷരങ്ങൾ)"),
    ("x" * 30, "the name has 30 characters; at most 24 are allowed", "പേര്-ൽ 30 അക്ഷരങ്ങളുണ്ട്"),
    ("A\u202eB", "the name has an invisible formatting character (U+202E RIGHT-TO-LEFT OVERRIDE) at character 2",
     "കാണാത്ത ഒരു ഫോർമാറ്റിങ് അക്ഷരം (U+202E RIGHT-TO-LEFT OVERRIDE)"),
    (7, "the name must be text", "പേര് എഴുത്തായിരിക്കണം"),
])
def test_a_refused_name_is_refused_in_each_language(tmp_path: Any, name: Any, english: str, malayalam: str) -> None:
    with client(tmp_path / "t.db") as c:
        en = c.post("/api/player", json={"name": name}, headers=EN)
        assert en.status_code == 400 and english in en.json()["error"], en.text
        ml = c.post("/api/player", json={"name": name}, headers=ML)
        assert ml.status_code == 400 and malayalam in ml.json()["error"], ml.text
        code = create(c, player(c, "Asha"), preset="56-4")
        ben = player(c, "Ben")
        with c.websocket_connect(keyed(f"/ws/{code}"), headers=ML) as ws:
            hello(ws, ben)
            ws.send_json({"type": "join", "name": name})
            refusal = receive_until(ws, lambda m: m["type"] == "error")["message"]
            assert malayalam in refusal, refusal


def test_no_name_and_no_player_is_refused_in_each_language(tmp_path: Any) -> None:
    with client(tmp_path / "t.db") as c:
        c.cookies.clear()
        for headers, words in ((EN, "choose your name first"), (ML, "ആദ്യം നിങ്ങളുടെ പേര് നൽകുക")):
            r = c.post("/api/tables", json={"preset": "56-4"}, headers=headers)
            assert r.status_code == 400 and r.json()["error"] == words, r.text

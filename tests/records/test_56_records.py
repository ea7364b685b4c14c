"""Malformed and illegal 56 records: the first bad field and index, a clear error, never a traceback."""

from __future__ import annotations

import copy
import json

import pytest

from fiftysix import check, check_text
from helpers.examples import EXAMPLES

BASE = json.loads((EXAMPLES / "56" / "v0008-deal.json").read_text())   # 56-6, redoubled 51H


def bad(**changes: object) -> dict[str, object]:
    rec = copy.deepcopy(BASE)
    rec.update(changes)
    return check(rec)


def where(result: dict[str, object]) -> tuple[object, object, object]:
    return result["valid"], result["field"], result["index"]


def test_base_is_valid() -> None:
    assert check(copy.deepcopy(BASE))["valid"] is True


@pytest.mark.parametrize(("changes", "field", "index", "words"), [
    ({"game": 56}, "game", None, 'game must be "55" or "56"'),
    ({"game": "57"}, "game", None, "game must be"),
    ({"rules": "56-7"}, "rules", None, "unknown preset '56-7'"),
    ({"rules": {"preset": "56-6", "colour": "red"}}, "rules", None, "unknown option 'colour'"),
    ({"rules": {"preset": "56-6", "double": "maybe"}}, "rules", None, "option double cannot be 'maybe'"),
    ({"rules": {"preset": "56-6", "deck": 64}}, "rules", None, "deck=64 needs 8 players, not 6"),
    ({"rules": 6}, "rules", None, "rules must be a preset name"),
    ({"dealer": 6}, "dealer", None, "dealer must be a seat 0-5, not 6"),
    ({"dealer": "0"}, "dealer", None, "dealer must be a seat"),
    ({"dealer": True}, "dealer", None, "dealer must be a seat"),
    ({"hands": "JS"}, "hands", None, "hands must be a list"),
    ({"trump": "H"}, "trump", None, "trump must be null with trump: bid"),
    ({"auction": "28H P"}, "auction", None, "auction must be a list"),
    ({"play": {"0": "JS"}}, "play", None, "play must be a list"),
])
def test_top_level_errors(changes: dict[str, object], field: str, index: object, words: str) -> None:
    r = bad(**changes)
    assert where(r) == (False, field, index)
    assert words in str(r["error"])


def test_wrong_number_of_hands() -> None:
    r = bad(hands=BASE["hands"][:5])
    assert where(r) == (False, "hands", None) and "6 players" in r["error"]


def test_hand_wrong_size_names_the_seat() -> None:
    hands = list(BASE["hands"])
    hands[2] = hands[2].rsplit(" ", 1)[0]
    r = bad(hands=hands)
    assert where(r) == (False, "hands", 2) and "seat 2 has 7 cards; each seat gets 8" in r["error"]


def test_card_dealt_three_times() -> None:
    hands = list(BASE["hands"])
    hands[1] = "TS " + hands[1].split(" ", 1)[1]       # seat 0 holds TS twice already
    r = bad(hands=hands)
    assert where(r) == (False, "hands", 1) and "TS is dealt three times" in r["error"]


def test_card_not_in_the_deck() -> None:
    hands = list(BASE["hands"])
    hands[3] = "8S " + hands[3].split(" ", 1)[1]
    r = bad(hands=hands)
    assert where(r) == (False, "hands", 3) and "8S is not in the 48-card deck" in r["error"]


def test_malformed_card_in_a_hand() -> None:
    hands = list(BASE["hands"])
    hands[4] = ["JH", "JH", "TH", "KH", "JD", "KD", "TC", 5]
    r = bad(hands=hands)
    assert where(r) == (False, "hands", 4) and "malformed card 5" in r["error"]


def test_illegal_call_names_index_and_seat() -> None:
    auction = list(BASE["auction"])
    auction[1] = "27C"
    r = bad(auction=auction)
    assert where(r) == (False, "auction", 1)
    assert r["error"].startswith("call 1 by seat 5:")


def test_malformed_call() -> None:
    auction = list(BASE["auction"])
    auction[2] = "hearts please"
    r = bad(auction=auction)
    assert where(r) == (False, "auction", 2) and "malformed call" in r["error"]


def test_double_own_team() -> None:
    r = bad(auction=["28H", "P", "X"], play=[])
    assert where(r) == (False, "auction", 2) and "its own team" in r["error"]


def test_call_after_the_end() -> None:
    r = bad(auction=[*BASE["auction"], "P"])
    assert where(r) == (False, "auction", len(BASE["auction"])) and "auction is over" in r["error"]


def test_trump_choice_records() -> None:
    rules = {"preset": "56-6", "trump": "chosen"}
    ok = bad(rules=rules, trump="H")            # the same trump as the bid: the same play
    assert ok["valid"] is True and ok["tricks"] == check(copy.deepcopy(BASE))["tricks"]
    assert where(bad(rules=rules, trump="Q")) == (False, "trump", None)
    r = bad(rules=rules, trump=None)
    assert where(r) == (False, "play", 0) and "trumps have not been chosen" in r["error"]
    r = bad(rules=rules, trump="S", auction=BASE["auction"][:3], play=[])
    assert where(r) == (False, "trump", None) and "before the auction has ended" in r["error"]


def test_hidden_trump_reveal_in_the_play_list() -> None:
    rec = {"game": "56", "rules": {"preset": "56-4", "deck": 32, "trump": "hidden"}, "dealer": 0,
           "hands": ["JS 9S AS TS JH 9H AH TH", "JD 9D AD TD JC 9C AC TC",
                     "JS 9S AS TS JH 9H AH TH", "JD 9D AD TD JC 9C AC TC"],
           "auction": ["28H", "P", "P", "P"], "trump": "S", "play": ["JD", "9S", "JD", "?", "TS"]}
    r = check(rec)
    assert r["valid"] is True and r["tricks"][0]["winner"] == 2
    rec["play"] = ["JD", "9S", "?"]              # seat 3 holds diamonds: may not ask
    r = check(rec)
    assert where(r) == (False, "play", 2) and "cannot follow" in r["error"]


def test_malformed_json_text() -> None:
    r = check_text('{"game": "56", ')
    assert r["valid"] is False and "malformed JSON" in r["error"]


def test_not_an_object() -> None:
    assert check([1, 2])["valid"] is False

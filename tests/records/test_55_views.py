"""55 views: the kitty's size, trumps, the bidder, and open or closed discards."""

from __future__ import annotations

import json

from fiftysix import view
from helpers.h55 import make, push_all, to_play

HANDS = ["AS KS QS JS TS", "AH KH QH JH TH", "AD KD QD JD TD", "AC KC QC JC TC"]
KITTY = "9S 9H 9D 9C 8S"


def deal(discards: str):
    return push_all(make("55", HANDS, kitty=KITTY, discards=discards), "10 P P P")   # seat 1 bids 10


def test_the_kitty_is_never_shown_before_it_is_taken() -> None:
    d = make("55", HANDS, kitty=KITTY)
    for seat in (None, 0, 1, 2, 3):
        v = view(d, seat)
        assert v["kitty_size"] == 5 and v["trump"] is None and v["bidder"] is None and v["discard"] is None
        assert "9S" not in json.dumps(v)


def test_the_bidder_sees_the_kitty_in_hand_and_the_discard_legal_moves() -> None:
    d = deal("open")
    v = view(d, 1)
    assert v["phase"] == "discard" and v["kitty_size"] == 0 and v["bidder"] == 1
    assert v["hand"] == ["9S", "8S", "AH", "KH", "QH", "JH", "TH", "9H", "9D", "9C"]
    assert len(v["legal"]) == 252 and v["hand_sizes"] == [5, 10, 5, 5]
    other = json.dumps(view(d, 0))
    assert "9H" not in other and "legal" not in view(d, 0)


def test_open_discards_are_public() -> None:
    d = deal("open")
    d.push("9S 8S 9D 9C TH")
    for seat in (None, 0, 1, 2, 3):
        assert view(d, seat)["discard"] == ["9S", "8S", "TH", "9D", "9C"]
    d.push("H")
    assert view(d, None)["trump"] == "H"
    assert view(d, 2)["contract"] == {"bidder": 1, "team": 1, "value": 10, "trump": "H"}


def test_closed_discards_are_seen_by_the_bidder_only() -> None:
    d = deal("closed")
    d.push("9S 8S 9D 9C TH")
    assert view(d, 1)["discard"] == ["9S", "8S", "TH", "9D", "9C"]
    for seat in (None, 0, 2, 3):
        v = view(d, seat)
        assert v["discard"] is None
        text = json.dumps(v)
        assert not any(c in text for c in ("9S", "8S", "TH", "9D", "9C"))


def test_views_during_play_and_at_the_end() -> None:
    d = to_play(make("55-2", ["5H JH 2D 3D 4D", "KD 9D 8D QC 7C"], kitty="2S 3S 4S 6S 7S"),
                "2S 3S 4S 6S 7S", "H", auction="10 P")
    push_all(d, "KD")
    v = view(d, 0)
    assert v["trick"] == {"leader": 1, "cards": ["KD"]} and v["legal"] == ["JH", "5H", "4D", "3D", "2D"]
    push_all(d, "5H JH 7C 4D 9D 8D 3D QC 2D")
    v = view(d, None)
    assert v["phase"] == "over" and v["result"]["highest_trump"] == {"seat": 0, "card": "5H"}
    assert v["highest_trump"] == {"seat": 0, "card": "5H"} and v["points"] == [15, 15]


def test_a_thrown_in_deal_shows_nothing_of_the_kitty() -> None:
    d = push_all(make("55", HANDS, kitty=KITTY), "P P P P")
    v = view(d, None)
    assert v["phase"] == "over" and v["kitty_size"] == 5 and v["contract"] is None
    assert not any(c in json.dumps(v) for c in KITTY.split())

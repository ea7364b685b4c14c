"""55 options and presets, and the auction: one round, the dealer's hold, the hold duel, all passes."""

from __future__ import annotations

import pytest

from fiftysix import CallNotAllowedError, NotationError, RulesError, WrongPhaseError
from fiftysix.games.fifty_five import PRESETS, Rules55
from fiftysix.games.fifty_five.auction import parse_call
from helpers.h55 import make, push_all

# ---- options and presets ---------------------------------------------------------------------------


def test_presets() -> None:
    assert Rules55.from_json(None) == Rules55.from_json("55")
    r = Rules55.from_json("55")
    assert (r.players, r.teams, r.target, r.all_pass, r.discards, r.sixty_fail, r.bidder_first) == (
        4, "none", 55, "redeal", "open", 60, False)
    for n in range(2, 10):
        assert Rules55.from_json(f"55-{n}").players == n
    assert Rules55.from_json("55-teams-4").n_sides == 2
    t6 = Rules55.from_json("55-teams-6")
    assert (t6.players, t6.teams, t6.side_of) == (6, "two", (0, 1, 0, 1, 0, 1))
    assert Rules55.from_json("55-110").target == 110 and Rules55.from_json("55-220").target == 220
    assert len(PRESETS) == 13


def test_sides() -> None:
    assert Rules55.from_json("55-5").side_of == (0, 1, 2, 3, 4)
    three = Rules55.preset_named("55-9", teams="three")
    assert three.n_sides == 3 and three.side_of == (0, 1, 2) * 3


@pytest.mark.parametrize(("teams", "players", "message"), [
    ("three", 4, "teams=three needs 6, 9 players, not 4"),
    ("two", 5, "teams=two needs 4, 6, 8 players, not 5"),
    ("two", 2, "teams=two needs 4, 6, 8 players, not 2"),
])
def test_teams_must_fit_the_players(teams: str, players: int, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules55.from_json({"preset": "55", "teams": teams, "players": players})


@pytest.mark.parametrize("options", [
    {"players": 10}, {"players": 1}, {"target": 100}, {"sixty_fail": "30"}, {"sixty_fail": 45},
    {"all_pass": "forced"}, {"discards": "hidden"}, {"bidder_first": 1}, {"double": "closes"},
    {"preset": "56-6"},
])
def test_bad_options(options: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        Rules55.from_json({"preset": "55", **options})


def test_rules_json_round_trip() -> None:
    r = Rules55.preset_named("55-teams-6", sixty_fail=30, discards="closed")
    assert r.to_json() == {"preset": "55-teams-6", "discards": "closed", "sixty_fail": 30}
    assert Rules55.from_json(r.to_json()) == r
    assert Rules55.from_json("55-7").to_json() == "55-7"


# ---- notation ------------------------------------------------------------------------------------------


def test_calls_are_written_exactly() -> None:
    assert [parse_call(t).text for t in ("P", "HOLD", "10", " 60 ")] == ["P", "HOLD", "10", "60"]
    with pytest.raises(NotationError, match="malformed call 'p'"):
        parse_call("p")
    with pytest.raises(NotationError, match="11 is not a bid; bids are 10, 15, 20, 25 and 60"):
        parse_call("11")
    for bad in ("", "X", "28H", "hold", None, 10):
        with pytest.raises(NotationError):
            parse_call(bad)


# ---- one round --------------------------------------------------------------------------------------------


def texts(deal) -> list[str]:
    return [str(m) for m in deal.legal_moves()]


def test_one_round_from_first_hand_to_the_dealer() -> None:
    d = make("55", dealer=2)
    assert d.to_move == 3 and texts(d) == ["P", "10", "15", "20", "25", "60"]
    push_all(d, "10 P 15")
    assert d.to_move == 2 and texts(d) == ["P", "HOLD", "20", "25", "60"]
    d.push("P")
    assert d.phase == "discard" and d.contract is not None
    assert (d.contract.bidder, d.contract.value, d.to_move) == (1, 15, 1)


def test_bids_must_be_higher() -> None:
    d = push_all(make("55"), "15")
    with pytest.raises(CallNotAllowedError, match=r"bid 10 is not higher than the current bid \(15 by seat 1\)"):
        d.push("10")
    with pytest.raises(CallNotAllowedError):
        d.push("15")
    assert texts(d) == ["P", "20", "25", "60"]


def test_after_60_the_others_can_only_pass_and_the_dealer_may_hold() -> None:
    d = push_all(make("55"), "60")
    assert texts(d) == ["P"]
    push_all(d, "P P")
    assert texts(d) == ["P", "HOLD"]
    d.push("HOLD")                                   # 60 held: no duel
    assert d.phase == "discard" and d.contract is not None and (d.contract.bidder, d.contract.value) == (0, 60)


def test_only_the_dealer_may_hold() -> None:
    d = push_all(make("55"), "10")
    with pytest.raises(CallNotAllowedError, match=r"only the dealer \(seat 0\) may hold; seat 2"):
        d.push("HOLD")
    d = make("55")
    with pytest.raises(CallNotAllowedError, match=r"current bid \(none\)"):
        d.push("HOLD")


def test_the_dealer_cannot_hold_nothing() -> None:
    d = push_all(make("55"), "P P P")
    assert texts(d) == ["P", "10", "15", "20", "25", "60"]
    with pytest.raises(CallNotAllowedError, match="HOLD with no bid to hold; the dealer may pass or bid"):
        d.push("HOLD")


def test_a_raise_by_the_dealer_ends_the_auction() -> None:
    d = push_all(make("55"), "10 P 15 20")            # only a hold continues the auction
    assert d.phase == "discard" and d.contract is not None and (d.contract.bidder, d.contract.value) == (0, 20)


def test_everyone_speaks_once() -> None:
    d = push_all(make("55"), "10 15 20 P")
    assert d.phase == "discard" and d.contract is not None and d.contract.bidder == 3
    with pytest.raises(WrongPhaseError, match="the auction is over"):
        d.push(parse_call("25"))


# ---- the hold duel ------------------------------------------------------------------------------------------


def test_hold_then_the_displaced_bidder_passes() -> None:
    d = push_all(make("55"), "10 P P HOLD")
    assert d.phase == "auction" and d.to_move == 1 and texts(d) == ["P", "15", "20", "25", "60"]
    d.push("P")
    assert d.contract is not None and (d.contract.bidder, d.contract.value) == (0, 10)


def test_the_hold_duel_goes_on_until_a_pass() -> None:
    d = push_all(make("55"), "10 P 15 HOLD")
    assert d.to_move == 3                            # the displaced bidder, not first hand
    push_all(d, "20")
    assert d.to_move == 0 and texts(d) == ["P", "HOLD", "25", "60"]
    push_all(d, "HOLD 25")
    assert d.to_move == 0
    push_all(d, "60")                                # the dealer may raise in the duel too
    assert d.to_move == 3 and texts(d) == ["P"]
    with pytest.raises(CallNotAllowedError, match="only the dealer"):
        d.push("HOLD")
    d.push("P")
    assert d.contract is not None and (d.contract.bidder, d.contract.value) == (0, 60)


def test_the_duel_ends_when_the_dealer_passes() -> None:
    d = push_all(make("55"), "10 P P HOLD 20 P")
    assert d.contract is not None and (d.contract.bidder, d.contract.value) == (1, 20)


def test_the_duel_ends_when_60_is_held() -> None:
    d = push_all(make("55"), "10 P P HOLD 60 HOLD")
    assert d.phase == "discard" and d.contract is not None and (d.contract.bidder, d.contract.value) == (0, 60)


def test_two_players() -> None:
    d = push_all(make("55-2"), "15 HOLD 20 HOLD 25 P")
    assert d.contract is not None and (d.contract.bidder, d.contract.value) == (1, 25)
    d = push_all(make("55-2"), "P 10")
    assert d.contract is not None and (d.contract.bidder, d.contract.value) == (0, 10)


# ---- nobody bids ---------------------------------------------------------------------------------------------


def test_all_pass_redeal_throws_the_deal_in() -> None:
    d = push_all(make("55"), "P P P P")
    assert d.is_over and d.thrown_in and d.contract is None and d.to_move is None
    assert d.legal_moves() == ()
    assert d.result() == {"complete": True, "contract": None, "highest_trump": None, "tricks": [],
                          "points": [0, 0, 0, 0], "made": None, "score": [0, 0, 0, 0]}
    assert d.over_text() == "the deal was thrown in (nobody bid); no cards are played"


def test_all_pass_dealer_makes_the_dealer_take_10() -> None:
    d = push_all(make("55", dealer=3, all_pass="dealer"), "P P P P")
    assert d.phase == "discard" and d.contract is not None
    assert (d.contract.bidder, d.contract.value, d.to_move) == (3, 10, 3)
    assert len(d.hands[3]) == 10


def test_call_meanings() -> None:
    d = push_all(make("55"), "10 P 15 HOLD 20 P")
    m = d.auction.meanings
    assert m[0].startswith("10: undertakes to take at least 10 points")
    assert m[1] == "pass"
    assert m[3].startswith("hold: the dealer takes the bid of 15 from seat 3")
    assert "hold duel" in m[4]
    assert m[5] == "pass: seat 3 wins the auction at 20"
    d = push_all(make("55", all_pass="dealer"), "P P P P")
    assert "must take 10" in d.auction.meanings[3]
    d = push_all(make("55"), "60")
    assert "all five tricks" in d.auction.meanings[0]

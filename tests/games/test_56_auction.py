"""The 56 auction, rule by rule (rules-56.md, "Auction")."""

from __future__ import annotations

import pytest

from fiftysix import CallNotAllowedError, NotationError, WrongPhaseError
from fiftysix.core.cards import Suit
from helpers.h56 import FOUR_32, make, push_all


def deal4(**options: object):
    return make("56-4", FOUR_32, dealer=0, deck=32, **options)


def test_first_hand_calls_first_and_calls_go_round() -> None:
    d = deal4()
    assert d.to_move == 1
    d.push("28H")
    assert d.to_move == 2


def test_each_bid_must_be_strictly_higher() -> None:
    d = push_all(deal4(), "30H")
    with pytest.raises(CallNotAllowedError, match="not higher than the current bid"):
        d.push("30S")
    with pytest.raises(CallNotAllowedError):
        d.push("S29")
    with pytest.raises(CallNotAllowedError, match="not higher than the current bid"):
        d.push("27C")
    d.push("31S")
    assert d.auction.value == 31


def test_values_are_28_to_56() -> None:
    d = deal4()
    with pytest.raises(CallNotAllowedError):
        d.push("27H")
    with pytest.raises(CallNotAllowedError):
        d.push("57H")
    d.push("56NT")
    assert d.auction.value == 56


def test_strains_have_no_order_and_partners_may_overbid() -> None:
    d = push_all(deal4(), "28S P 29C")      # seat 3 overbids... seat 1's partner is seat 3
    assert d.auction.bidder == 3 and d.auction.strain == Suit.CLUBS


def test_player_may_call_again_after_passing() -> None:
    d = push_all(deal4(), "P 28H P P")
    d.push("29S")                          # seat 1 passed first, now bids
    assert d.auction.bidder == 1


@pytest.mark.parametrize(("call", "value", "strain"), [
    ("28H", 28, "H"), ("H28", 28, "H"), ("28NT", 28, "NT"),
])
def test_standard_forms_as_first_bid(call: str, value: int, strain: str) -> None:
    d = push_all(deal4(), f"{call} P P P")
    c = d.contract
    assert c is not None and c.value == value and c.to_json()["strain"] == strain


def test_noes_needs_a_suit_bid_and_is_no_trumps() -> None:
    d = deal4()
    with pytest.raises(CallNotAllowedError, match="needs a bid that named a suit"):
        d.push("29NOES")
    push_all(d, "28NT")
    with pytest.raises(CallNotAllowedError, match="named a suit"):
        d.push("29NOES")
    push_all(d, "29D 30NOES P P P")
    assert d.contract is not None and d.contract.strain is None and d.contract.value == 30
    assert "void in diamonds" in d.auction.meanings[2]


def test_plus_forms_add_to_the_previous_bid_and_are_not_first() -> None:
    d = deal4()
    with pytest.raises(CallNotAllowedError, match="cannot be the first bid"):
        d.push("+2H")
    push_all(d, "28H +2S")
    assert d.auction.value == 30 and d.auction.strain == Suit.SPADES
    push_all(d, "+3NOES")
    assert d.auction.value == 33 and d.auction.strain is None
    assert "void in spades" in d.auction.meanings[-1]
    with pytest.raises(CallNotAllowedError):
        d.push("+24H")                      # 57


def test_every_bid_has_a_public_meaning() -> None:
    d = push_all(deal4(), "28H H29 30NT 31NOES +2C +1NOES")
    m = d.auction.meanings
    assert "holds the top heart" in m[0]
    assert "without the top card" in m[1]
    assert "no single suit" in m[2]
    assert "void in hearts" in m[3]
    assert "2 top clubs and no other clubs" in m[4]
    assert "void in clubs" in m[5]


def test_auction_ends_after_n_minus_1_passes() -> None:
    d = push_all(deal4(), "28H P P")
    assert d.phase == "auction"
    d.push("P")
    assert d.phase == "play" and d.contract is not None and d.contract.declarer == 1
    with pytest.raises(WrongPhaseError):
        d.push("P")


def test_double_only_of_another_teams_bid() -> None:
    d = push_all(deal4(), "28H P")           # seat 3 is seat 1's partner
    with pytest.raises(CallNotAllowedError, match="its own team"):
        d.push("X")
    d.push("P")
    d.push("X")                             # seat 0 is on the other team
    d.push("P")
    with pytest.raises(CallNotAllowedError, match="already doubled"):
        d.push("X")                         # seat 2, the doubler's partner


def test_redouble_only_by_the_doubled_team() -> None:
    d = push_all(deal4(), "28H X P")         # seat 2 doubles seat 1; seat 3 passes
    assert d.to_move == 0
    with pytest.raises(CallNotAllowedError, match="only the doubled team"):
        d.push("XX")
    push_all(d, "P XX")                     # seat 1, the declarer, redoubles
    assert d.contract is not None and d.contract.multiplier == 4


def test_reopens_double_then_higher_bid_cancels_it() -> None:
    d = push_all(deal4(), "28H X 29S")
    assert d.auction.doubled == 0
    push_all(d, "P P P")
    assert d.contract is not None and d.contract.multiplier == 1 and d.contract.declarer == 3


def test_reopens_redouble_ends_at_once() -> None:
    d = push_all(deal4(), "28H X XX")
    assert d.phase == "play"
    assert d.contract is not None and d.contract.multiplier == 4 and d.contract.declarer == 1


def test_doubled_contract_after_passes() -> None:
    d = push_all(deal4(), "28H X P P P")
    assert d.contract is not None and d.contract.multiplier == 2


def test_closes_no_bids_after_double() -> None:
    d = push_all(deal4(double="closes"), "28H X")
    legal = [str(m) for m in d.legal_moves()]
    assert legal == ["P", "XX"]            # seat 3 is on the doubled team
    with pytest.raises(CallNotAllowedError, match="no more bids"):
        d.push("30S")
    d.push("P")
    assert [str(m) for m in d.legal_moves()] == ["P"]  # seat 0: doubler's partner may only pass
    push_all(d, "P XX")                     # seat 1 redoubles
    assert d.contract is not None and d.contract.multiplier == 4


def test_closes_everyone_passing_after_double_ends() -> None:
    d = push_all(deal4(double="closes"), "28H X P P P")
    assert d.contract is not None and d.contract.multiplier == 2


def test_all_pass_gives_28_no_trumps_to_first_hand() -> None:
    d = push_all(deal4(), "P P P P")
    c = d.contract
    assert c is not None and (c.declarer, c.team, c.value, c.strain, c.multiplier) == (1, 1, 28, None, 1)


def test_all_pass_forced_first_hand_may_not_pass_first() -> None:
    d = deal4(all_pass="forced")
    assert "P" not in [str(m) for m in d.legal_moves()]
    with pytest.raises(CallNotAllowedError, match="may not pass"):
        d.push("P")
    push_all(d, "28S P P")
    assert "P" in [str(m) for m in d.legal_moves()]


def test_legal_calls_are_stable_and_start_with_pass() -> None:
    a = [str(m) for m in deal4().legal_moves()]
    b = [str(m) for m in deal4().legal_moves()]
    assert a == b and a[0] == "P" and "28S" in a and "+1S" not in a and "28NOES" not in a
    assert len(a) == len(set(a))


def test_lenient_call_notation() -> None:
    d = deal4()
    assert str(d.parse_move("28♥")) == "28H"
    assert str(d.parse_move(" h28 ")) == "H28"
    assert str(d.parse_move("pass")) == "P"
    with pytest.raises(NotationError, match="malformed call"):
        d.parse_move("28Z")


def test_a_refused_call_changes_nothing() -> None:
    d = push_all(deal4(), "30H")
    before = (d.to_move, list(d.history), d.auction.value)
    with pytest.raises(CallNotAllowedError):
        d.push("29S")
    assert (d.to_move, list(d.history), d.auction.value) == before


# -- announcements (seed 004) ----------------------------------------------------------------------

def ann(**options: object):
    return make("56-announce", None, dealer=5, **options)


def test_announcement_values_follow_the_seed_example() -> None:
    # The worked example of seed 004, from "28 hearts" to "40 No-Trump".
    d = ann()
    calls = "28H +C 30+1H P 1+H NOS 2+D P P -C P -1C 38S P 40NT P P P P P"
    values = []
    for c in calls.split():
        d.push(c)
        values.append(d.auction.value)
    assert values[:12] == [28, 29, 30, 30, 31, 32, 34, 34, 34, 35, 35, 36]
    assert d.contract is not None and d.contract.value == 40 and d.contract.strain is None
    assert d.contract.declarer == 2


def test_announcement_first_pass_counts_as_plus_pass() -> None:
    d = ann()
    d.push("P")
    assert d.auction.value == 28 and d.auction.bidder == d.first_hand
    assert "Plus Pass" in d.auction.meanings[0]
    push_all(d, "P P P P P")
    assert d.contract is not None and d.contract.value == 28 and d.contract.strain is None


def test_announcement_strain_is_the_last_suit_or_nt() -> None:
    d = push_all(ann(), "28H -S P P P P P")
    assert d.contract is not None and d.contract.strain == Suit.SPADES
    d = push_all(ann(), "28H NOS P P P P P")
    assert d.contract is not None and d.contract.strain is None and d.contract.value == 29


def test_announcement_written_number_must_match() -> None:
    d = push_all(ann(), "28H")
    with pytest.raises(CallNotAllowedError, match="does not add up"):
        d.push("31+C")
    d.push("29+C")
    assert d.auction.value == 29 and str(d.history[-1][1]) == "+C"


def test_announcement_k_nos_needs_k_suits() -> None:
    d = push_all(ann(), "28H")
    with pytest.raises(CallNotAllowedError):
        d.push("2NOS")
    push_all(d, "+C 2NOS")
    assert "void in hearts" in d.auction.meanings[-1]


def test_announcement_plus_names_the_highest_unannounced_card() -> None:
    d = push_all(ann(), "28H +1H 1+H")
    assert "J♥" in d.auction.meanings[1] and "9♥" in d.auction.meanings[2]


def test_chosen_trump_after_announcements() -> None:
    d = push_all(ann(), "28H P P P P P")
    assert d.phase == "trump" and d.to_move == d.contract.declarer  # type: ignore[union-attr]
    assert [str(m) for m in d.legal_moves()] == ["S", "H", "D", "C", "NT"]
    d.push("nt")
    assert d.phase == "play" and d.trump is None and d.trump_text() == "NT"

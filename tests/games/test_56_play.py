"""56 card play: following suit, trick winners, identical copies, trumps, hidden trumps, claims."""

from __future__ import annotations

import pytest

from fiftysix import CardNotHeldError, MustFollowError, NotationError, WrongPhaseError, view
from fiftysix.core.cards import Card
from helpers.h56 import FOUR_32, make, push_all

TWINS = [
    "JS 9S AS TS JH 9H AH TH",
    "JD 9D AD TD JC 9C AC TC",
    "JS 9S AS TS JH 9H AH TH",
    "JD 9D AD TD JC 9C AC TC",
]


def test_first_hand_leads_and_must_follow_suit() -> None:
    d = push_all(make("56-4", FOUR_32, deck=32), "28H P P P")
    assert d.phase == "play" and d.to_move == 1
    d.push("AS")
    push_all(d, "JD AD")                      # seats 2 and 3 hold no spades: any card
    with pytest.raises(MustFollowError, match="must follow spades"):
        d.push("JH")                          # seat 0 holds spades
    d.push("JS")
    t = d.tricks[0]
    assert (t.leader, t.winner, t.points) == (1, 0, 8)
    assert d.points == [8, 0] and d.to_move == 0


def test_no_duty_to_trump() -> None:
    d = push_all(make("56-4", TWINS, deck=32), "28H P P P")   # hearts trumps; seat 1 declarer
    d.push("JD")
    legal = {str(m) for m in d.legal_moves()}                # seat 2 has no diamonds
    assert legal == {"JS", "9S", "AS", "TS", "JH", "9H", "AH", "TH"}


def test_of_two_identical_cards_the_first_wins() -> None:
    d = push_all(make("56-4", TWINS, deck=32), "28NT P P P")
    push_all(d, "JD TS JD AS")
    assert d.tricks[0].winner == 1


def test_highest_trump_wins() -> None:
    d = push_all(make("56-4", TWINS, deck=32), "28H P P P")
    push_all(d, "JD 9H JD JH")                # seat 2 trumps low, seat 0 trumps higher
    assert d.tricks[0].winner == 0 and d.tricks[0].points == 3 + 2 + 3 + 3


def test_not_held_card_is_refused_and_lists_the_hand() -> None:
    d = push_all(make("56-4", FOUR_32, deck=32), "28H P P P")
    with pytest.raises(CardNotHeldError, match="holds AS AS TS TS AH AH TH TH"):
        d.push("JS")


def test_card_notation_is_lenient() -> None:
    d = push_all(make("56-4", FOUR_32, deck=32), "28H P P P")
    assert d.push("10♠") == Card.parse("TS")
    with pytest.raises(NotationError, match="malformed card"):
        d.push("ZZ")


def test_card_during_auction_is_refused_clearly() -> None:
    d = make("56-4", FOUR_32, deck=32)
    with pytest.raises(WrongPhaseError, match="auction has not ended"):
        d.push("AS")


def test_deal_ends_after_all_tricks_and_points_sum_to_56() -> None:
    d = push_all(make("56-4", FOUR_32, deck=32), "28H P P P")
    while not d.is_over:
        d.push(d.legal_moves()[0])
    assert len(d.tricks) == 8 and sum(d.points) == 56
    assert d.result()["complete"] is True


# -- trump chosen / hidden -----------------------------------------------------------------------

def test_hidden_trump_is_secret_until_asked() -> None:
    d = push_all(make("56-4", TWINS, deck=32, trump="hidden"), "28H P P P")
    assert d.phase == "trump" and d.to_move == 1
    d.push("S")                                # the declarer secretly picks spades
    assert view(d, 1)["trump"] == "S"
    for seat in (0, 2, 3, None):
        v = view(d, seat)
        assert v["trump"] is None and v["trump_hidden"] is True
    d.push("JD")
    assert "?" in [str(m) for m in d.legal_moves()]    # seat 2 cannot follow diamonds
    d.push("9S")                               # plays without asking: not a trump yet
    d.push("JD")
    d.push("?")                                # seat 0 asks
    assert view(d, 3)["trump"] == "S" and view(d, 3)["trump_hidden"] is False
    assert {str(m) for m in d.legal_moves()} == {"JS", "9S", "AS", "TS"}
    with pytest.raises(MustFollowError, match="must play a trump"):
        d.push("JH")
    d.push("TS")
    # trumps already in the trick count once turned up: seat 2's 9S beats seat 0's TS
    assert d.tricks[0].winner == 2
    assert d.play_texts()[:5] == ["JD", "9S", "JD", "?", "TS"]


def test_reveal_only_when_unable_to_follow() -> None:
    d = push_all(make("56-4", TWINS, deck=32, trump="hidden"), "28H P P P S")
    d.push("JD")
    push_all(d, "9S")
    with pytest.raises(WrongPhaseError, match="cannot follow"):
        d.push("?")                            # seat 3 holds diamonds


def test_hidden_trump_never_turned_up_means_no_trumps_act() -> None:
    d = push_all(make("56-4", TWINS, deck=32, trump="hidden"), "28H P P P S")
    push_all(d, "JD JS 9D 9S")                 # spades played without asking
    assert d.tricks[0].winner == 1


def test_chosen_trump_replaces_the_strain() -> None:
    d = push_all(make("56-4", TWINS, deck=32, trump="chosen"), "28H P P P C")
    push_all(d, "JD 9S TD TS")
    assert d.trump is not None and d.trump.letter == "C"
    assert d.tricks[0].winner == 1             # no clubs played; diamonds led


# -- claim ----------------------------------------------------------------------------------------

def test_claim_only_when_the_outcome_is_decided() -> None:
    d = push_all(make("56-4", FOUR_32, deck=32, claim=True), "28H P P P")
    assert "CLAIM" not in [str(m) for m in d.legal_moves()]
    while "CLAIM" not in [str(m) for m in d.legal_moves()]:
        d.push(d.legal_moves()[0])
    assert d.outcome_decided()
    made_before = d.points[1] >= 28
    d.push("CLAIM")
    assert d.is_over and d.made() == made_before


def test_claim_refused_when_off() -> None:
    d = push_all(make("56-4", FOUR_32, deck=32), "28H P P P")
    with pytest.raises(WrongPhaseError, match="claims are off"):
        d.push("CLAIM")

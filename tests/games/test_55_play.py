"""55 card play: the four ranking tables, the A♥, free trumping on a plain lead, the trump-lead duty and
the renege privilege of the 5, J and A♥, trick points and the highest-trump bonus."""

from __future__ import annotations

import pytest

from fiftysix import CardNotHeldError, IllegalMoveError, MustFollowError, NotationError, WrongPhaseError
from fiftysix.core.cards import Card, Suit, cards_text, parse_cards
from fiftysix.games.fifty_five.play import trick_winner
from fiftysix.games.fifty_five.ranking import (
    ACE_OF_HEARTS,
    IS_TRUMP,
    PRIVILEGED,
    plain_order,
    trump_order,
)
from helpers.h55 import make, push_all, to_play

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS

# ---- ranking tables (rules-55.md, "Ranking") -----------------------------------------------------------


@pytest.mark.parametrize(("trump", "order"), [
    (H, "5H JH AH KH QH TH 9H 8H 7H 6H 4H 3H 2H"),
    (D, "5D JD AH AD KD QD TD 9D 8D 7D 6D 4D 3D 2D"),
    (C, "5C JC AH AC KC QC 2C 3C 4C 6C 7C 8C 9C TC"),
    (S, "5S JS AH AS KS QS 2S 3S 4S 6S 7S 8S 9S TS"),
])
def test_trump_tables(trump: Suit, order: str) -> None:
    assert cards_text(trump_order(trump)) == order


@pytest.mark.parametrize(("suit", "order"), [
    (H, "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"),
    (D, "KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD"),
    (C, "KC QC JC AC 2C 3C 4C 5C 6C 7C 8C 9C TC"),
    (S, "KS QS JS AS 2S 3S 4S 5S 6S 7S 8S 9S TS"),
])
def test_plain_tables(suit: Suit, order: str) -> None:
    for trump in Suit:
        if trump != suit:
            assert cards_text(plain_order(suit, trump)) == order


def test_the_ace_of_hearts_is_always_a_trump() -> None:
    for trump in Suit:
        assert IS_TRUMP[trump][ACE_OF_HEARTS]
        assert ACE_OF_HEARTS not in plain_order(H, trump)
        assert trump_order(trump)[2] == ACE_OF_HEARTS
        assert {str(c) for c in PRIVILEGED[trump]} == {f"5{trump.letter}", f"J{trump.letter}", "AH"}


def win(trump: Suit, trick: str) -> str:
    cards = parse_cards(trick)
    return str(cards[trick_winner(cards, trump)])


@pytest.mark.parametrize(("trump", "trick", "winner"), [
    (S, "2D AD", "2D"),                # the ace of diamonds is the lowest plain diamond
    (S, "TC 9C", "9C"),                # low in black
    (S, "2C AC", "AC"),
    (S, "AC JC", "JC"),
    (S, "KH AH", "AH"),                # the A♥ trumps a heart lead
    (D, "AH AD KD", "AH"),             # A♥ above the ace of trumps
    (C, "AH 5C JC", "5C"),
    (S, "2S TS", "2S"),                # low black trumps: 2 above T
    (H, "2H KS", "2H"),
    (H, "KS QS 2H AS", "2H"),
    (D, "9C KC QS", "KC"),             # a card of a third suit never wins
    (H, "6H 4H", "6H"),
    (D, "TH 5H", "TH"),                # plain hearts: T above 5
])
def test_trick_winners(trump: Suit, trick: str, winner: str) -> None:
    assert win(trump, trick) == winner


# ---- positions: seat 1 leads one card, seat 0 (the dealer) answers with the hand under test ----------------


def answer(trump: str, lead: str, hand: str, filler: str = "KC QC 8C 7C", kitty: str = "2S 3S 4S 6S 7S") -> list[str]:
    """Seat 0's legal cards after seat 1 leads ``lead`` (2 players, seat 1 bids 10 and discards the kitty)."""
    d = make("55-2", [hand, f"{lead} {filler}"], kitty=kitty)
    to_play(d, kitty, trump, auction="10 P")
    d.push(lead)
    assert d.to_move == 0
    return [str(c) for c in d.legal_moves()]


def test_any_card_may_be_led() -> None:
    d = to_play(make("55-2", ["5H JH 2D 3D 4D", "9C 8C KC QC 7C"]), "2S 3S 4S 6S 7S", "H", auction="10 P")
    assert d.to_move == 1 and len(d.legal_moves()) == 5


def test_free_trumping_on_a_plain_lead() -> None:
    assert answer("H", "KS", "QS 2H 2D 3D 4D") == ["QS", "2H"]       # follow suit or trump
    assert answer("H", "KS", "9H 2H 2D 3D 4D") == ["9H", "2H", "4D", "3D", "2D"]  # no spade: anything


def test_the_ace_of_hearts_does_not_follow_hearts() -> None:
    # Diamonds trumps: a heart lead; the A♥ is a trump, so it may be played but does not count as a heart.
    assert answer("D", "KH", "AH QH 2C 3C 4C", filler="KS QS 8S 9S") == ["AH", "QH"]
    assert answer("D", "KH", "AH 9C 2C 3C 4C", filler="KS QS 8S 9S") == ["AH", "9C", "4C", "3C", "2C"]


def test_a_led_ace_of_hearts_is_a_trump_lead() -> None:
    assert answer("D", "AH", "KH QH 3D 4C 5C", filler="KS QS 8S 9S") == ["3D"]


def test_trump_lead_must_be_answered_with_a_trump() -> None:
    assert answer("S", "9S", "AS 4S 2H 3H 4H", kitty="5D 6D 7D 8D 9D") == ["AS", "4S"]
    assert answer("S", "9S", "2H 3H 4H 5H 6H", kitty="5D 6D 7D 8D 9D") == ["6H", "5H", "4H", "3H", "2H"]


def test_renege_only_privileged_trumps_higher_than_the_lead() -> None:
    # 5♠ and J♠ (and A♥) need not fall to the 9♠: any card.
    assert answer("S", "9S", "5S 2H 3H 4H 6H", kitty="5D 6D 7D 8D 9D") == ["5S", "6H", "4H", "3H", "2H"]
    assert len(answer("S", "9S", "JS AH 3H 4H 6H", kitty="5D 6D 7D 8D 9D")) == 5
    assert len(answer("S", "AS", "5S JS AH 4H 6H", kitty="5D 6D 7D 8D 9D")) == 5   # A♥ outranks A♠


def test_renege_privileged_card_lower_than_the_lead_must_be_played() -> None:
    assert answer("S", "5S", "JS 2H 3H 4H 6H", kitty="5D 6D 7D 8D 9D") == ["JS"]
    assert answer("S", "JS", "AH 2D 3D 4D 6D") == ["AH"]
    # the J♠ is lower than the 5♠ led even though the A♥ would be kept back: a trump must be played
    assert answer("S", "5S", "JS AH 3H 4H 6H", kitty="5D 6D 7D 8D 9D") == ["JS", "AH"]


def test_renege_mixed_privileged_and_ordinary_trumps() -> None:
    assert answer("S", "TS", "AS JS 2H 3H 4H", kitty="5D 6D 7D 8D 9D") == ["AS", "JS"]
    assert answer("S", "TS", "5S 2S 2H 3H 4H", kitty="5D 6D 7D 8D 9D") == ["5S", "2S"]


def test_renege_privileged_led_card_itself() -> None:
    # A♥ led with diamonds trumps: the 5♦ is higher and need not fall; the J♦ too.
    assert len(answer("D", "AH", "5D JD 2C 3C 4C", filler="KS QS 8S 9S")) == 5
    assert answer("D", "JD", "AH 2C 3C 4C 5C", filler="KS QS 8S 9S") == ["AH"]


def test_refusals_name_the_rule() -> None:
    kitty = "5D 6D 7D 8D 9D"
    d = to_play(make("55-2", ["AS 4S 2H 3H 4H", "9S KC QC 8C 7C"], kitty=kitty), kitty, "S", auction="10 P")
    d.push("9S")
    with pytest.raises(MustFollowError, match=r"seat 0 must play a trump to the trump lead 9S: holds AS 4S"):
        d.push("2H")
    with pytest.raises(CardNotHeldError, match="does not hold KD"):
        d.push("KD")
    with pytest.raises(NotationError):
        d.push("KDD")
    with pytest.raises(NotationError):
        d.push("P")                   # calls are over: not a card
    assert [str(c) for c in d.hands[0]] == ["AS", "4S", "4H", "3H", "2H"]


def test_plain_lead_refusal() -> None:
    d = to_play(make("55-2", ["QS 2H 2D 3D 4D", "KS KC QC 8C 7C"]), "2S 3S 4S 6S 7S", "H", auction="10 P")
    d.push("KS")
    with pytest.raises(MustFollowError, match="seat 0 must follow spades or trump: may play QS 2H"):
        d.push("2D")


# ---- phases, discard and trump choice -----------------------------------------------------------------------


def test_discard_phase() -> None:
    d = push_all(make("55-2", ["5H JH 2D 3D 4D", "9C 8C KC QC 7C"]), "10 P")
    assert d.phase == "discard" and d.to_move == 1 and len(d.hands[1]) == 10
    legal = d.legal_moves()
    assert len(legal) == 252 and len({str(m) for m in legal}) == 252
    with pytest.raises(WrongPhaseError, match="no card may be played now"):
        d.push(Card.parse("9C"))
    with pytest.raises(IllegalMoveError, match="exactly 5 cards, not 4"):
        d.push("9C 8C KC QC")
    with pytest.raises(IllegalMoveError, match="9C is discarded twice"):
        d.push("9C 9C KC QC 7C")
    with pytest.raises(IllegalMoveError, match=r"the bidder \(seat 1\) does not hold 5H"):
        d.push("5H 8C KC QC 7C")
    with pytest.raises(NotationError, match="malformed card 'XX' in the discard"):
        d.push("XX 8C KC QC 7C")
    d.push("7c 8c 9c kc qc")                       # lenient, any order
    assert d.phase == "trump" and d.discard is not None and cards_text(d.discard) == "KC QC 9C 8C 7C"
    assert [str(m) for m in d.legal_moves()] == ["S", "H", "D", "C"]
    with pytest.raises(NotationError, match="55 has no no-trumps"):
        d.push("NT")
    d.push("♥")
    assert d.phase == "play" and d.trump == H and d.to_move == 1
    assert d.contract is not None and d.contract.to_json() == {"bidder": 1, "team": 1, "value": 10, "trump": "H"}


def test_not_ready_texts() -> None:
    d = push_all(make("55-2"), "10 P")
    assert d.not_ready_text() == "the bidder has not discarded yet; no card may be played"
    d.push(d.legal_moves()[0])
    assert d.not_ready_text() == "trumps have not been named yet; no card may be played"


# ---- points ------------------------------------------------------------------------------------------------


def test_five_a_trick_and_five_for_the_highest_trump() -> None:
    kitty = "2S 3S 4S 6S 7S"
    d = to_play(make("55-2", ["5H JH 2D 3D 4D", "KD 9D 8D QC 7C"], kitty=kitty), kitty, "H", auction="10 P")
    push_all(d, "KD 5H")                           # seat 0 trumps with the 5♥ though it holds diamonds
    assert d.points == [5, 0] and d.highest is not None and str(d.highest[1]) == "5H"
    push_all(d, "JH 7C 4D 9D 8D 3D QC 2D")
    assert d.is_over and [t.winner for t in d.tricks] == [0, 0, 1, 1, 1]
    assert d.points == [15, 15]                    # 2 tricks + the bonus; 3 tricks
    r = d.result()
    assert r["highest_trump"] == {"seat": 0, "card": "5H"} and [t["points"] for t in r["tricks"]] == [5] * 5
    assert r["made"] is True and r["score"] == [15, 15]


def test_no_trump_played_means_no_bonus() -> None:
    kitty = "2S 3S 4S 6S 7S"
    d = to_play(make("55-2", ["KD QD JD TD 9D", "KC QC JC TC 9C"], kitty=kitty), kitty, "H", auction="10 P")
    push_all(d, "KC KD QC QD JC JD TC TD 9C 9D")
    assert d.is_over and d.highest is None and d.points == [0, 25]
    assert d.result()["highest_trump"] is None

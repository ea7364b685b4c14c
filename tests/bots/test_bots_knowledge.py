"""What the 56 bots read from a view (``bots/heuristic/knowledge.py``) and how ``rules:56`` uses it, on hand-made
deals."""

from __future__ import annotations

from typing import Any

from fiftysix import Deal56, Rules56, view
from fiftysix.bots.heuristic.knowledge import AuctionState, Table
from fiftysix.bots.heuristic.rules56 import Rules56Bot, auction_adjustments
from fiftysix.core.cards import parse_cards

# 56-4 with the 32-card deck (J 9 A T); dealer 3, so seat 0 calls and leads first; teams (0, 2) and (1, 3).
HANDS = [
    "AH AH JS JS 9S 9S AS AS",
    "9H TH TS TS JD JD 9D 9D",
    "9H TH AD AD TD TD JC JC",
    "JH JH 9C 9C AC AC TC TC",
]


def deal_of(hands: list[str], moves: str = "", preset: str = "56-4", dealer: int = 3, **options: Any) -> Deal56:
    rules = Rules56.preset_named(preset, **({"deck": 32} if preset == "56-4" and "deck" not in options else {}),
                                 **options)
    deal = Deal56(rules, dealer, [parse_cards(h) for h in hands])
    for m in moves.split():
        deal.push(m)
    return deal


def table(deal: Deal56, seat: int | None = None) -> Table:
    return Table(view(deal, deal.to_move if seat is None else seat))


def move(deal: Deal56) -> str:
    seat = deal.to_move
    assert seat is not None
    return Rules56Bot(1).choose(view(deal, seat))


# ---- reading the auction ---------------------------------------------------------------------------------

def test_number_suit_shows_the_jack_and_suit_number_denies_it() -> None:
    deal = deal_of(HANDS, "28S H29")
    t = table(deal, 2)
    assert t.shown[0]["JS"] == 1 and "JH" in t.denied[1]
    assert not t.may_hold_card(1, "JH")
    assert t.may_hold_card(1, "JS") is False or t.outstanding["JS"] > 1


def test_plus_k_shows_the_whole_suit() -> None:
    deal = deal_of(HANDS, "28S P P +2H")
    t = table(deal, 1)
    assert dict(t.exact[3]["H"]) == {"JH": 2}
    # Both J♥ are with seat 3, so no other seat can hold one, and seat 3 holds no other heart.
    assert not t.may_hold_card(0, "JH") and not t.may_hold_card(2, "JH")
    assert not t.may_hold_card(3, "AH") and t.may_hold_card(3, "JH")


def test_noes_shows_a_void() -> None:
    hands = ["JS JS 9S 9S AS AS TS TS", "JH JH 9D 9D AD AD TD TD", "9H 9H AH AH TH TH JD JD",
             "JC JC 9C 9C AC AC TC TC"]
    deal = deal_of(hands, "28S 29NOES")
    t = table(deal, 2)
    assert "S" in t.voids[1] and not t.may_hold(1, "S")


def test_a_claim_the_cards_disprove_is_ignored() -> None:
    # Seat 1 bids 28S though seat 0 holds both J♠: seat 0 (the observer) knows the claim is false.
    deal = deal_of(HANDS, "P 28S")
    t = table(deal, 0)
    assert t.shown[1]["JS"] == 0


def test_partners_and_opponents_jacks_move_the_estimates() -> None:
    partner = deal_of(HANDS, "P 28D")     # seat 1 bids diamonds with the J: seat 3 is its partner
    t = table(partner, 3)
    up = auction_adjustments(t, AuctionState(t))
    assert up["D"] > 1.5 and up["S"] == 0
    t = table(partner, 2)                 # an opponent of seat 1
    down = auction_adjustments(t, AuctionState(t))
    assert down["D"] < -1.5


# ---- play ------------------------------------------------------------------------------------------------

def test_wins_cheaply_when_partner_holds_the_higher_trumps() -> None:
    # Seat 3 showed both J♥ (+2H) and declares hearts; seat 0 leads A♥.  Seat 1's 9♥ cannot be beaten by
    # seat 2 (the J♥ are with partner), so it takes the trick instead of giving 10♥ to the opponents.
    deal = deal_of(HANDS, "28S P P +2H P P P AH")
    assert deal.to_move == 1 and set(view(deal, 1)["legal"]) == {"9H", "TH"}
    assert move(deal) == "9H"


def test_does_not_throw_points_to_an_opponent_winning_the_trick() -> None:
    # 56-4 (48 cards), no-trumps: seat 0 leads K♣, seat 1 is void in clubs and cannot win: it throws a
    # card worth nothing, not its J or A.
    hands = ["KC QC KC QC JS JS 9S 9S AS AS TS TS",
             "JH 9H AH KD QD JD 9D AD TD KS QS QH",
             "JC JC 9C 9C AC AC TC TC KH KH QH QS",
             "JH 9H AH TH TH KS 9D AD TD JD KD QD"]
    deal = deal_of(hands, "28NT P P P KC", deck=48)
    assert deal.to_move == 1
    choice = move(deal)
    assert choice in {"KD", "QD", "KS", "QS", "QH"}


def test_gives_points_to_a_partner_sure_to_win() -> None:
    # Seat 2 (partner of seat 0) is last to play... seat 0 leads J♠ (the master at no-trumps with both J♠
    # in its hand), seats 1 and 2 follow; seat 3 plays after and is void in spades?  Here seat 0's J♠
    # cannot be beaten, so seat 2 (void in spades) throws its most valuable card that is not a master.
    hands = ["JS JS 9S 9S AS AS TS TS", "9H TH AH TD JD JD 9D 9D", "9H TH AD AD TD JC JC 9C",
             "JH JH AH 9C AC AC TC TC"]
    deal = deal_of(hands, "28NT P P P JS 9H")
    assert deal.to_move == 2
    choice = move(deal)
    assert choice in {"9C", "AD", "9H"}   # points to the partner, never a card that wins on its own (J♣)

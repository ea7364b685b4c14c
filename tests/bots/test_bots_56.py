"""The heuristic 56 bot (``rules``): always legal, sensible bids and plays, and clearly better than random."""

from __future__ import annotations

import re
from typing import Any

import pytest

from fiftysix import Deal56, Rules56, view
from fiftysix.bots import BOTS, make_bot
from fiftysix.bots.heuristic.rules56 import AuctionState, Rules56Bot, Table
from fiftysix.core.cards import parse_cards
from fiftysix.games import GAMES

PRESETS = list(GAMES["56"].presets())


def deal_of(hands: list[str], moves: str = "", preset: str = "56-4", dealer: int = 3, **options: Any) -> Deal56:
    rules = Rules56.preset_named(preset, **options)
    deal = Deal56(rules, dealer, [parse_cards(h) for h in hands])
    for m in moves.split():
        deal.push(m)
    return deal


def bot_move(deal: Deal56, seed: int = 1) -> str:
    seat = deal.to_move
    assert seat is not None
    return Rules56Bot(seed).choose(view(deal, seat))


def play_out(deal: Deal56, names: list[str], seed: int) -> Deal56:
    bots = [make_bot(n, seed=seed * 100 + s) for s, n in enumerate(names)]
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        v = view(deal, seat)
        move = bots[seat].choose(v)
        assert move in v["legal"], (move, v["phase"], seat)
        deal.push(move)
    return deal


# 56-4 with the 32-card deck (ranks J 9 A T): teams (0, 2) and (1, 3); dealer 3, so seat 0 calls and leads first.
HANDS = [
    "JS JS 9S AH TH AD TD TC",
    "9S AS AS TS JH 9D AC 9C",
    "TS JH 9H TH JD 9D JC JC",
    "9H AH JD AD TD 9C AC TC",
]


def test_registered_as_the_rules_bot_of_56() -> None:
    assert BOTS.factory("rules", "56") is Rules56Bot
    bot = make_bot("rules", seed=3, game="56")
    assert isinstance(bot, Rules56Bot) and bot.name == "rules"


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_always_legal_over_many_deals(preset: str) -> None:
    rules = Rules56.from_json(preset)
    for seed in range(25):
        names = ["rules"] * rules.players if seed % 2 else ["rules", "random"] * (rules.players // 2)
        deal = play_out(Deal56.from_seed(rules, seed=seed), names, seed)
        assert deal.is_over


@pytest.mark.slow
@pytest.mark.parametrize("options", [{"deck": 32}, {"all_pass": "forced"}, {"double": "closes"},
                                     {"trump": "hidden", "teams": "pairs"}, {"bidding": "announcements"}])
def test_always_legal_with_options(options: dict[str, Any]) -> None:
    rules = Rules56.preset_named("56-4" if "teams" not in options else "56-8", **options)
    for seed in range(15):
        play_out(Deal56.from_seed(rules, seed=seed), ["rules"] * rules.players, seed)


def test_deterministic_for_a_seed() -> None:
    rules = Rules56.from_json("56-6")
    a = play_out(Deal56.from_seed(rules, seed=9), ["rules"] * 6, 4)
    b = play_out(Deal56.from_seed(rules, seed=9), ["rules"] * 6, 4)
    assert a.moves_text() == b.moves_text()


# ---- bidding ---------------------------------------------------------------------------------------

OTHERS = ["AS AS TS TS 9S JS JD JD", "JC JC 9C 9C AC TC TC 9D", "9D AD TD TD AC JH TH 9S"]


def first_call(hand: str) -> str:
    return bot_move(deal_of([hand, *OTHERS], preset="56-4", deck=32))


def test_bids_number_then_suit_with_the_jack_and_length() -> None:
    assert first_call("JH JH 9H 9H AH JS AD TC") == "28H"


def test_bids_suit_then_number_when_strong_without_the_jack() -> None:
    assert first_call("9H 9H AH AH TH TH 9S AD") == "H28"


def test_bids_no_trumps_with_jacks_everywhere() -> None:
    assert first_call("JS 9S JH 9H JD 9D JC AC") == "28NT"


def test_passes_a_weak_hand() -> None:
    assert first_call("TS TS AS AH TH TD AD TC") == "P"


def test_forced_first_call_is_a_bid() -> None:
    deal = deal_of(["TS TS AS AH TH TD AD TC", *OTHERS], preset="56-4", deck=32, all_pass="forced")
    call = bot_move(deal)
    assert call != "P" and call in view(deal, 0)["legal"]


def _table(deal: Deal56) -> tuple[Table, AuctionState, list[str]]:
    v = view(deal, deal.to_move)
    t = Table(v)
    return t, AuctionState(t), v["legal"]


def test_plus_k_form_when_holding_exactly_the_top_cards() -> None:
    # Seat 1 holds exactly J♥ J♥ in hearts after seat 0 opened 28S.
    hands = ["JS JS 9S 9S AS AS TS TS", "JH JH 9D 9D AD AD TD TD", "9H 9H AH AH TH TH JD JD",
             "JC JC 9C 9C AC AC TC TC"]
    deal = deal_of(hands, "28S")
    t, a, legal = _table(deal)
    assert a.value == 28 and a.bidder == 0 and a.last_suit == "S"
    assert Rules56Bot().bid_text(t, a, "H", 29, 40, legal) == "+2H"
    # Without room for +2 it writes the value with the jack form instead.
    assert Rules56Bot().bid_text(t, a, "H", 29, 29, legal) == "29H"


def test_noes_when_void_in_the_last_suit_bid() -> None:
    hands = ["JS JS 9S 9S AS AS TS TS", "JH JH 9D 9D AD AD TD TD", "9H 9H AH AH TH TH JD JD",
             "JC JC 9C 9C AC AC TC TC"]
    deal = deal_of(hands, "28S")
    t, a, legal = _table(deal)
    assert Rules56Bot().bid_text(t, a, "NT", 29, 40, legal) == "29NOES"
    # Seat 2 holds no spades either, but after 29D the last suit named is diamonds (it holds J♦).
    deal.push("29D")
    t, a, legal = _table(deal)
    assert Rules56Bot().bid_text(t, a, "NT", 30, 40, legal) == "30NT"


def test_does_not_overbid_a_partner_without_a_much_better_hand() -> None:
    # Seat 0 opened; seat 2 (partner) has a fair hand of its own and lets the contract stand.
    deal = deal_of(HANDS, "28S P")
    assert bot_move(deal) == "P"


@pytest.mark.slow
def test_doubles_rarely() -> None:
    rules = Rules56.from_json("56-6")
    doubles = calls = 0
    for seed in range(150):
        deal = play_out(Deal56.from_seed(rules, seed=seed), ["rules"] * 6, seed)
        texts = [str(m) for _, m in deal.history if hasattr(m, "kind")]
        calls += len(texts)
        doubles += texts.count("X")
    assert doubles <= calls * 0.02


def test_doubles_with_both_top_trumps_against_a_high_bid() -> None:
    hands = ["AH AH TH TH 9D 9D AD AD", "JH JH 9H 9H JD JD TD TD", "JS JS 9S 9S AS AS TS TS",
             "JC JC 9C 9C AC AC TC TC"]
    deal = deal_of(hands, "36H")
    assert bot_move(deal) == "X"


@pytest.mark.slow
def test_announcements_bidding_makes_legal_raises() -> None:
    rules = Rules56.from_json("56-announce")
    bids = 0
    for seed in range(20):
        deal = play_out(Deal56.from_seed(rules, seed=seed), ["rules"] * 6, seed)
        bids += sum(1 for _, m in deal.history if getattr(m, "kind", "") == "bid")
    assert bids > 20


# ---- trumps ----------------------------------------------------------------------------------------

def test_chooses_its_best_suit_as_trumps() -> None:
    hands = ["JH JH 9H 9H AH AH JS TC", "9S AS AS TS TH 9D AC 9C", "TS JS 9S TH JD 9D JC JC",
             "TD TD JD AD AD 9C AC TC"]
    deal = deal_of(hands, "28NT P P P", trump="chosen")
    assert deal.phase == "trump"
    assert bot_move(deal) == "H"


def test_hidden_trump_declarer_asks_for_it_to_ruff_a_rich_trick() -> None:
    deal = deal_of(HANDS, "P P P H28 P P P H", trump="hidden")
    deal.push("JS")   # seat 0 leads
    deal.push("9S")
    deal.push("TS")
    v = view(deal, 3)
    assert "?" in v["legal"] and v["trump_hidden"] and v["trump"] == "H"
    assert bot_move(deal) == "?"
    deal.push("?")
    assert bot_move(deal) == "AH"   # the cheapest trump that wins


# ---- play ------------------------------------------------------------------------------------------

def test_gives_points_to_a_partner_who_wins_the_trick() -> None:
    deal = deal_of(HANDS, "28S P P P AH JH TH")
    assert deal.to_move == 3 and set(view(deal, 3)["legal"]) == {"9H", "AH"}
    assert bot_move(deal) == "9H"


def test_throws_its_cheapest_card_to_the_opponents() -> None:
    deal = deal_of(HANDS, "28S P P P TC AC JC")
    assert set(view(deal, 3)["legal"]) == {"9C", "AC", "TC"}
    assert bot_move(deal) == "TC"


def test_wins_cheaply_as_last_player() -> None:
    hands = ["AD AD JS JS 9S 9S AS AS", "TD JH JH 9H 9H AH AH TH", "TD TH TS TS JC JC 9C 9C",
             "JD JD 9D 9D AC AC TC TC"]
    deal = deal_of(hands, "28S P P P AD TD TD")
    assert set(view(deal, 3)["legal"]) == {"JD", "9D"}
    assert bot_move(deal) == "9D"


def test_trumps_a_rich_trick_when_void() -> None:
    deal = deal_of(HANDS, "P 28H P P P JS 9S TS")
    v = view(deal, 3)
    assert v["contract"]["strain"] == "H" and "AH" in v["legal"]
    assert bot_move(deal) == "AH"


def test_leads_a_master_card() -> None:
    # Seat 0 holds both J♠: its J♠ is a master that nobody can ruff in no-trumps.
    deal = deal_of(HANDS, "28NT P P P")
    assert bot_move(deal) == "JS"


# ---- strength --------------------------------------------------------------------------------------

def _team_points(preset: str, deals: int, strong: str, weak: str) -> tuple[float, float]:
    """Average card points of the ``strong`` bot's team and of the ``weak`` bot's team over the same
    seeded deals played twice, the teams swapping seats."""
    rules = Rules56.from_json(preset)
    mine = theirs = 0
    for seed in range(deals):
        for swap in (0, 1):
            names = [strong if (rules.team_of[s] == 0) != bool(swap) else weak for s in range(rules.players)]
            deal = play_out(Deal56.from_seed(rules, seed=seed), names, seed)
            team = swap
            mine += deal.points[team]
            theirs += sum(deal.points) - deal.points[team]
    return mine / (2 * deals), theirs / (2 * deals)


@pytest.mark.strength
def test_beats_the_random_bot_by_a_clear_margin() -> None:
    mine, theirs = _team_points("56-6", 200, "rules", "random")
    assert mine + theirs == pytest.approx(56)
    assert mine - theirs >= 10, (mine, theirs)


@pytest.mark.strength
@pytest.mark.parametrize("preset", ["56-4", "56-8", "56-hidden"])
def test_beats_the_random_bot_in_other_presets(preset: str) -> None:
    mine, theirs = _team_points(preset, 40, "rules", "random")
    assert mine - theirs >= 6, (mine, theirs)


@pytest.mark.slow
def test_bid_forms_are_the_standard_ones() -> None:
    rules = Rules56.from_json("56-6")
    forms = re.compile(r"^(P|X|XX|\d+[SHDC]|[SHDC]\d+|\d+NT|\d+NOES|\+\d+[SHDC]|\+\d+NOES)$")
    for seed in range(30):
        deal = play_out(Deal56.from_seed(rules, seed=seed), ["rules"] * 6, seed)
        for _, m in deal.history:
            if hasattr(m, "kind"):
                assert forms.match(str(m)), str(m)

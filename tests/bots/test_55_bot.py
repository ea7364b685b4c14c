"""The 55 heuristic bot: always legal, sensible bids, discards and trumps, the renege privilege, and it
beats random play."""

from __future__ import annotations

import random

import pytest

from fiftysix import view
from fiftysix.bots import make_bot
from fiftysix.bots.heuristic.rules55 import Rules55Bot, estimate
from fiftysix.core.cards import parse_cards
from fiftysix.games.fifty_five import PRESETS, Deal55, Rules55
from helpers.h55 import make, push_all, to_play


def test_registered_for_55() -> None:
    bot = make_bot("rules", seed=1, game="55")
    assert isinstance(bot, Rules55Bot) and bot.name == "rules"


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_always_answers_a_legal_move(preset: str) -> None:
    rules = Rules55.from_json(preset)
    for seed in range(12):
        bots = [Rules55Bot(seed=seed * 10 + s) for s in range(rules.players)]
        d = Deal55.from_seed(rules, seed)
        while not d.is_over:
            v = view(d, d.to_move)
            move = bots[d.to_move or 0].choose(v)
            assert move in v["legal"]
            d.push(move)


STRONG, WEAK = "5H JH AH KH QH", "2C 3D 4S 6D 7H"


def test_bids_on_trumps_and_passes_on_rubbish() -> None:
    big = make("55-9", ["KD QD JD 9D 8D", STRONG, WEAK, "KC QC JC 9C 8C", "KS QS JS 9S 8S", "TD 7D 6S 7S 8H",
                        "TC 7C 6C 3C 5D", "TS 2S 9H 6H 3S", "2H 3H 4H 5S 4D"], kitty="AD AC AS 2D 4C")
    big.push("20")
    assert Rules55Bot(seed=1).choose(view(big, 2)) == "P"           # no trumps to speak of: no 25
    assert estimate(parse_cards(STRONG), 4, 1.0) >= estimate(parse_cards(WEAK), 4, 1.0) + 15
    d = make("55", [STRONG, WEAK, "2D 3C 4C 6C 8C", "9C TC 2H 3H 4H"], kitty="KS QS JS TS 9S")
    assert Rules55Bot(seed=1).choose(view(d, 1)) == "10"            # the cheapest bid first
    push_all(d, "10 P 15")                                           # seat 3 outbids; the dealer holds 5 trumps
    assert Rules55Bot(seed=1).choose(view(d, 0)) == "HOLD"


def test_raises_in_the_hold_duel_only_with_the_cards_for_it() -> None:
    d = push_all(make("55", [WEAK, STRONG, "2D 3C 4C 6C 8C", "9C TC 2H 3H 4H"], kitty="KS QS JS TS 9S"),
                 "10 P P HOLD")
    assert d.to_move == 1 and Rules55Bot(seed=1).choose(view(d, 1)) == "15"
    d = push_all(make("55", [STRONG, WEAK, "2D 3C 4C 6C 8C", "9C TC 2H 3H 4H"], kitty="KS QS JS TS 9S"),
                 "10 P P HOLD 25")
    assert d.to_move == 0 and Rules55Bot(seed=1).choose(view(d, 0)) == "HOLD"


def test_discards_plain_cards_and_names_its_suit() -> None:
    d = push_all(make("55-2", ["5H JH 2D 3D 4D", "KC QC JC 9C 7C"], kitty="AH KH 2S 3S 4S"), "P 10")
    assert d.phase == "discard" and d.to_move == 0
    bot = Rules55Bot(seed=1)
    discard = bot.choose(view(d, 0))
    assert set(discard.split()) == {"4D", "3D", "2D", "4S", "3S"}   # keeps its hearts and the 2♠ (low in black)
    d.push(discard)
    assert bot.choose(view(d, 0)) == "H"


def test_keeps_the_privileged_trumps_back_on_a_low_trump_lead() -> None:
    kitty = "5D 6D 7D 8D 9D"
    for keep in ("5S", "JS", "AH"):
        hands = ["KD QD JD TD 4D", "9S KC QC 8C 7C", f"{keep} 2H 3H 4H 6H"]
        d = to_play(make("55-3", hands, kitty=kitty), kitty, "S", auction="10 P P")
        d.push("9S")
        v = view(d, 2)
        assert len(v["legal"]) == 5
        assert Rules55Bot(seed=1).choose(v) == "2H"   # seat 0 is still to play: keep it back


def test_wins_a_low_trump_lead_cheaply_as_the_last_player() -> None:
    kitty = "5D 6D 7D 8D 9D"
    d = to_play(make("55-2", ["5S JS 3H 4H 6H", "9S KC QC 8C 7C"], kitty=kitty), kitty, "S", auction="10 P")
    d.push("9S")
    assert Rules55Bot(seed=1).choose(view(d, 0)) == "JS"


def test_draws_trumps_with_the_best_trump_out() -> None:
    kitty = "5D 6D 7D 8D 9D"
    d = to_play(make("55-2", ["KH QH 3H 4H 6H", "5S JS KC QC 7C"], kitty=kitty), kitty, "S", auction="10 P")
    assert Rules55Bot(seed=1).choose(view(d, 1)) == "5S"


@pytest.mark.strength
def test_beats_random_players() -> None:
    rules = Rules55.from_json("55")
    totals = {"rules": 0, "random": 0}
    rng = random.Random(7)
    for seed in range(120):
        kinds = ["rules", "random", "rules", "random"] if seed % 2 else ["random", "rules", "random", "rules"]
        bots = [make_bot(k, seed=rng.randrange(1 << 30), game="55") for k in kinds]
        d = Deal55.from_seed(rules, seed)
        while not d.is_over:
            d.push(bots[d.to_move or 0].choose(view(d, d.to_move)))
        score = d.score()
        assert score is not None
        for s, k in enumerate(kinds):
            totals[k] += score[s]
    assert totals["rules"] > totals["random"] + 500

"""``pimc``: Perfect Information Monte Carlo for 56 and 55 (few samples here, to keep the tests fast)."""

from __future__ import annotations

from typing import Any

import pytest

from fiftysix import Deal55, Deal56, Rules55, Rules56, view
from fiftysix.bots import BOTS, make_bot
from fiftysix.bots.kits import kit_for
from fiftysix.bots.protocol import bot_from_spec
from fiftysix.bots.search.pimc import PimcBot
from fiftysix.core.cards import Card, parse_cards
from fiftysix.solver import Position, card_values, kernel_available

pytestmark = pytest.mark.skipif(not kernel_available(), reason="numba (extra 'solver') is not installed")

QUICK = {"samples": 4, "bid_samples": 24}


def quick(seed: int = 1, **options: Any) -> PimcBot:
    return PimcBot(seed=seed, **{**QUICK, **options})


def play_out(deal: Any, bots: list[Any]) -> Any:
    while not deal.is_over:
        seat = deal.to_move
        v = view(deal, seat)
        move = bots[seat].choose(v)
        assert move in v["legal"], (move, v["phase"], seat)
        if isinstance(bots[seat], PimcBot):   # the search ran (no exception sent it to the fallback)
            assert bots[seat].last.get("how") != "fallback", bots[seat].last
        deal.push(move)
    return deal


def test_registered_for_both_games_with_options() -> None:
    assert BOTS.factory("pimc", "56") is not None and BOTS.factory("pimc", "55") is not None
    assert isinstance(make_bot("pimc", seed=1, game="56"), PimcBot)
    bot = bot_from_spec("pimc,samples=3,fast=true,time_limit=0.5", seed=2, game="55")
    assert isinstance(bot, PimcBot) and bot.samples == 3 and bot.fast and bot.time_limit == 0.5
    with pytest.raises(ValueError):
        PimcBot(samples=0)


@pytest.mark.parametrize(("preset", "options"), [
    ("56-4", {"deck": 32}), ("56-6", {}), ("56-hidden", {}), ("56-announce", {}), ("56-pairs-6", {}),
    ("56-4", {"trump": "chosen", "deck": 32}),
])
@pytest.mark.slow
def test_always_legal_in_56(preset: str, options: dict[str, Any]) -> None:
    rules = Rules56.preset_named(preset, **options)
    for seed in range(2):
        bots = [quick(seed * 10 + s, time_limit=0.3) if s % 2 == seed % 2 else make_bot("rules", seed=s)
                for s in range(rules.players)]
        assert play_out(Deal56.from_seed(rules, seed=seed), bots).is_over


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["55", "55-teams-4", "55-6"])
def test_always_legal_in_55(preset: str) -> None:
    rules = Rules55.preset_named(preset)
    for seed in range(3):
        bots = [make_bot("pimc", seed=s, game="55") if s % 2 == 0 else make_bot("rules", seed=s, game="55")
                for s in range(rules.players)]
        for b in bots:
            if isinstance(b, PimcBot):
                b.samples, b.time_limit = 4, 0.3
        assert play_out(Deal55.from_seed(rules, seed=seed), bots).is_over


@pytest.mark.strength
def test_endgames_pick_the_double_dummy_best_card_most_of_the_time() -> None:
    # 56-4 with 32 cards, played by the rules bot to three tricks before the end: the unseen cards are
    # few, so PIMC should mostly find the card that is best with every hand known.
    rules = Rules56.preset_named("56-4", deck=32)
    agree = total = 0
    for seed in range(12):
        deal = Deal56.from_seed(rules, seed=seed)
        bots = [make_bot("rules", seed=s) for s in range(4)]
        while not deal.is_over and (deal.phase != "play" or len(deal.hands[deal.to_move]) > 3):
            s = deal.to_move
            deal.push(bots[s].choose(view(deal, s)))
        if deal.is_over:
            continue
        v = view(deal, deal.to_move)
        if len(v["legal"]) < 2:
            continue
        choice = PimcBot(seed=seed, samples=16).choose(v)
        values = card_values(Position.from_deal(deal))
        total += 1
        agree += values[Card.parse(choice)] == max(values.values())
    assert total >= 6 and agree >= 0.7 * total, (agree, total)


def test_depths_and_last_decision_report() -> None:
    k56, k55 = kit_for("56"), kit_for("55")
    assert k56.dd_tricks(6) == (5, 6) and k56.dd_tricks(6, fast=True) == (4, 5)
    assert k55.dd_tricks(4) == (5, 5) and k55.dd_tricks(9)[0] < 5
    rules = Rules56.preset_named("56-4", deck=32)
    deal = Deal56.from_seed(rules, seed=3)
    bot = quick()
    move = bot.choose(view(deal, deal.to_move))
    assert bot.last["how"] in ("simulation", "only move") and move in view(deal, deal.to_move)["legal"]
    assert bot.last["seconds"] >= 0


# ---- auction --------------------------------------------------------------------------------------------

OTHERS = ["AS AS TS TS 9S JS JD JD", "JC JC 9C 9C AC TC TC 9D", "9D AD TD TD AC JH TH 9S"]


def first_call(hand: str, **options: Any) -> str:
    rules = Rules56.preset_named("56-4", deck=32, **options)
    deal = Deal56(rules, 3, [parse_cards(h) for h in [hand, *OTHERS]])
    return PimcBot(seed=5, bid_samples=60).choose(view(deal, 0))


def test_bids_a_strong_hand_in_its_informative_form() -> None:
    assert first_call("JH JH 9H 9H AH JS AD TC") == "28H"


def test_passes_a_weak_hand() -> None:
    assert first_call("TS TS AS AH TH TD AD TC") == "P"


def test_forced_opening_is_a_bid() -> None:
    call = first_call("TS TS AS AH TH TD AD TC", all_pass="forced")
    assert call != "P"


def test_names_its_best_suit_as_trumps() -> None:
    rules = Rules56.preset_named("56-4", deck=32, trump="chosen")
    hands = ["JH JH 9H 9H AH AH JS TC", "9S AS AS TS TH 9D AC 9C", "TS JS 9S TH JD 9D JC JC",
             "TD TD JD AD AD 9C AC TC"]
    deal = Deal56(rules, 3, [parse_cards(h) for h in hands])
    for m in ["28NT", "P", "P", "P"]:
        deal.push(m)
    assert deal.phase == "trump"
    assert PimcBot(seed=1, bid_samples=40).choose(view(deal, 0)) == "H"


def test_a_failing_search_falls_back_to_a_legal_move(monkeypatch: pytest.MonkeyPatch) -> None:
    from fiftysix.bots import sampling

    def broken(*args: Any, **kwargs: Any) -> None:
        raise sampling.SamplingError("no deal")

    monkeypatch.setattr(sampling.DealSampler, "__init__", broken)
    rules = Rules56.preset_named("56-4", deck=32)
    deal = Deal56.from_seed(rules, seed=1)
    bot = quick()
    v = view(deal, deal.to_move)
    assert bot.choose(v) in v["legal"] and bot.last["how"] == "fallback"

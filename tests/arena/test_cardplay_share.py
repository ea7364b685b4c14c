"""The card-play share (issue 47): X / G over deal pairs, its delta-method interval, and the all-seeing reference
whose calls ``rules`` makes."""

from __future__ import annotations

import math
from typing import Any

import pytest

from fiftysix.arena import ArenaConfig
from fiftysix.arena.cardplay import GAP_BOT, card_bot, ratio_ci, share_document
from fiftysix.arena.duplicate import check_bots
from fiftysix.arena.oracle import Oracle
from fiftysix.arena.stats import t975
from fiftysix.bots import make_bot
from fiftysix.games import game_of_preset
from fiftysix.views import view


def test_the_share_of_made_up_pairs() -> None:
    x, g = [1.0, 0.0, 2.0, 1.0], [2.0, 2.0, 2.0, 2.0]
    got = ratio_ci(x, g)
    assert got["mean"] == pytest.approx(0.5)     # mean 1 of a mean gap of 2
    # x - 0.5 g = [0, -1, 1, 0]: sd sqrt(2/3); half width t(3) * sd / (sqrt(4) * 2)
    half = t975(3) * math.sqrt(2 / 3) / 4
    assert got["ci95"] == pytest.approx([0.5 - half, 0.5 + half])
    assert (got["n"], got["method"]) == (4, "delta")
    # a bot that closes the whole gap on every deal: share 1, no width
    assert ratio_ci([1.0, 3.0], [1.0, 3.0])["ci95"] == pytest.approx([1.0, 1.0])
    with pytest.raises(ValueError, match="gap is 0"):
        ratio_ci([1.0, -1.0], [1.0, -1.0])
    with pytest.raises(ValueError, match="pairs must match"):
        ratio_ci([1.0], [1.0, 2.0])


def summary(first: str, rows: dict[int, float]) -> dict[str, Any]:
    return {"game": "56", "rules": {"preset": "56-6"}, "seed": 424242, "unit": "tables",
            "bots": [{"bot": first}, {"bot": "rules"}],
            "per_deal": [{"deal": d, "scores": [s, 0.0]} for d, s in rows.items()]}


def test_the_share_pairs_the_two_runs_by_deal() -> None:
    x = summary(card_bot("pimc,fast=true"), {0: 1.0, 1: 0.0, 2: 2.0, 3: 1.0, 7: 9.0})
    g = summary(GAP_BOT, {3: 2.0, 2: 2.0, 1: 2.0, 0: 2.0})     # deal 7 only in x: left out
    doc = share_document(x, g)
    assert doc["pairs"] == 4 and doc["share"]["mean"] == pytest.approx(0.5)
    assert doc["x"]["mean"] == pytest.approx(1.0) and doc["g"]["mean"] == pytest.approx(2.0)
    with pytest.raises(ValueError, match="must be cardplay"):
        share_document(summary("pimc", {0: 1.0}), g)
    with pytest.raises(ValueError, match="differ in seed"):
        share_document({**x, "seed": 1}, g)


def test_the_oracle_with_rules_calls_calls_as_rules() -> None:
    check_bots(ArenaConfig("56-6", (GAP_BOT, "rules"), deals=1))
    check_bots(ArenaConfig("56-6", (card_bot("pimc,fast=true"), "rules"), deals=1))
    with pytest.raises(ValueError, match="calls must be one of"):
        check_bots(ArenaConfig("56-6", ("oracle,calls=pimc", "rules"), deals=1))
    game = game_of_preset("56-4")
    rules = game.rules_from_json("56-4")
    calls = differ = 0
    for seed in range(3):
        deal = game.new_deal(rules, seed=seed)
        while deal.phase != "play":
            seat = deal.to_move
            move = Oracle(seed=seed, calls="rules").choose_seeing(deal, seat)
            assert move == make_bot("rules", seed=seed, game="56").choose(view(deal, seat))
            calls += 1
            differ += Oracle(seed=seed).choose_seeing(deal, seat) != move
            deal.push(move)
    assert calls > 0 and differ > 0   # seeing the hands it would have called otherwise somewhere

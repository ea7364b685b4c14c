"""A match counts its booked deals itself and keeps none of them (a long-running server plays many)."""

from __future__ import annotations

import random

import pytest

from fiftysix.core.deal import Deal
from fiftysix.games import game_of_preset


def _holds_a_deal(value: object) -> bool:
    if isinstance(value, Deal):
        return True
    if isinstance(value, (list, tuple, set)):
        return any(_holds_a_deal(v) for v in value)
    if isinstance(value, dict):
        return any(_holds_a_deal(v) for v in value.values())
    return False


@pytest.mark.parametrize("preset", ["56-4", "56-6", "55", "55-6"])
def test_a_match_counts_its_deals_and_keeps_none(preset: str) -> None:
    game = game_of_preset(preset)
    rules = game.rules_from_json(preset)
    for seed in range(3):
        match = game.new_match(rules, seed=seed)
        rng = random.Random(seed)
        booked = 0
        while not match.over and booked < 40:
            assert match.deal_number == booked + 1 == match.deals_booked + 1
            deal = match.new_deal()
            while not deal.is_over:
                legal = deal.legal_moves()
                deal.push(legal[rng.randrange(len(legal))])
            match.finish(deal)
            booked += 1
            assert match.deals_booked == booked == len(match.results)
            assert not any(_holds_a_deal(v) for v in vars(match).values())

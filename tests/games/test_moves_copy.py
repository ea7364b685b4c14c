"""A copied or unpickled deal keeps the call constants the auctions tell by identity (P, X, XX, HOLD)."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from fiftysix import game_of_preset


@pytest.mark.parametrize("preset", ["56-4", "56-announce", "55", "55-6"])
def test_a_copied_deal_plays_on_like_the_original(preset: str) -> None:
    game = game_of_preset(preset)
    rules = game.rules_from_json(preset)
    for seed in range(30):
        rng = random.Random(seed)
        deal = game.new_deal(rules, seed=seed)
        while not deal.is_over:
            legal = deal.legal_moves()          # cached: the copies below carry the cache
            twin = copy.deepcopy(deal) if rng.random() < 0.5 else pickle.loads(pickle.dumps(deal))
            move = legal[rng.randrange(len(legal))]
            deal.push(move)
            twin.push(twin.legal_moves()[legal.index(move)])
            assert twin.moves_text() == deal.moves_text()
            assert twin.phase == deal.phase and twin.to_move == deal.to_move
            assert [str(m) for m in twin.legal_moves()] == [str(m) for m in deal.legal_moves()]

"""The 56 contract model fitted on double-dummy values (``pimc,contract_model=solver``): where it applies,
what it changes (the calls' chances, nothing else), and a clear error for an unknown model."""

from __future__ import annotations

import pytest

from fiftysix.bots.heuristic.pimc_weights56 import MODELS, SOLVER_WEIGHTS, WEIGHTS
from fiftysix.bots.heuristic.simulate56 import features, residual, shape_key, team_estimate
from fiftysix.bots.protocol import bot_from_spec
from fiftysix.bots.search.pimc import CONTRACT_MODELS, PimcBot
from fiftysix.games import game_of_preset
from helpers.positions56 import auction_views


def test_an_unknown_model_is_refused_naming_the_models() -> None:
    with pytest.raises(ValueError, match="contract_model must be one of rules, solver, not 'dd'"):
        bot_from_spec("pimc,contract_model=dd", seed=1, game="56")
    assert bot_from_spec("sage,contract_model=solver", seed=1, game="56").contract_model == "solver"
    assert set(CONTRACT_MODELS) == set(MODELS)   # the bot's list (it names no game) and the 56 kit's tables


@pytest.mark.parametrize("preset", ["56-6", "56-4"])
def test_the_solver_model_applies_where_it_was_fitted_and_the_rules_model_elsewhere(preset: str) -> None:
    game = game_of_preset(preset)
    rules = game.rules_from_json(preset)
    fitted = SOLVER_WEIGHTS.get(shape_key(rules))
    assert (fitted is not None) == (preset == "56-6")
    used = fitted or WEIGHTS[shape_key(rules)]
    for seed in range(5):
        deal = game.new_deal(rules, seed=seed)
        for strain in (0, 1, 2, 3, None):
            x = features(deal.dealt, rules.team_of, 0, strain, deal.first_hand)
            coef = used["nt" if strain is None else "suit"]
            want = sum(a * b for a, b in zip(coef, x, strict=True))
            got = team_estimate(rules, deal.dealt, 0, strain, deal.first_hand, "solver")
            assert got == pytest.approx(want)
            assert (got == pytest.approx(team_estimate(rules, deal.dealt, 0, strain, deal.first_hand))) == (
                fitted is None)
    assert residual(rules, None, "solver") == used["rms_nt"]


def test_the_model_changes_the_calls_chances_and_only_those() -> None:
    """Same seed, same samples: the two bots sample alike; their chances differ, and each call is legal."""
    differ = 0
    for v in auction_views("56-6", 4):
        if len(v["legal"]) < 2:  # type: ignore[arg-type]
            continue
        plain = PimcBot(seed=5, bid_samples=30, time_limit=None)
        solved = PimcBot(seed=5, bid_samples=30, time_limit=None, contract_model="solver")
        a, b = plain.choose(v), solved.choose(v)
        assert a in v["legal"] and b in v["legal"]  # type: ignore[operator]
        # the calls weighed are the same, but for a double (offered when the standing contract looks lost)
        assert plain.last["samples"] == solved.last["samples"]
        assert plain.last["scores"].keys() - {"X", "XX"} == solved.last["scores"].keys() - {"X", "XX"}
        differ += plain.last["chances"] != solved.last["chances"]
    assert differ > 0

"""``cardplay``: every call made by ``rules``, every card by the named bot (issue 47)."""

from __future__ import annotations

import pytest

from fiftysix.bots import make_bot
from fiftysix.bots.protocol import bot_from_spec
from fiftysix.bots.search.pimc import PimcBot
from fiftysix.games import game_of_preset
from fiftysix.server.table.hub import bot_names
from fiftysix.views import view

# no CPU-time limit, few samples: the same seed then gives the same move in the wrapper and outside it
CARDS = {"fast": True, "samples": 4, "bid_samples": 10, "time_limit": 0}
SPEC = "cardplay,cards=pimc," + ",".join(f"{k}={str(v).lower()}" for k, v in CARDS.items())


def test_cardplay_calls_as_rules_and_plays_as_its_card_bot() -> None:
    game = game_of_preset("56-4")
    rules = game.rules_from_json("56-4")
    calls = cards = differ = 0
    for seed in range(3):
        deal = game.new_deal(rules, seed=seed)
        drivers = [make_bot("rules", seed=seed * 10 + s, game="56") for s in range(rules.players)]
        while not deal.is_over:
            v = view(deal, deal.to_move)
            late = v["phase"] != "play" or len(deal.hands[deal.to_move]) <= 4
            if len(v["legal"]) > 1 and late:
                move = bot_from_spec(SPEC, seed=seed, game="56").choose(v)    # a fresh bot: the same random state
                by_rules = make_bot("rules", seed=seed, game="56").choose(v)
                by_pimc = PimcBot(seed=seed, **CARDS).choose(v)  # type: ignore[arg-type]
                if v["phase"] == "play":
                    assert move == by_pimc, (seed, v["phase"], move, by_pimc)
                    cards += 1
                else:
                    assert move == by_rules, (seed, v["phase"], move, by_rules)
                    calls += 1
                    differ += by_pimc != by_rules
            deal.push(drivers[deal.to_move].choose(v))
    assert calls > 0 and cards > 0
    assert differ > 0    # pimc alone would have called otherwise somewhere: the calls are really rules'


def test_cardplay_needs_a_card_bot() -> None:
    with pytest.raises(ValueError, match="cards=NAME"):
        bot_from_spec("cardplay", seed=1, game="56")
    with pytest.raises(ValueError, match="unknown bot 'nobot'"):
        bot_from_spec("cardplay,cards=nobot", seed=1, game="56")
    with pytest.raises(ValueError, match="bot cardplay"):
        bot_from_spec("cardplay,cards=pimc,nonsense=1", seed=1, game="56")


def test_cardplay_is_made_by_spec_only_not_offered_to_tables() -> None:
    for game in ("56", "55"):
        assert "cardplay" not in bot_names(game) and "rules" in bot_names(game)
        assert bot_from_spec("cardplay,cards=rules", seed=1, game=game).name == "cardplay"

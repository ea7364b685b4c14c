"""The all-seeing ``oracle``: arena only (no view can make it play), and on the true deal it plays the card the
solver says is best."""

from __future__ import annotations

import pytest

from fiftysix.arena import ArenaConfig
from fiftysix.arena.duplicate import check_bots, run_chunk
from fiftysix.arena.oracle import Oracle
from fiftysix.bots import make_bot
from fiftysix.bots.protocol import bot_from_spec
from fiftysix.games import game_of_preset
from fiftysix.server.state.table import TableError
from fiftysix.server.table.hub import bot_names, creation_event
from fiftysix.solver import Position, card_values
from fiftysix.views import view


def test_oracle_is_not_a_bot_the_server_or_a_view_can_make() -> None:
    for game in ("56", "55"):
        assert "oracle" not in bot_names(game)
    with pytest.raises(TableError, match="fill must be one of"):
        creation_event("host", "Host", {"preset": "56-6", "fill": "oracle"})
    with pytest.raises(ValueError, match="unknown bot 'oracle'"):
        make_bot("oracle")
    with pytest.raises(ValueError, match="unknown bot 'oracle'"):
        bot_from_spec("oracle")
    assert not hasattr(Oracle(seed=1), "choose")    # only choose_seeing(deal, seat)


def test_the_arena_accepts_the_oracle_and_refuses_bad_options() -> None:
    check_bots(ArenaConfig("56-4", ("oracle", "rules"), deals=1))
    with pytest.raises(ValueError, match="oracle"):
        check_bots(ArenaConfig("56-4", ("oracle,nonsense=1", "rules"), deals=1))


@pytest.mark.parametrize("seed", range(4))
def test_oracle_plays_a_best_card_on_the_true_deal(seed: int) -> None:
    game = game_of_preset("56-4")
    rules = game.rules_from_json("56-4")
    deal = game.new_deal(rules, seed=seed)
    oracle = Oracle(seed=seed)
    drivers = [make_bot("rules", seed=seed * 10 + s, game="56") for s in range(rules.players)]
    judged = 0
    while not deal.is_over:
        seat = deal.to_move
        if deal.phase == "play" and deal.revealed and len(deal.hands[seat]) <= 4:
            move = oracle.choose_seeing(deal, seat)
            if move not in ("?", "CLAIM"):
                values = {str(c): v for c, v in card_values(Position.from_deal(deal)).items()}
                assert values[move] == max(values.values()), (move, values)
                judged += 1
            deal.push(move)
        else:
            deal.push(drivers[seat].choose(view(deal, seat)))
    assert judged > 0


def test_oracle_plays_whole_arena_deals_without_faults() -> None:
    result = run_chunk(ArenaConfig("56-4", ("oracle", "rules"), deals=1, seed=5), [0])
    assert len(result.plays) == 2
    assert all(not t.faults for t in result.tallies)

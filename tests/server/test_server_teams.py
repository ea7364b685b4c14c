"""After a 56 team is out the survivors' deal numbers their teams afresh; the page names and colours teams by
their match team, which ``match_teams`` gives for every deal team."""

from __future__ import annotations

import random

from fiftysix.games import game_of_preset
from fiftysix.server.table.messages import match_teams


def test_match_teams_follow_survivors_after_eliminations() -> None:
    game = game_of_preset("56-pairs-8")
    rules = game.rules_from_json({"preset": "56-pairs-8", "tables": 2})
    reseated = 0
    for seed in range(40):
        match = game.new_match(rules, first_dealer=0, seed=seed)
        rng = random.Random(seed)
        while not match.over:
            deal = match.new_deal()
            mapping = match_teams(match, match.deal_rules)
            assert len(mapping) == match.deal_rules.n_teams
            for ds, original_seat in enumerate(match.seats):
                assert mapping[match.deal_rules.team_of[ds]] == rules.team_of[original_seat]
            reseated += len(match.seats) < rules.players
            while not deal.is_over:
                legal = deal.legal_moves()
                deal.push(legal[rng.randrange(len(legal))])
            match.finish(deal)
    assert reseated > 0   # some deals were played by survivors


def test_without_a_match_deal_teams_are_match_teams() -> None:
    game = game_of_preset("55-teams-4")
    rules = game.rules_from_json("55-teams-4")
    assert match_teams(None, rules) == list(range(rules.n_teams))
    assert match_teams(game.new_match(rules, first_dealer=0, seed=1), rules) == list(range(rules.n_teams))

"""The ismcts bot: legal moves in every phase of every variant, seeded, and stronger than random."""

from __future__ import annotations

import pytest

from fiftysix.arena import ArenaConfig, run_arena, summarize
from fiftysix.bots import make_bot
from fiftysix.bots.search.ismcts import IsmctsBot
from fiftysix.games import game_of_preset
from fiftysix.views import view


@pytest.mark.slow
@pytest.mark.parametrize("calls", ["search", "pimc"])
@pytest.mark.parametrize("preset", ["56-4", "56-6", "56-hidden", "56-announce", "56-pairs-6", "55", "55-teams-4"])
def test_always_legal(preset: str, calls: str) -> None:
    game = game_of_preset(preset)
    rules = game.rules_from_json(preset)
    phases = set()
    for seed in range(2):
        deal = game.new_deal(rules, seed=seed)
        bots = [IsmctsBot(seed=s, iterations=12, calls=calls) if s % 2 == 0 else make_bot("random", s, game.name)
                for s in range(rules.players)]
        while not deal.is_over:
            seat = deal.to_move
            v = view(deal, seat)
            move = bots[seat].choose(v)
            assert move in v["legal"]
            phases.add(deal.phase)
            deal.push(move)
    assert "play" in phases or game.name == "55"


def test_registered_and_seeded() -> None:
    game = game_of_preset("56-6")
    deal = game.new_deal(game.rules_from_json("56-6"), seed=4)
    deal.push("28NT")
    for _ in range(5):
        deal.push("P")
    v = view(deal, deal.to_move)
    a = make_bot("ismcts", seed=1)
    assert isinstance(a, IsmctsBot)
    a.iterations = b_iterations = 40
    a.search_from = 0       # search the first card too
    b = IsmctsBot(seed=1, iterations=b_iterations, search_from=0)
    assert a.choose(v) == b.choose(v)
    assert 40 <= a.last_iterations < 40 + len(v["legal"])    # paired: whole deals' worth of root moves
    unpaired = IsmctsBot(seed=1, iterations=40, search_from=0, paired=False)
    unpaired.choose(v)
    assert unpaired.last_iterations == 40
    quick = IsmctsBot(seed=1, iterations=10**6, time_limit=0.05, search_from=0)
    quick.choose(v)
    assert 1 <= quick.last_iterations < 10**6


@pytest.mark.strength
def test_beats_random() -> None:
    config = ArenaConfig("56-4", ("ismcts,iterations=25", "random"), deals=6, seed=12)
    result, elapsed = run_arena(config)
    summary = summarize(config, result, elapsed)
    diff = summary["bots"][0]["paired_difference"]
    assert diff["mean"] > 0 and diff["ci95"][0] > 0


@pytest.mark.parametrize("preset", ["56-6", "55"])
def test_calls_by_another_bot(preset: str) -> None:
    """With ``calls=rules`` every call, trump choice and discard is the rules bot's; the play is searched."""
    game = game_of_preset(preset)
    rules = game.rules_from_json(preset)
    deal = game.new_deal(rules, seed=3)
    bot = IsmctsBot(seed=5, iterations=8, calls="rules")
    reference = make_bot("rules", seed=5, game=game.name)
    delegated = 0
    while not deal.is_over:
        v = view(deal, deal.to_move)
        move = bot.choose(v)
        if deal.phase != "play" and len(v["legal"]) > 1:
            assert move == reference.choose(v)
            delegated += 1
        deal.push(move)
    assert delegated >= 1


def test_calls_option_checked() -> None:
    with pytest.raises(ValueError, match="calls must be one of search, rules, pimc"):
        IsmctsBot(calls="oracle")


@pytest.mark.parametrize("preset", ["56-6", "56-4"])
def test_solved_leaves_agree_with_double_dummy_play(preset: str) -> None:
    """An iteration that stops with few cards left (at a trick's start or within one) is rewarded as if the rest were
    played double dummy: the same rewards as playing the solver's best card at every turn to the end."""
    from fiftysix.bots.kits import kit_for
    from fiftysix.solver import Position, card_values

    game = game_of_preset(preset)
    rules = game.rules_from_json(preset)
    policy = kit_for("56").ismcts_policy()
    checked = 0
    for seed in range(6):
        deal = game.new_deal(rules, seed=seed)
        bots = [make_bot("rules", s, "56") for s in range(rules.players)]
        mid_trick = seed % 2 == 1     # solved leaves start anywhere in a trick
        while not deal.is_over and not (deal.phase == "play" and bool(deal.trick_cards) == mid_trick
                                         and len(deal.hands[deal.to_move]) <= 3):
            deal.push(bots[deal.to_move].choose(view(deal, deal.to_move)))
        if deal.is_over:
            continue
        expected_from = deal.copy()
        rewards = policy.solved_rewards(deal)
        line = expected_from
        while not line.is_over:
            values = card_values(Position.from_deal(line))
            line.push(max(values, key=lambda c: values[c]))
        assert rewards == pytest.approx(policy.rewards(line))
        checked += 1
    assert checked >= 3


def _play_views(preset: str, seed: int, cards_at_most: int = 99) -> list[dict]:  # type: ignore[type-arg]
    """The play views of one deal driven by rules bots (those with a choice and at most so many cards held)."""
    game = game_of_preset(preset)
    deal = game.new_deal(game.rules_from_json(preset), seed=seed)
    drivers = [make_bot("rules", s, "56") for s in range(deal.rules.players)]
    out = []
    while not deal.is_over:
        v = view(deal, deal.to_move)
        if deal.phase == "play" and len(v["legal"]) > 1 and len(v["hand"]) <= cards_at_most:
            out.append(v)
        deal.push(drivers[deal.to_move].choose(v))
    return out


@pytest.mark.slow
def test_plays_the_rules_card_before_its_search_depth() -> None:
    """Holding more cards than ``search_from`` the bot plays the ``rules`` card without searching; at or
    below it, it searches."""
    bot = IsmctsBot(seed=2, iterations=20, search_from=5)
    reference = make_bot("rules", seed=2, game="56")
    searched = early = 0
    for v in _play_views("56-6", 7):
        move = bot.choose(v)
        bot_searched = bot.last_iterations > 0
        bot.last_iterations = 0
        if len(v["hand"]) > 5:
            assert move == reference.choose(v) and not bot_searched
            early += 1
        else:
            assert move in v["legal"]
            searched += bot_searched
    assert early >= 3 and searched >= 3
    assert IsmctsBot().search_depth(_play_views("56-6", 7)[0]) == 6     # pimc's depth at six players
    assert IsmctsBot(search_from=0).search_depth(_play_views("56-4", 7)[0]) == 99


@pytest.mark.slow
def test_prior_pulls_the_search_to_the_rules_card() -> None:
    """A prior far above any reward makes the ``rules`` card the most visited; without one the search
    decides alone (and differs somewhere)."""
    reference = make_bot("rules", seed=3, game="56")
    strong = IsmctsBot(seed=3, iterations=40, search_from=0, prior=1e6)
    free = IsmctsBot(seed=3, iterations=40, search_from=0, prior=0)
    views = _play_views("56-6", 11) + _play_views("56-6", 12)
    assert all(strong.choose(v) == reference.choose(v) for v in views)
    assert any(free.choose(v) != reference.choose(v) for v in views)


def test_paired_sampling_tries_every_card_on_every_sampled_deal() -> None:
    """Paired, each sampled deal is played once after every card in hand: the visits are equal; UCB alone
    spends them unevenly."""
    views = [v for v in _play_views("56-6", 5, cards_at_most=6) if len(v["legal"]) >= 3 and "?" not in v["legal"]]
    assert views
    v = views[0]
    paired = IsmctsBot(seed=4, iterations=60, prior=0)
    paired.choose(v)
    assert set(paired.last_visits) == set(v["legal"]) - {"CLAIM"}
    assert len(set(paired.last_visits.values())) == 1
    free = IsmctsBot(seed=4, iterations=60, prior=0, paired=False)
    free.choose(v)
    assert sum(free.last_visits.values()) == 60 and len(set(free.last_visits.values())) > 1

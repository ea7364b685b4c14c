"""Each game's fixed vocabulary (what a fixed action space is built from, :class:`GameSpec` ``call_vocabulary``,
``auction_bound``, ``kitty_size``, ``choice_texts``, ``score_range``) covers every deal the engine can play."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fiftysix.core.cards import Card
from fiftysix.core.deal import AUCTION
from fiftysix.core.errors import RecordError
from fiftysix.core.moves import PASS, Call, Discard
from fiftysix.games import GAMES, game_of_preset

ALL = [p for g in GAMES.values() for p in g.presets()]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(ALL), st.integers(0, 10**6), st.floats(0.2, 0.9))
def test_every_deal_stays_within_the_games_vocabulary(preset: str, seed: int, passing: float) -> None:
    """Random deals (auctions from short to drawn out): every call made is in the call vocabulary, every move
    besides calls, cards and discards is a choice text, the auction fits the bound, the score the range."""
    game = game_of_preset(preset)
    rules = game.rules_from_json(preset)
    calls = {c.text for c in game.call_vocabulary(rules)}
    choices = set(game.choice_texts(rules))
    scores = game.score_range(rules)
    rng = random.Random(seed)
    deal = game.new_deal(rules, seed=seed)
    auction = 0
    while not deal.is_over:
        legal = deal.legal_moves()
        for m in legal:
            if isinstance(m, Call):
                assert m.text in calls, (preset, m.text)
            elif not isinstance(m, Card | Discard):
                assert str(m) in choices, (preset, str(m))
        if deal.phase == AUCTION:
            auction += 1
            move = PASS if PASS in legal and rng.random() < passing else rng.choice(legal)
        else:
            move = rng.choice(legal)
        deal.push(move)
    assert auction <= game.auction_bound(rules)
    score = deal.result().get("score")
    if score:
        assert all(scores.lowest <= s <= scores.highest for s in score), (preset, score, scores)
        if scores.zero_sum:
            assert sum(score) == 0, (preset, score)


def test_the_vocabulary_is_fixed_without_repeats() -> None:
    """Calls are named once each, and choices once each, in the same order every time; a record's kitty has
    the kitty's size."""
    for preset in ALL:
        game = game_of_preset(preset)
        rules = game.rules_from_json(preset)
        calls = [c.text for c in game.call_vocabulary(rules)]
        choices = game.choice_texts(rules)
        # (a call and a choice may share a text: 56's announced "NT" bid and the trump choice NT)
        assert len(calls) == len(set(calls)) and len(choices) == len(set(choices)), preset
        assert calls == [c.text for c in game.call_vocabulary(rules)] and choices == game.choice_texts(rules)
        deal = game.new_deal(rules, seed=1)
        hands = [list(h) for h in deal.hands]
        rest = Counter(game.deck(rules)) - Counter(c for h in hands for c in h)
        kitty = [str(c) for c in sorted(rest.elements())[:game.kitty_size(rules)]]
        game.read_setup({"kitty": kitty}, rules, 0, hands, None)      # a kitty of that size is a setup
        if kitty:
            with pytest.raises(RecordError):
                game.read_setup({"kitty": kitty[1:]}, rules, 0, hands, None)
        scores = game.score_range(rules)
        assert scores.lowest <= 0 < scores.highest, preset

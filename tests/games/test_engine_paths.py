"""The checked path (``push``, with its fast paths that work out the next seat's legal moves as they go) and the
unchecked path (``push_unchecked``, legal moves worked out afresh when asked) reach the same positions with the
same legal moves, move for move, over random deals of every preset; and perft counts agree between them."""

from __future__ import annotations

import pickle
import random
from dataclasses import FrozenInstanceError
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fiftysix.core.cards import CARDS, Card
from fiftysix.core.moves import Discard, discards
from fiftysix.games import game_of_preset
from fiftysix.games.fifty_five import PRESETS as PRESETS55
from fiftysix.games.fifty_six import PRESETS as PRESETS56

CASES: list[tuple[str, dict[str, Any]]] = [
    *((p, {}) for p in sorted(PRESETS56)),
    *((p, {}) for p in sorted(PRESETS55)),
    ("56-6", {"claim": True}),
    ("56-hidden", {"claim": True, "players": 4, "deck": 32}),
    ("56-8", {"deck": 48, "trump": "chosen"}),
]


def _state(deal: Any) -> tuple[object, ...]:
    return (deal.phase, deal.to_move, deal.moves_text(), deal.hands, list(deal.trick_cards),
            [t.to_json() for t in deal.tricks], list(deal.points), deal.is_over)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(CASES))), st.integers(0, 2**32 - 1))
def test_checked_and_unchecked_paths_agree_move_for_move(case: int, seed: int) -> None:
    preset, options = CASES[case]
    game = game_of_preset(preset)
    rules = game.rules_from_json({"preset": preset, **options})
    checked, unchecked, text = (game.new_deal(rules, seed=seed) for _ in range(3))
    rng = random.Random(seed)
    while not checked.is_over:
        legal = checked.legal_moves()
        assert unchecked.legal_moves() == legal and text.legal_moves() == legal
        move = legal[rng.randrange(len(legal))]
        assert checked.push(move, checked.to_move) is move
        unchecked.push_unchecked(move)
        text.push(str(move))            # the general path: parsed, checked against legal_moves()
        assert _state(checked) == _state(unchecked) == _state(text)
    assert unchecked.is_over and text.is_over
    assert checked.result() == unchecked.result() == text.result()



@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(CASES))), st.integers(0, 2**32 - 1), st.integers(0, 80))
def test_the_history_is_every_move_with_its_seat_whatever_the_path(case: int, seed: int, split: int) -> None:
    """The history is worked out when read (cards are kept in their tricks only): it must still list every
    move with its seat, read after any move, on either path, and on a copy taken mid-deal that goes its own way."""
    preset, options = CASES[case]
    game = game_of_preset(preset)
    rules = game.rules_from_json({"preset": preset, **options})
    deal = game.new_deal(rules, seed=seed)
    rng = random.Random(seed)
    made: list[tuple[int, object]] = []
    copy, copy_made = None, []
    while not deal.is_over:
        legal = deal.legal_moves()
        move = legal[rng.randrange(len(legal))]
        made.append((deal.to_move, move))
        if rng.random() < 0.5:
            deal.push(move)
        else:
            deal.push_unchecked(move)
        if rng.random() < 0.3:      # read now and then: a stale cached history must never be returned
            assert deal.history == made and deal.moves_made() == len(made)
        if len(made) == split:
            copy, copy_made = deal.copy(), list(made)
    assert deal.history == made and deal.moves_made() == len(made)
    assert deal.moves_text() == [str(m) for _, m in made]
    if copy is not None:
        assert copy.history == copy_made        # untouched by the moves made on the original since
        while not copy.is_over:
            legal = copy.legal_moves()
            move = legal[-1]
            copy_made.append((copy.to_move, move))
            copy.push(move)
        assert copy.history == copy_made and deal.history == made


@pytest.mark.parametrize(("preset", "options"), CASES)
def test_a_deal_keeps_fewer_than_30_attributes_from_start_to_end(preset: str, options: dict[str, Any]) -> None:
    """CPython reads an object's attributes fast only while it has fewer than 30: a 30th made the play 9% slower
    (bench/engine_count.py). A deal of every preset stays below that at every move."""
    game = game_of_preset(preset)
    deal = game.new_deal(game.rules_from_json({"preset": preset, **options}), seed=3)
    rng = random.Random(3)
    most = len(vars(deal))
    while not deal.is_over:
        legal = deal.legal_moves()
        deal.push(legal[rng.randrange(len(legal))])
        deal.hands, deal.history, deal.tricks, deal.dealt     # noqa: B018 - what reading fills in counts too
        most = max(most, len(vars(deal)), len(vars(deal.copy())))
    assert most < 30, most

def _perft(deal: Any, depth: int, checked: bool) -> int:
    legal = deal.legal_moves()
    if depth == 1 or not legal:
        return len(legal) if depth == 1 else 1
    total = 0
    for move in legal:
        child = deal.copy()
        if checked:
            child.push(move)
        else:
            child.push_unchecked(move)
        total += _perft(child, depth - 1, checked)
    return total


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(CASES))), st.integers(0, 2**32 - 1), st.integers(0, 30))
def test_perft_counts_agree_between_the_paths(case: int, seed: int, extra: int) -> None:
    preset, options = CASES[case]
    game = game_of_preset(preset)
    deal = game.new_deal(game.rules_from_json({"preset": preset, **options}), seed=seed)
    rng = random.Random(seed)
    while not deal.is_over and (deal.phase != "play" or extra > 0):
        if deal.phase == "play":
            extra -= 1
        legal = deal.legal_moves()
        deal.push(legal[rng.randrange(len(legal))])
    depth = 4 if deal.phase == "play" else 2      # the auction and 55's 252 discards branch widely
    assert _perft(deal.copy(), depth, True) == _perft(deal.copy(), depth, False)


@given(st.lists(st.sampled_from(CARDS), min_size=0, max_size=12, unique=True), st.integers(0, 6))
def test_discards_made_in_bulk_are_the_dataclass_moves(cards: list[Card], k: int) -> None:
    choices = list(combinations(cards, k))
    bulk, plain = discards(choices), tuple(Discard(c) for c in choices)
    assert bulk == plain and [hash(m) for m in bulk] == [hash(m) for m in plain]
    assert [str(m) for m in bulk] == [str(m) for m in plain]
    assert pickle.loads(pickle.dumps(bulk)) == plain and all(type(m) is Discard for m in bulk)
    for m in bulk:
        with pytest.raises(FrozenInstanceError):
            m.cards = ()    # type: ignore[misc]

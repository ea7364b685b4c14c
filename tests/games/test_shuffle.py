"""Dealing shuffles with ``core.shuffle.shuffle``: the same order and the same draws as ``random.Random.shuffle``,
so a seed keeps dealing the same hands."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from fiftysix.core import shuffle as shuffling
from fiftysix.core.cards import CARDS
from fiftysix.games import game_of_preset
from fiftysix.games.fifty_six.deal import deck as deck56


def test_the_inline_walk_is_in_use_here() -> None:
    assert shuffling.INLINE     # else dealing is correct but slower: the standard library's draw changed


@given(st.integers(0, 2**64), st.integers(0, 120))
def test_same_order_and_same_generator_state_as_the_standard_library(seed: int, size: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    a, b = list(range(size)), list(range(size))
    shuffling.shuffle(a, ours)
    theirs.shuffle(b)
    assert a == b
    assert ours.getstate() == theirs.getstate()


class Reversing(random.Random):
    """A generator with a draw of its own: shuffling must use it, not the inline walk."""

    def _randbelow(self, n: int) -> int:   # type: ignore[override]
        return n - 1


def test_a_generator_with_its_own_draw_shuffles_itself() -> None:
    items = list(range(10))
    shuffling.shuffle(items, Reversing(1))
    expected = list(range(10))
    Reversing(1).shuffle(expected)
    assert items == expected == list(range(10))     # j = i every time: nothing moves


@given(st.integers(0, 2**32), st.sampled_from(["56-4", "56-6", "56-8", "55", "55-9"]))
def test_a_seed_deals_what_a_standard_shuffle_of_the_deck_deals(seed: int, preset: str) -> None:
    game = game_of_preset(preset)
    rules = game.rules_from_json(preset)
    deal = game.new_deal(rules, seed=seed)
    rng = random.Random(seed)
    dealer = rng.randrange(rules.players)
    # the canonical order: 56 suit by suit, ranks J 9 A T K Q 8 7, each twice; 55 the whole pack
    deck = deck56(rules) if deal.game == "56" else list(CARDS)
    rng.shuffle(deck)
    k = rules.hand_size
    assert deal.dealer == dealer
    assert [sorted(h) for h in deal.dealt] == [sorted(deck[i * k:(i + 1) * k]) for i in range(rules.players)]
    assert [deal.sort_hand(h) for h in deal.dealt] == [list(h) for h in deal.dealt]   # display order
    if deal.game == "55":
        n = rules.players * k
        assert sorted(deal.kitty) == sorted(deck[n:n + 5])


def test_seeded_deals_use_the_generator_core_here() -> None:
    assert shuffling.SEEDED     # else dealing from a seed is correct but slower


@given(st.one_of(st.integers(-2**70, 2**70), st.text(max_size=5), st.none()), st.integers(0, 120),
       st.integers(0, 17))
def test_a_seeded_shuffle_is_the_standard_librarys_draws(seed: int | str | None, size: int, choices: int) -> None:
    deck = tuple(range(size))
    first, items = shuffling.seeded_shuffle(deck, seed, choices)
    if seed is None:    # a fresh seed from the system: only the shape can be compared
        assert sorted(items) == list(deck) and 0 <= first < max(choices, 1)
        return
    rng = random.Random(seed)
    assert first == (rng.randrange(choices) if choices else 0)
    expected = list(deck)
    rng.shuffle(expected)
    assert items == expected
    assert deck == tuple(range(size))   # the deck given is left as it was


@given(st.one_of(st.integers(-2**70, 2**70), st.text(max_size=5)), st.integers(0, 120), st.integers(0, 17),
       st.integers(0, 130))
def test_a_loose_seeded_shuffle_differs_only_in_the_order_of_its_first_places(
        seed: int | str, size: int, choices: int, loose: int) -> None:
    deck = tuple(range(size))
    first, items = shuffling.seeded_shuffle(deck, seed, choices, loose)
    exact_first, exact = shuffling.seeded_shuffle(deck, seed, choices)
    assert first == exact_first
    assert items[loose:] == exact[loose:]
    assert sorted(items[:loose]) == sorted(exact[:loose])

"""Sampling deals consistent with a seat's view: every sampled deal agrees with everything the seat has
seen, and shows the seat exactly the view it was sampled from."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fiftysix.bots.sampling import DealSampler, SamplingError, sample_deals, sampler_for
from fiftysix.core.cards import Card
from fiftysix.core.deal import AUCTION
from fiftysix.core.moves import PASS, Call
from fiftysix.games import GAMES, game_of_preset
from fiftysix.views import view

PRESETS = ["56-6", "56-4", "56-8", "56-pairs-6", "56-announce", "56-hidden", "55", "55-teams-4", "55-9"]


def random_position(preset: str, seed: int, steps: int) -> Any:
    """A deal of ``preset`` after up to ``steps`` random moves (bids kept low, passes frequent)."""
    game = game_of_preset(preset)
    rng = random.Random(seed)
    deal = game.new_deal(game.rules_from_json(preset), seed=seed)
    for _ in range(steps):
        if deal.is_over:
            break
        legal = deal.legal_moves()
        if deal.phase == AUCTION:
            move = PASS if PASS in legal and rng.random() < 0.55 else rng.choice(legal[:14])
        else:
            move = rng.choice(legal)
        deal.push_unchecked(move)
    return deal


def check_sample(v: dict[str, Any], sampler: DealSampler, deal: Any) -> None:
    seat = v["seat"]
    game = GAMES[v["game"]]
    if seat is not None:
        assert [str(c) for c in deal.hands[seat]] == v["hand"]
    assert [len(h) for h in deal.hands] == v["hand_sizes"]
    assert [str(m) for _, m in deal.history if isinstance(m, Call)] == v["auction"]
    # every card of the deck exactly as often as it exists
    everything = [c for h in deal.dealt for c in h] + list(getattr(deal, "kitty", ()))
    assert Counter(everything) <= Counter(game.deck(deal.rules))
    # voids shown in play and kept bid-form claims hold
    for claim in sampler.claims:
        if claim in sampler.dropped or claim.seat == seat:
            continue
        held = Counter(deal.dealt[claim.seat] if claim.dealt else deal.hands[claim.seat])
        suits = Counter(c // 13 for c in held.elements())
        assert all(held[c] >= k for c, k in claim.lo), claim
        assert all(held[c] <= k for c, k in claim.hi), claim
        assert all(suits[s] >= k for s, k in claim.suit_lo), claim
        assert all(suits[s] <= k for s, k in claim.suit_hi), claim
    assert view(deal, seat) == v


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PRESETS), st.integers(0, 10_000), st.integers(0, 80), st.integers(-1, 8))
def test_sampled_deals_agree_with_the_view(preset: str, seed: int, steps: int, who: int) -> None:
    deal = random_position(preset, seed, steps)
    seat = None if who < 0 else who % deal.n
    v = view(deal, seat)
    sampler = sampler_for(v)
    rng = random.Random(seed)
    for _ in range(3):
        check_sample(v, sampler, sampler.sample(rng))


def test_api_returns_independent_deals_in_position() -> None:
    deal = random_position("56-6", 4, 20)
    v = view(deal, deal.to_move)
    deals = sample_deals(v, 5, random.Random(1))
    assert len(deals) == 5
    for d in deals:
        assert d.history == deal.history and d.to_move == deal.to_move
        copy = d.copy()
        copy.push_unchecked(copy.legal_moves()[0])
        assert len(d.history) == len(deal.history)
    assert len({tuple(map(tuple, d.hands)) for d in deals}) > 1


def play_texts(deal: Any, moves: list[str]) -> Any:
    for m in moves:
        deal.push(m)
    return deal


def test_bid_forms_are_read() -> None:
    game = GAMES["56"]
    rules = game.rules_from_json("56-6")
    deal = game.new_deal(rules, seed=21, dealer=5)      # seat 0 calls first
    hands = deal.hands
    # build an auction whose forms are true: seat 0 holds JH or not, seat 1's hearts are exactly the top k
    jh = Card.parse("JH")
    first = "28H" if jh in hands[0] else "H28"
    v = view(play_texts(deal.copy(), [first]), 3)
    for d in sample_deals(v, 20, random.Random(2)):
        if first == "28H":
            assert jh in d.hands[0]
        else:
            assert jh not in d.hands[0]


def test_plus_k_and_noes_claims() -> None:
    game = GAMES["56"]
    rules = game.rules_from_json("56-6")
    deal = game.new_deal(rules, seed=3, dealer=5)
    v0 = view(deal, 0)
    deal.push("28S")
    deal.push("+2H")      # seat 1: exactly JH JH, no other heart (whatever it really holds)
    deal.push("+1NOES")   # seat 2: void in hearts, the last suit named
    v = view(deal, 3)
    sampler = sampler_for(v)
    kept = {c.why for c in sampler.claims} - {c.why for c in sampler.dropped}
    for d in (sampler.sample(random.Random(i)) for i in range(15)):
        if "seat 1 bid +2H" in kept:
            assert sorted(str(c) for c in d.hands[1] if c // 13 == 1) == ["JH", "JH"]
        if "seat 2 bid +1NOES" in kept:
            assert not any(c // 13 == 1 for c in d.hands[2])
    assert v0["seat"] == 0


def test_impossible_claims_are_dropped() -> None:
    game = GAMES["56"]
    rules = game.rules_from_json("56-4")
    deal = game.new_deal(rules, seed=8, dealer=3)   # seat 0 first
    jacks = [c for c in deal.hands[2] if str(c) == "JH"]
    # seat 0 claims the J of hearts; if seat 2 (the observer) holds both, the claim is false
    deal.push("28H")
    sampler = sampler_for(view(deal, 2))
    if len(jacks) == 2:
        assert [c.why for c in sampler.dropped] == ["seat 0 bid 28H"]
    for d in (sampler.sample(random.Random(i)) for i in range(5)):
        assert view(d, 2) == view(deal, 2)


def test_voids_from_play() -> None:
    deal = random_position("56-4", 77, 45)
    v = view(deal, 0)
    sampler = sampler_for(v)
    voids = [c for c in sampler.claims if c.hard]
    assert voids, "this position shows voids"
    for d in sampler.sample(random.Random(5)), sampler.sample(random.Random(6)):
        check_sample(v, sampler, d)


def test_55_kitty_and_undealt() -> None:
    game = GAMES["55"]
    deal = game.new_deal(game.rules_from_json("55"), seed=2)
    v = view(deal, 1)
    for d in sample_deals(v, 10, random.Random(3)):
        mine = set(d.hands[1])
        assert not mine & set(d.kitty) and not mine & set(d.undealt)
        assert len(d.kitty) == 5 and len(d.undealt) == 52 - 25
        assert view(d, 1) == v


def test_inconsistent_view_is_refused() -> None:
    deal = random_position("56-6", 1, 3)
    v = view(deal, 0)
    v = {**v, "hand_sizes": [v["hand_sizes"][0], 9] + v["hand_sizes"][2:]}
    with pytest.raises(SamplingError):
        sampler_for(v)

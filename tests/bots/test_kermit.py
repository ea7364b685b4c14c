"""``kermit``: the softened ``rules`` likelihood, and weighted sampling against exact enumeration."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from fiftysix.bots.sampling import WeightedSampler, sampler_for
from fiftysix.bots.search.kermit import KermitBot, PolicyLikelihood, dealt_deal
from fiftysix.core.cards import Card
from fiftysix.core.deal import Deal
from fiftysix.games import game_of_preset
from fiftysix.views import view
from helpers.positions56 import Uniform, consistent_deals, location, played_to, worst_share_gap


@pytest.mark.parametrize("seed", range(6))
def test_dealt_deal_replays_to_the_same_position(seed: int) -> None:
    deal = played_to("56-6", seed, 4)
    replay = dealt_deal(deal)
    for _, move in deal.history:
        replay.push(move)
    assert all(view(replay, s) == view(deal, s) for s in range(len(deal.hands)))


@pytest.mark.parametrize("seed", range(5))
def test_the_true_deal_of_rules_players_has_the_highest_weight(seed: int) -> None:
    """Played by the ``rules`` policy itself, every judged move is the policy's, so the true deal scores
    log(1 - eps + eps / legal) for each judged move with a choice; sampled hands that would not have made
    those moves score less."""
    deal = played_to("56-4", seed, 3)
    me = deal.to_move
    eps = 0.25
    lik = PolicyLikelihood(me, "56", epsilon=eps, window=6)
    judged = lik.judged(deal)
    replay = dealt_deal(deal)
    best = 0.0
    for i, (_, move) in enumerate(deal.history):
        if i in judged and len(replay.legal_moves()) > 1:
            best += math.log(1 - eps + eps / len(replay.legal_moves()))
        replay.push_unchecked(move)
    assert lik.log_weight(deal) == pytest.approx(best)
    sampler = sampler_for(view(deal, me), use_bids=False, infer=False)
    rng = random.Random(seed)
    weights = [lik.log_weight(sampler.sample(rng)) for _ in range(30)]
    floor = sum(math.log(eps / 12) for _ in judged)
    assert all(floor - 1e-9 <= w <= 0.0 for w in weights)
    assert min(weights) < best


class Remembered:
    """The likelihood, remembered by hands (the same deal is drawn many times here)."""

    def __init__(self, lik: PolicyLikelihood) -> None:
        self.lik = lik
        self.memo: dict[tuple[tuple[Card, ...], ...], float] = {}

    def log_weight(self, deal: Deal) -> float:
        key = tuple(tuple(sorted(h)) for h in deal.hands)
        if key not in self.memo:
            self.memo[key] = self.lik.log_weight(deal)
        return self.memo[key]


@pytest.mark.parametrize("seed", [3, 7, 12, 21])
def test_weighted_sampling_matches_exact_enumeration(seed: int) -> None:
    """56-4 with two cards each left (six unseen cards): the weighted sampler's share of each card's location
    matches the exact likelihood-weighted share over every consistent deal."""
    deal = played_to("56-4", seed, 2)
    me = deal.to_move
    assert me is not None
    lik = Remembered(PolicyLikelihood(me, "56", epsilon=0.25, window=8))
    deals = consistent_deals(deal)
    assert deals
    exact: Counter[tuple[str, int]] = Counter()
    plain: Counter[tuple[str, int]] = Counter()
    total = 0.0
    for d in deals:
        w = math.exp(lik.log_weight(d))
        total += w
        for k in location(d, me):
            exact[k] += w
            plain[k] += 1 / len(deals)
    weighted = WeightedSampler(Uniform(deals), lik, pool=3000)  # type: ignore[arg-type]
    worst = worst_share_gap(weighted, me, exact, total, 3000, random.Random(seed))
    assert worst < 0.06, worst


def test_the_weights_move_the_cards_somewhere() -> None:
    """Over a few positions the weighting changes where the cards are thought to lie (else the test above
    would test nothing)."""
    moved = 0.0
    for seed in (3, 7, 12, 21):
        deal = played_to("56-4", seed, 2)
        me = deal.to_move
        assert me is not None
        lik = PolicyLikelihood(me, "56", epsilon=0.25, window=8)
        deals = consistent_deals(deal)
        weights = [math.exp(lik.log_weight(d)) for d in deals]
        total = sum(weights)
        exact: Counter[tuple[str, int]] = Counter()
        plain: Counter[tuple[str, int]] = Counter()
        for d, w in zip(deals, weights, strict=True):
            for k in location(d, me):
                exact[k] += w / total
                plain[k] += 1 / len(deals)
        moved = max(moved, max(abs(exact[k] - plain[k]) for k in plain))
    assert moved > 0.05


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="epsilon"):
        KermitBot(epsilon=0)
    with pytest.raises(ValueError, match="window"):
        KermitBot(window=-1)


def test_kermit_answers_a_legal_move_in_every_phase() -> None:
    game = game_of_preset("56-4")
    rules = game.rules_from_json("56-4")
    deal = game.new_deal(rules, seed=11)
    bot = KermitBot(seed=1, bid_samples=20, samples=6)
    while not deal.is_over:
        v = view(deal, deal.to_move)
        move = bot.choose(v)
        assert move in v["legal"]
        assert bot.last.get("how") != "fallback", bot.last
        deal.push(move)

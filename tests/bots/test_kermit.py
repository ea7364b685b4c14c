"""``kermit``: the softened ``rules`` likelihood, and weighted sampling against exact enumeration."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest

from fiftysix.bots import make_bot
from fiftysix.bots.sampling import sampler_for
from fiftysix.bots.search.kermit import KermitBot, PolicyLikelihood, WeightedSampler, dealt_deal
from fiftysix.core.cards import Card
from fiftysix.core.deal import Deal
from fiftysix.games import game_of_preset
from fiftysix.views import view


def played_to(preset: str, seed: int, held: int) -> Deal:
    """A deal played by ``rules`` bots until the seat to move holds ``held`` cards."""
    game = game_of_preset(preset)
    rules = game.rules_from_json(preset)
    deal = game.new_deal(rules, seed=seed)
    bots = [make_bot("rules", seed=seed * 10 + s, game="56") for s in range(rules.players)]
    while not (deal.phase == "play" and len(deal.hands[deal.to_move]) <= held):
        deal.push(bots[deal.to_move].choose(view(deal, deal.to_move)))
    return deal


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


def consistent_deals(deal: Deal) -> list[Deal]:
    """Every labelled share of the unseen cards among the other seats (the two copies of a card told apart,
    so each share is equally likely a priori) whose replay shows the seat to move exactly its view."""
    me = deal.to_move
    assert me is not None
    target = view(deal, me)
    n = len(deal.hands)
    others = [s for s in range(n) if s != me]
    sizes = [len(deal.hands[s]) for s in others]
    unseen = [c for s in others for c in deal.hands[s]]
    built: dict[tuple[tuple[Card, ...], ...], Deal | None] = {}
    out = []
    for perm in itertools.permutations(unseen):
        parts, at = [], 0
        for k in sizes:
            parts.append(tuple(sorted(perm[at:at + k])))
            at += k
        key = tuple(parts)
        if key not in built:
            hands = [list(deal.hands[me]) if s == me else list(parts[others.index(s)]) for s in range(n)]
            trial = _with_hands(deal, hands)
            built[key] = trial if trial is not None and view(trial, me) == target else None
        found = built[key]
        if found is not None:
            out.append(found)
    return out


def _with_hands(deal: Deal, hands: list[list[Card]]) -> Deal | None:
    """``deal``'s history replayed with these hands now (None if a move is then illegal)."""
    played: list[list[Card]] = [[] for _ in hands]
    for seat, move in deal.history:
        if isinstance(move, Card):
            played[seat].append(move)
    fresh = type(deal)(deal.rules, deal.dealer, [h + p for h, p in zip(hands, played, strict=True)])
    for _, move in deal.history:
        if not fresh.is_legal(move):
            return None
        fresh.push_unchecked(move)
    return fresh


def location(deal: Deal, me: int) -> list[tuple[str, int]]:
    return [(str(c), s) for s in range(len(deal.hands)) if s != me for c in deal.hands[s]]


class Uniform:
    """A sampler uniform over the consistent deals (the plain samplers' ideal, exactly)."""

    def __init__(self, deals: list[Deal]) -> None:
        self.deals = deals

    def sample(self, rng: random.Random) -> Deal:
        return rng.choice(self.deals).copy()


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
    rng = random.Random(seed)
    draws = 3000
    seen: Counter[tuple[str, int]] = Counter()
    for _ in range(draws):
        for k in location(weighted.sample(rng), me):
            seen[k] += 1
    worst = max(abs(seen[k] / draws - p / total) for k, p in exact.items())
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

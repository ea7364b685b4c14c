"""56 positions for the sampling tests: deals played by ``rules`` bots, and every deal consistent with a seat's
view, enumerated (for small positions)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from fiftysix.bots import make_bot
from fiftysix.bots.sampling import Sampler
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


def worst_share_gap(sampler: Sampler, me: int, exact: Counter[tuple[str, int]], total: float,
                    draws: int, rng: random.Random) -> float:
    """The largest gap between how often ``draws`` deals from ``sampler`` put a card with a seat and its exact
    share (``exact[(card, seat)] / total``)."""
    seen: Counter[tuple[str, int]] = Counter()
    for _ in range(draws):
        for k in location(sampler.sample(rng), me):
            seen[k] += 1
    return max(abs(seen[k] / draws - p / total) for k, p in exact.items())


def auction_views(preset: str, deals: int) -> list[dict[str, object]]:
    """Every call's view in deals whose calls are made by ``rules`` bots."""
    game = game_of_preset(preset)
    rules = game.rules_from_json(preset)
    out = []
    for seed in range(deals):
        deal = game.new_deal(rules, seed=seed)
        bots = [make_bot("rules", seed=s, game="56") for s in range(rules.players)]
        while deal.phase == "auction":
            v = view(deal, deal.to_move)
            out.append(v)
            deal.push(bots[deal.to_move].choose(v))
    return out

"""The 55 auction, discard and trump choice of ``pimc``: the contract simulated double dummy.

A 55 deal has five tricks, so at small tables (up to :data:`MAX_SIM_PLAYERS` players) every sampled deal
can be played out by the solver: the bot's side's points are found with a few null-window searches
(:func:`side_points`).  For a bid the bot samples the other hands and the kitty, takes the kitty in each
sample, keeps the five best cards for each trump suit and names the suit that does best; the chance of
reaching each bid value and the expected score follow.  The discard compares the candidate discards (the
five weakest cards for each trump suit) over sampled deals, and the trump choice the four suits.  At
bigger tables, where a whole 55 deal is too slow to solve, the ``rules`` bot decides these.

Scores: the bidder's side adds its points if they reach the bid and loses the bid otherwise (60: all
five tricks, +-60); a side that does not bid adds what it takes, about a fair share (:func:`pass_value`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from ...core.cards import Card, Suit
from ...core.deal import AUCTION, PLAY
from ...core.moves import Discard, TrumpChoice
from ...games.fifty_five import Deal55, Observation55, play, sort_cards
from ...solver import Position, can_reach
from ..base import clock
from ..kits import Decision, SearchContext
from .rules55 import observed55, own_seat, replay_auction

MAX_SIM_PLAYERS = 5
"""Largest table at which the auction, discard and trump are simulated (bigger ones use ``rules``)."""
BID_MARGIN = 1.0
"""Points a bid must be expected to gain over passing."""
SIM_SAMPLES = 24
STEPS = (5, 10, 15, 20, 25, 30)



def side_points(pos: Position, side: int) -> int:
    """The points ``side`` can force from this position on (all of them multiples of 5), by null windows."""
    have = pos.points[side]
    lo = 0
    for step in STEPS:   # the answer is usually small: walk up
        if not can_reach(pos, side, have + step):
            break
        lo = step
    return lo


def keep_for(hand: Sequence[Card], trump: int) -> list[Card]:
    """The five cards of ``hand`` worth least with ``trump`` as trumps (the discard)."""
    key, is_trump = play.KEY[trump], play.IS_TRUMP[trump]
    return sorted(hand, key=lambda c: (is_trump[c], key[c]))[:len(hand) - 5]


def simulate_bid(ctx: SearchContext, obs: Observation55, n: int) -> list[int]:
    """The bot's side's points as bidder, one per sampled deal (best trump, discard by :func:`keep_for`).

    Each sampled deal goes on as if the bot took the bid at the lowest value and everybody else passed.
    """

    rules = obs.rules55
    seat = own_seat(obs)
    side = rules.side_of[seat]
    sampler = ctx.sampler()
    out: list[int] = []
    start = clock()
    for _ in range(n):
        deal = cast(Deal55, sampler.sample(ctx.rng))
        if not _take_bid(deal, seat):
            break
        hand = list(deal.hands[seat])
        best = 0
        for trump in range(4):
            d = deal.copy()
            d.push(Discard(tuple(d.sort_hand(keep_for(hand, trump)))))
            d.push(TrumpChoice(Suit(trump)))
            if d.phase != PLAY:
                continue
            best = max(best, side_points(Position.from_deal(d), side))
        out.append(best)
        if _late(ctx, start, len(out)):
            break
    return out


def _take_bid(d: Deal55, seat: int) -> bool:
    """Play the auction so that ``seat`` buys it at the lowest bid (everybody else passes)."""

    while d.phase == AUCTION:
        legal = [str(m) for m in d.legal_moves()]
        if d.to_move == seat:
            bids = [m for m in legal if m.isdigit()]
            move = "HOLD" if "HOLD" in legal else (min(bids, key=int) if bids else "P")
        else:
            move = "P"
        if move not in legal:
            return False
        d.push(move)
    return d.contract is not None and d.contract.bidder == seat


def _samples(ctx: SearchContext) -> int:
    """Deals simulated for a call, the discard or the trump (the bot's ``samples``, else by its speed)."""
    settings = ctx.settings
    return settings.samples or (SIM_SAMPLES // 2 if settings.fast else SIM_SAMPLES)


def _late(ctx: SearchContext, start: float, done: int) -> bool:
    limit = ctx.settings.time_limit
    if limit is None or done < 4:
        return False
    spent = clock() - start
    return bool(spent + spent / done > 0.8 * limit)


def pass_value(players: int, sides: int) -> float:
    """What a side that does not bid takes on average (a share of the 30 a deal is worth)."""
    return 30.0 / sides * 0.8 if sides > 1 else 0.0


def expected_bid(points: Sequence[int], value: int, sixty_fail: int) -> float:
    """Expected score of bidding ``value`` when the side would take ``points`` (one per sample)."""
    if not points:
        return -float(value)
    if value == 60:
        return sum(60.0 if p >= 30 else -float(sixty_fail) for p in points) / len(points)
    return sum(float(p) if p >= value else -float(value) for p in points) / len(points)


def choose_call(ctx: SearchContext, legal: list[str]) -> Decision:
    obs = observed55(ctx.obs)
    rules = obs.rules55
    if rules.players > MAX_SIM_PLAYERS:
        return Decision(str(ctx.fallback.choose(obs)))
    n = _samples(ctx)
    points = simulate_bid(ctx, obs, n)
    base = pass_value(rules.players, rules.n_sides)
    options: list[tuple[float, str]] = []
    if "P" in legal:
        options.append((base, "P"))
    current = replay_auction(obs).value
    for m in legal:
        if m.isdigit() or m == "HOLD":
            value = int(m) if m.isdigit() else current
            margin = BID_MARGIN if ctx.settings.bid_margin is None else ctx.settings.bid_margin
            options.append((expected_bid(points, value, rules.sixty_fail) - margin - 0.01 * value, m))
    if not options:
        return Decision(legal[0])
    return Decision(max(options)[1], {"how": "simulation", "samples": len(points),
                                      "scores": {m: round(e, 2) for e, m in options}})


def _evaluate(ctx: SearchContext, obs: Observation55, plans: list[tuple[Discard | None, int]],
              n: int) -> list[tuple[float, float]]:
    """For each plan (discard move or ``None``, trump suit): (chance of reaching the bid, mean points)."""

    rules = obs.rules55
    seat = own_seat(obs)
    side = rules.side_of[seat]
    value = obs.contract_value or replay_auction(obs).value or 10
    need = 30 if value == 60 else value
    sampler = ctx.sampler()
    made = [0.0] * len(plans)
    pts = [0.0] * len(plans)
    done = 0
    start = clock()
    for _ in range(n):
        deal = sampler.sample(ctx.rng)
        for i, (discard, trump) in enumerate(plans):
            d = cast(Deal55, deal.copy())
            if discard is not None:
                d.push(discard)
            d.push(TrumpChoice(Suit(trump)))
            if d.phase != PLAY:
                continue
            p = side_points(Position.from_deal(d), side) + d.points[side]
            pts[i] += p
            made[i] += p >= need
        done += 1
        if _late(ctx, start, done):
            break
    done = max(done, 1)
    return [(m / done, p / done) for m, p in zip(made, pts, strict=True)]


def choose_discard(ctx: SearchContext, legal: list[str]) -> Decision:
    obs = observed55(ctx.obs)
    if obs.rules55.players > MAX_SIM_PLAYERS:
        return Decision(str(ctx.fallback.choose(obs)))
    hand = list(obs.hand)
    plans: list[tuple[Discard | None, int]] = []
    texts: list[str] = []
    for trump in range(4):
        throw = sorted(keep_for(hand, trump))
        text = " ".join(str(c) for c in _display(throw))
        if text in texts:
            continue
        move = Discard(tuple(_display(throw)))
        plans.append((move, trump))
        texts.append(text)
    n = _samples(ctx)
    scores = _evaluate(ctx, obs, plans, n)
    best = max(range(len(plans)), key=lambda i: scores[i])
    for m in legal:
        if sorted(m.split()) == sorted(texts[best].split()):
            return Decision(m, {"how": "simulation", "scores": dict(zip(texts, scores, strict=True))})
    return Decision(str(ctx.fallback.choose(obs)))


def _display(cards: Sequence[Card]) -> list[Card]:

    return sort_cards(cards)


def choose_trump(ctx: SearchContext, legal: list[str]) -> Decision:
    obs = observed55(ctx.obs)
    if obs.rules55.players > MAX_SIM_PLAYERS:
        return Decision(str(ctx.fallback.choose(obs)))
    suits = [s for s in range(4) if Suit(s).letter in legal]
    n = _samples(ctx)
    scores = _evaluate(ctx, obs, [(None, s) for s in suits], n)
    best = max(range(len(suits)), key=lambda i: scores[i])
    return Decision(Suit(suits[best]).letter,
                    {"how": "simulation", "scores": {Suit(s).letter: sc for s, sc in zip(suits, scores, strict=True)}})

"""Contract simulation for 56: how many card points a team takes as declarer, from all the hands.

The search bots bid by simulation: they sample deals consistent with their view and ask, for every
sampled deal, what the declaring team would take in each strain.  Solving whole deals double dummy is too
slow for that (seconds a deal at six players), so :func:`team_estimate` is a linear model over the
*team's combined cards* (every hand of the team, not one), fitted per table shape on deals played out by
the ``rules`` bot with a fixed contract (``bench/fit_pimc56.py``; weights in :mod:`.pimc_weights56`).
Its error, :func:`residual`, is what remains unknown once every hand is known (the play).

:func:`bid_weights` reads the *values* bid: a sampled deal in which a seat that bid 32 holds a weak hand
is unlikely.  The sampler keeps the forms' facts (``28H`` holds the J♥); the weights add how strong the
bidders and the passers are, by the hand estimate of the ``rules`` bot (:func:`fiftysix.bots.rules56.estimate`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ...core.cards import Card
from ...core.deal import Deal
from ...games.fifty_six import Rules56, play
from .pimc_weights56 import MODELS, WEIGHTS, ContractWeights
from .rules56 import estimate

SUIT_NAMES = "SHDC"
POINTS = play.POINTS
# the features' card classes by the card's int value (rank index in "23456789TJQKA")
IS_J = tuple(i % 13 == 9 for i in range(52))
IS_9 = tuple(i % 13 == 7 for i in range(52))
IS_AT = tuple(i % 13 in (12, 8) for i in range(52))

SUIT_FEATURES = ("const", "trumps", "trump J", "trump 9", "trump A T", "side J", "side 9", "side A T",
                 "ruffs", "longest trumps", "leads", "side suits with both J", "opponents' longest trumps")
NT_FEATURES = ("const", "J", "9", "A T", "suits with both J", "9 with both J", "leads", "longest suit",
               "voids")


def _counts(hand: Sequence[Card]) -> tuple[list[int], list[int], list[int], list[int]]:
    """Per suit: cards, jacks, nines, aces and tens."""
    n, j, nine, at = [0] * 4, [0] * 4, [0] * 4, [0] * 4
    for c in hand:
        s = c // 13
        n[s] += 1
        if IS_J[c]:
            j[s] += 1
        elif IS_9[c]:
            nine[s] += 1
        elif IS_AT[c]:
            at[s] += 1
    return n, j, nine, at


def suit_features(team: Sequence[Sequence[Card]], others: Sequence[Sequence[Card]], trump: int,
                  leads: bool) -> list[float]:
    """Features of a team's hands for declaring with ``trump`` (0-3) as trumps (see :data:`SUIT_FEATURES`)."""
    tn = tj = t9 = tat = sj = s9 = sat = ruffs = longest = 0
    team_j = [0, 0, 0, 0]
    for hand in team:
        n, j, nine, at = _counts(hand)
        tn += n[trump]
        tj += j[trump]
        t9 += nine[trump]
        tat += at[trump]
        longest = max(longest, n[trump])
        for s in range(4):
            team_j[s] += j[s]
            if s == trump:
                continue
            sj += j[s]
            s9 += nine[s]
            sat += at[s]
            if n[s] == 0:
                ruffs += min(n[trump], 2)
    both = sum(1 for s in range(4) if s != trump and team_j[s] == 2)
    opp_longest = max((sum(1 for c in h if c // 13 == trump) for h in others), default=0)
    return [1.0, tn, tj, t9, tat, sj, s9, sat, ruffs, longest, 1.0 if leads else 0.0, both, opp_longest]


def nt_features(team: Sequence[Sequence[Card]], others: Sequence[Sequence[Card]], leads: bool) -> list[float]:
    """Features of a team's hands for declaring at no-trumps (see :data:`NT_FEATURES`)."""
    jn = n9 = nat = longest = voids = 0
    team_j, team_9 = [0, 0, 0, 0], [0, 0, 0, 0]
    for hand in team:
        n, j, nine, at = _counts(hand)
        jn += sum(j)
        n9 += sum(nine)
        nat += sum(at)
        longest = max(longest, *n)
        voids += sum(1 for k in n if k == 0)
        for s in range(4):
            team_j[s] += j[s]
            team_9[s] += nine[s]
    both = [s for s in range(4) if team_j[s] == 2]
    return [1.0, jn, n9, nat, len(both), sum(team_9[s] for s in both), 1.0 if leads else 0.0, longest, voids]


def features(hands: Sequence[Sequence[Card]], team_of: Sequence[int], team: int, strain: int | None,
             first_hand: int) -> list[float]:
    """The features of ``team`` declaring in ``strain`` (a suit 0-3, ``None`` for no-trumps)."""
    mine = [h for s, h in enumerate(hands) if team_of[s] == team]
    others = [h for s, h in enumerate(hands) if team_of[s] != team]
    leads = team_of[first_hand] == team
    if strain is None:
        return nt_features(mine, others, leads)
    return suit_features(mine, others, strain, leads)


def shape_key(rules: Rules56) -> tuple[int, int, int]:
    return rules.players, rules.deck_size, rules.n_teams


def _weights(rules: Rules56, model: str = "rules") -> ContractWeights:
    key = shape_key(rules)
    found = MODELS[model].get(key) or WEIGHTS.get(key)
    if found is not None:
        return found
    # Another shape: the nearest one fitted, scaled to this shape's share of the points.
    near = min(WEIGHTS, key=lambda k: (abs(k[0] - key[0]) + abs(k[2] - key[2]) * 3 + abs(k[1] - key[1]) / 16))
    return WEIGHTS[near]


def team_estimate(rules: Rules56, hands: Sequence[Sequence[Card]], team: int, strain: int | None,
                  first_hand: int, model: str = "rules") -> float:
    """Expected card points of ``team`` declaring in ``strain`` when these are all the hands (``model``: a
    name in :data:`~.pimc_weights56.MODELS`)."""
    w = _weights(rules, model)
    coef = w["nt"] if strain is None else w["suit"]
    x = features(hands, rules.team_of, team, strain, first_hand)
    return float(sum(a * b for a, b in zip(coef, x, strict=True)))


def residual(rules: Rules56, strain: int | None, model: str = "rules") -> float:
    """The model's error (rms, card points) once every hand is known."""
    w = _weights(rules, model)
    return float(w["rms_nt"] if strain is None else w["rms_suit"])


def normal_cdf(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


# -- what the auction's values say ---------------------------------------------------------------------------

BID_MARGIN = 2.0
"""A bidder's own estimate is at least the value bid plus this (the rules bot bids up to its estimate less
2, or its estimate once its partner has bid)."""
BID_SOFTNESS = 3.0
"""The width of the step from "could not have bid this" to "could have"."""


def _texts(hand: Sequence[Card]) -> list[str]:
    return [str(c) for c in hand]


def bid_weights(rules: Rules56, deals: Sequence[Deal], observer: int,
                calls: Sequence[tuple[int, int, int | None, str | None]]) -> list[float]:
    """A weight per sampled deal: how well the hands of the other seats fit the values they bid.

    ``calls``: the auction as ``(seat, value_before, bid_value or None, strain letter or None)`` for every
    call (``None`` value for a pass, double or redouble).  A bid of value v in strain s is likely when the
    bidder's own estimate for s is at least v plus :data:`BID_MARGIN` (v alone once its partner has bid);
    a pass when its best estimate was below the next value plus that margin (only the first pass of each
    seat counts, and only before its partner has bid).
    """
    n, deck, teams = rules.players, rules.deck_size, rules.n_teams
    strains = ("S", "H", "D", "C", "NT")
    out = []
    for deal in deals:
        logw = 0.0
        cache: dict[int, dict[str, float]] = {}

        def est(seat: int, deal: Deal = deal, cache: dict[int, dict[str, float]] = cache) -> dict[str, float]:
            found = cache.get(seat)
            if found is None:
                hand = _texts(deal.dealt[seat])
                found = cache[seat] = {s: estimate(hand, s, n, deck, teams) for s in strains}
            return found

        passed: set[int] = set()
        partner_bid: set[int] = set()
        for seat, before, value, strain in calls:
            if seat == observer:
                continue
            if value is not None:
                e = est(seat).get(strain or "NT", max(est(seat).values()))
                if rules.trump != "bid":
                    e = max(est(seat).values())
                margin = 0.0 if rules.team_of[seat] in partner_bid else BID_MARGIN
                logw += _log_sigmoid((e - margin - value) / BID_SOFTNESS)
                partner_bid.add(rules.team_of[seat])
            elif seat not in passed and rules.team_of[seat] not in partner_bid and before < 40:
                passed.add(seat)
                best = max(est(seat).values())
                logw += _log_sigmoid((max(before + 1, 28) + 2.0 - best) / BID_SOFTNESS)
        out.append(logw)
    top = max(out, default=0.0)
    return [math.exp(x - top) for x in out]


def _log_sigmoid(x: float) -> float:
    if x >= 0:
        return -math.log1p(math.exp(-x))
    return x - math.log1p(math.exp(x))


STRAIN_INDEX: dict[str, int | None] = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": None}

"""A rating of bots over duplicate results: Bradley-Terry over deal pairs won, lost and tied, anchored at one bot.

Each duplicate deal pair between two bots is a game: the bot whose paired score is higher wins it, equal scores
are a tie (half a win each).  The Bradley-Terry model gives each bot a rating ``r`` such that bot ``a`` wins a
deal pair from bot ``b`` with chance ``1 / (1 + exp(r_b - r_a))`` (ratings in natural log-odds; the anchor has
0).  It is fitted by Hunter's MM iteration (Hunter 2004, "MM algorithms for generalized Bradley-Terry models"),
with a weak prior of ``prior`` tied games per pairing so that a bot that won (or lost) every pair still has a
finite rating.  The 95% intervals come from a bootstrap over deal pairs: each pairing's pairs are drawn again
with replacement (which for counts is a multinomial draw of wins, losses and ties) and the model refitted.

Pure Python, like the rest of the arena.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from .stats import percentile

PRIOR = 1.0
"""Tied games added to every pairing (half a win each way): keeps a clean sweep finite, and moves a rating by
little once a pairing has hundreds of pairs."""

BOOTSTRAP = 200
"""Bootstrap refits for the intervals."""


@dataclass(frozen=True)
class Result:
    """The duplicate deal pairs of one pairing: ``a`` against ``b``, counted from ``a``'s side."""

    a: str
    b: str
    wins: int
    losses: int
    ties: int

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.ties


def result_of(a: str, b: str, diffs: Sequence[float], tol: float = 1e-9) -> Result:
    """The wins, losses and ties of ``a`` over ``b`` from the paired differences ``a - b`` of each deal pair."""
    wins = sum(1 for d in diffs if d > tol)
    losses = sum(1 for d in diffs if d < -tol)
    return Result(a, b, wins, losses, len(diffs) - wins - losses)


@dataclass(frozen=True)
class Rating:
    """A bot's rating with its 95% bootstrap interval and the deal pairs it played."""

    name: str
    rating: float
    low: float
    high: float
    games: int

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "rating": self.rating, "ci95": [self.low, self.high], "games": self.games}


def _connected(results: Sequence[Result], anchor: str) -> set[str]:
    links: dict[str, set[str]] = {}
    for r in results:
        links.setdefault(r.a, set()).add(r.b)
        links.setdefault(r.b, set()).add(r.a)
    seen, todo = {anchor}, [anchor]
    while todo:
        for other in links.get(todo.pop(), ()):
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


def players(results: Sequence[Result]) -> list[str]:
    """Every bot in ``results``, in order of first appearance."""
    out: dict[str, None] = {}
    for r in results:
        out.setdefault(r.a)
        out.setdefault(r.b)
    return list(out)


def fit(results: Sequence[Result], anchor: str, prior: float = PRIOR, tol: float = 1e-10,
        max_iter: int = 20_000) -> dict[str, float]:
    """Bradley-Terry ratings (log-odds, ``anchor`` = 0) by MM.

    :raises ValueError: when the anchor is not among the bots or a bot is not linked to it by any pairing.
    """
    names = players(results)
    if anchor not in names:
        raise ValueError(f"the anchor {anchor!r} played no pairing")
    loose = set(names) - _connected(results, anchor)
    if loose:
        raise ValueError(f"no pairing links {', '.join(sorted(loose))} to the anchor {anchor!r}")
    wins = dict.fromkeys(names, 0.0)
    games: dict[tuple[str, str], float] = {}
    for r in results:
        wins[r.a] += r.wins + 0.5 * r.ties + 0.5 * prior
        wins[r.b] += r.losses + 0.5 * r.ties + 0.5 * prior
        for key in ((r.a, r.b), (r.b, r.a)):
            games[key] = games.get(key, 0.0) + r.games + prior
    strength = dict.fromkeys(names, 1.0)
    for _ in range(max_iter):
        new = {}
        for i in names:
            denom = sum(n / (strength[i] + strength[j]) for (k, j), n in games.items() if k == i)
            new[i] = wins[i] / denom if denom > 0 else strength[i]
        scale = new[anchor]
        new = {i: s / scale for i, s in new.items()}
        change = max(abs(math.log(new[i]) - math.log(strength[i])) for i in names)
        strength = new
        if change < tol:
            break
    return {i: math.log(s) for i, s in strength.items()}


def _resample(r: Result, rng: random.Random) -> Result:
    """The same pairing with its deal pairs drawn again with replacement."""
    if r.games == 0:
        return r
    draws = rng.choices((0, 1, 2), weights=(r.wins, r.losses, r.ties), k=r.games)
    return Result(r.a, r.b, draws.count(0), draws.count(1), draws.count(2))


def rate(results: Sequence[Result], anchor: str, bootstrap: int = BOOTSTRAP, seed: int = 0,
         prior: float = PRIOR) -> list[Rating]:
    """Each bot's rating with a 95% bootstrap interval over deal pairs, best first (see the module's text).

    :raises ValueError: as :func:`fit`.
    """
    point = fit(results, anchor, prior)
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {name: [] for name in point}
    for _ in range(bootstrap):
        again = fit([_resample(r, rng) for r in results], anchor, prior, tol=1e-8)
        for name, value in again.items():
            samples[name].append(value)
    played = dict.fromkeys(point, 0)
    for r in results:
        played[r.a] += r.games
        played[r.b] += r.games
    out = []
    for name, value in point.items():
        xs = samples[name]
        low, high = (percentile(xs, 0.025) + 0.0, percentile(xs, 0.975) + 0.0) if xs else (value, value)
        out.append(Rating(name, value, low, high, played[name]))
    out.sort(key=lambda r: -r.rating)
    return out


def win_chance(rating: float) -> float:
    """The chance of winning a deal pair against the anchor at this rating."""
    return 1.0 / (1.0 + math.exp(-rating))


__all__ = ["BOOTSTRAP", "PRIOR", "Rating", "Result", "fit", "players", "rate", "result_of", "win_chance"]

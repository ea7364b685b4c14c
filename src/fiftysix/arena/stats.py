"""Small statistics for the arena: means, the 95% confidence interval of a mean (Student's t), running
means with their bands.  Pure Python."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import TypedDict

_T975_SMALL = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (two-sided 95%)."""
    if df < 1:
        return math.inf
    if df in _T975_SMALL:
        return _T975_SMALL[df]
    z = NormalDist().inv_cdf(0.975)
    # Cornish-Fisher expansion (Abramowitz & Stegun 26.7.5); exact to 3 decimals from df = 10 on
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3


class MeanCIJSON(TypedDict):
    """A :class:`MeanCI` as the arena's documents write it."""

    mean: float
    ci95: list[float] | None
    sd: float
    n: int


@dataclass(frozen=True)
class MeanCI:
    """A sample mean with its 95% confidence interval (``None`` bounds for fewer than two values)."""

    mean: float
    low: float | None
    high: float | None
    sd: float
    n: int

    def to_json(self) -> MeanCIJSON:
        ci95 = [self.low, self.high] if self.low is not None and self.high is not None else None
        return {"mean": self.mean, "ci95": ci95, "sd": self.sd, "n": self.n}


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def mean_ci(values: Sequence[float]) -> MeanCI:
    n = len(values)
    m = mean(values)
    if n < 2:
        return MeanCI(m, None, None, 0.0, n)
    sd = math.sqrt(sum((x - m) ** 2 for x in values) / (n - 1))
    half = t975(n - 1) * sd / math.sqrt(n)
    return MeanCI(m, m - half, m + half, sd, n)


def running(values: Sequence[float]) -> list[MeanCI]:
    """The mean and 95% interval of the first k values, for every k (Welford's update)."""
    out = []
    m = s = 0.0
    for k, x in enumerate(values, start=1):
        delta = x - m
        m += delta / k
        s += delta * (x - m)
        if k < 2:
            out.append(MeanCI(m, None, None, 0.0, k))
            continue
        sd = math.sqrt(s / (k - 1))
        half = t975(k - 1) * sd / math.sqrt(k)
        out.append(MeanCI(m, m - half, m + half, sd, k))
    return out


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0-1) by linear interpolation; 0 for no values."""
    if not values:
        return 0.0
    xs = sorted(values)
    pos = (len(xs) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)

"""The card play measured alone (issue 47): the share of the all-seeing card-play gap a bot closes.

Two duplicate arena runs on the same deals, each against ``rules``: ``X`` seats ``cardplay,cards=BOT`` (every
call made by ``rules``, the cards by ``BOT``: :mod:`fiftysix.bots.cardplay`), ``G`` seats ``oracle,calls=rules``
(every call made by ``rules``, the cards played seeing every hand: :mod:`.oracle`). Both sides of both runs call
alike, so each difference is card play only; ``X / G`` is the share of the all-seeing play's gain over ``rules``
that ``BOT``'s play reaches. Its 95% interval is the delta method over the deal pairs, paired by deal (each deal's
``x`` and ``g`` come from the same cards): ``r = mean(x) / mean(g)`` ± ``t · sd(x − r g) / (√n · |mean(g)|)``,
which is fair while ``G``'s own interval is well away from 0 (it is, by some twenty standard errors, on 56).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, TypedDict

from .stats import mean, mean_ci, t975

GAP_BOT = "oracle,calls=rules"
"""The all-seeing reference: ``rules``'s calls, every card played seeing the hands."""
BASE = "rules"


def card_bot(cards: str) -> str:
    """The ``cardplay`` spec that plays the cards as the spec ``cards`` does (``pimc,fast=true``)."""
    return "cardplay,cards=" + cards


class RatioCI(TypedDict):
    """A ratio of means with its 95% interval (``None`` from one pair) and how it was worked out."""

    mean: float
    ci95: list[float] | None
    n: int
    method: str


def ratio_ci(x: Sequence[float], g: Sequence[float]) -> RatioCI:
    """``mean(x) / mean(g)`` over paired values with its 95% interval by the delta method (module documentation).

    :raises ValueError: for lists of different lengths, none at all, or ``mean(g) == 0``.
    """
    if len(x) != len(g):
        raise ValueError(f"{len(x)} values of x and {len(g)} of g: the pairs must match")
    if not x:
        raise ValueError("no pairs to measure a share on")
    gm = mean(g)
    if gm == 0:
        raise ValueError("the all-seeing gap is 0 on these deals: no share of it can be measured")
    r = mean(x) / gm
    n = len(x)
    if n < 2:
        return {"mean": r, "ci95": None, "n": n, "method": "delta"}
    d = [a - r * b for a, b in zip(x, g, strict=True)]
    dm = mean(d)
    sd = math.sqrt(sum((v - dm) ** 2 for v in d) / (n - 1))
    half = t975(n - 1) * sd / (math.sqrt(n) * abs(gm))
    return {"mean": r, "ci95": [r - half, r + half], "n": n, "method": "delta"}


def per_deal(summary: dict[str, Any]) -> dict[int, float]:
    """Deal index → the first bot's score less the second's, from a two-bot arena summary (or a pooled one)."""
    if len(summary["bots"]) != 2:
        raise ValueError("a card-play run seats two bots: the measured one and rules")
    return {int(row["deal"]): row["scores"][0] - row["scores"][1] for row in summary["per_deal"]}


def share_document(x: dict[str, Any], g: dict[str, Any]) -> dict[str, Any]:
    """The share of the summaries ``x`` (``cardplay,cards=BOT`` − ``rules``) and ``g`` (``oracle,calls=rules`` −
    ``rules``) over the deals both played, with each difference and its interval; the summaries are kept.

    :raises ValueError: for runs of another seed or rules, other bots, or no deal in common.
    """
    for key in ("game", "rules", "seed", "unit"):
        if x[key] != g[key]:
            raise ValueError(f"the two runs differ in {key}: {x[key]!r} and {g[key]!r}")
    if x["bots"][0]["bot"].split(",")[0] != "cardplay" or g["bots"][0]["bot"] != GAP_BOT \
            or x["bots"][1]["bot"] != BASE or g["bots"][1]["bot"] != BASE:
        raise ValueError(f"the runs must be cardplay,cards=BOT − {BASE} and {GAP_BOT} − {BASE}")
    xs, gs = per_deal(x), per_deal(g)
    deals = sorted(set(xs) & set(gs))
    xv, gv = [xs[d] for d in deals], [gs[d] for d in deals]
    return {
        "kind": "cardplay_share", "game": x["game"], "rules": x["rules"], "seed": x["seed"], "unit": x["unit"],
        "bot": x["bots"][0]["bot"], "pairs": len(deals),
        "share": ratio_ci(xv, gv),
        "x": {**mean_ci(xv).to_json(), "versus": BASE},
        "g": {**mean_ci(gv).to_json(), "versus": BASE},
        "runs": {"x": x, "g": g},
    }

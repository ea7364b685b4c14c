"""Fit the bidding estimates of the ``rules`` bot for 56 (``fiftysix.bots.heuristic.rules56.WEIGHTS``).

For each table shape (players, deck, teams) it deals many seeded deals, gives first hand a 28 contract in
each strain in turn, lets the rules bot play every seat, and fits the declaring team's card points
against the features of first hand's cards (least squares with a little ridge).  Paste the printed table
into ``rules56.py``.

    .venv/bin/python bench/calibrate_rules56.py [DEALS]
"""

from __future__ import annotations

import sys

from fiftysix import Deal56, Rules56, view
from fiftysix.bots.heuristic.rules56 import STRAINS, Rules56Bot, hand_features

SHAPES = [
    ("56-4", {}), ("56-4", {"deck": 32}), ("56-6", {}), ("56-pairs-6", {"double": "reopens"}),
    ("56-8", {}), ("56-8", {"deck": 48}), ("56-pairs-8", {"double": "reopens"}),
    ("56-pairs-8", {"double": "reopens", "deck": 48}),
]


def solve(rows: list[list[float]], ys: list[float], ridge: float = 1.0) -> list[float]:
    k = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) + (ridge if i == j and i > 0 else 0.0) for j in range(k)] for i in range(k)]
    b = [sum(r[i] * y for r, y in zip(rows, ys, strict=True)) for i in range(k)]
    for i in range(k):   # Gauss-Jordan with partial pivoting
        p = max(range(i, k), key=lambda r: abs(a[r][i]))
        a[i], a[p] = a[p], a[i]
        b[i], b[p] = b[p], b[i]
        if abs(a[i][i]) < 1e-12:
            continue
        for r in range(k):
            if r != i and a[r][i]:
                f = a[r][i] / a[i][i]
                a[r] = [x - f * y for x, y in zip(a[r], a[i], strict=True)]
                b[r] -= f * b[i]
    return [b[i] / a[i][i] if abs(a[i][i]) > 1e-12 else 0.0 for i in range(k)]


def declare(rules: Rules56, seed: int, strain: str) -> tuple[list[str], int]:
    deal = Deal56.from_seed(rules, seed=seed)
    bidder = deal.first_hand
    hand = [str(c) for c in deal.hands[bidder]]
    deal.push(f"28{strain}")
    for _ in range(rules.players - 1):
        deal.push("P")
    bots = [Rules56Bot(seed * 31 + s) for s in range(rules.players)]
    while not deal.is_over:
        s = deal.to_move
        assert s is not None
        deal.push(bots[s].choose(view(deal, s)))
    return hand, deal.points[rules.team_of[bidder]]


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 600
    print("WEIGHTS = {")
    for preset, options in SHAPES:
        rules = Rules56.preset_named(preset, **options)
        fitted = {}
        for kind in ("suit", "nt"):
            rows: list[list[float]] = []
            ys: list[float] = []
            strains = [s for s in STRAINS if (s == "NT") == (kind == "nt")]
            for seed in range(deals):
                for strain in strains:
                    hand, pts = declare(rules, seed, strain)
                    rows.append(hand_features(hand, strain))
                    ys.append(float(pts))
            coef = solve(rows, ys)
            pred = [sum(a * b for a, b in zip(coef, r, strict=True)) for r in rows]
            resid = (sum((p - y) ** 2 for p, y in zip(pred, ys, strict=True)) / len(ys)) ** 0.5
            fitted[kind] = (coef, resid)
        key = (rules.players, rules.deck_size, rules.n_teams)
        print(f"    {key}: {{  # {preset} {options or ''} rms error suit "
              f"{fitted['suit'][1]:.1f}, nt {fitted['nt'][1]:.1f}")
        for kind in ("suit", "nt"):
            coefs = ", ".join(f"{c:.2f}" for c in fitted[kind][0])
            print(f'        "{kind}": ({coefs}),')
        print("    },")
    print("}")


if __name__ == "__main__":
    main()

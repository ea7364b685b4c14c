"""Fit the contract model of the search bots for 56 (``fiftysix.bots.heuristic.pimc_weights56.WEIGHTS``).

For each table shape (players, deck, teams) it deals many seeded deals; for each deal and each strain a
seat (cycling round the table) declares 28 in that strain with the truthful form and everybody passes;
the ``rules`` bot plays every seat (or, ``--labels solver``, the deal is solved double dummy); then it
fits the declaring team's card points against the features of the *team's combined hands*
(:func:`fiftysix.bots.heuristic.simulate56.features`) by least squares with a little ridge, and prints the
weights and the rms error to paste into ``pimc_weights56.py``.

    .venv/bin/python bench/fit_pimc56.py [--deals 1500] [--shape 56-6] [--labels solver] ...
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from fiftysix import Deal56, Rules56, view
from fiftysix.bots.heuristic.rules56 import Rules56Bot
from fiftysix.bots.heuristic.simulate56 import NT_FEATURES, SUIT_FEATURES, features
from fiftysix.solver import Position, solve

SHAPES = {
    "56-6": ("56-6", {}), "56-4": ("56-4", {}), "56-4-32": ("56-4", {"deck": 32}), "56-8": ("56-8", {}),
    "56-8-48": ("56-8", {"deck": 48}), "56-pairs-6": ("56-pairs-6", {"double": "reopens"}),
    "56-pairs-8": ("56-pairs-8", {"double": "reopens"}),
    "56-pairs-8-48": ("56-pairs-8", {"double": "reopens", "deck": 48}),
}
STRAINS = ("S", "H", "D", "C", "NT")
TOTAL_POINTS = 56


def play(rules: Rules56, seed: int, strain_i: int, labels: str = "rules") -> tuple[list[float], int]:
    """The features of the declaring team of deal ``seed`` in strain ``strain_i`` and its card points: as
    the ``rules`` bot plays the deal out (``labels="rules"``), or with best play by every seat, every hand
    known (``labels="solver"``: the double-dummy value of the deal from the first lead)."""
    deal = Deal56.from_seed(rules, seed=seed)
    n = rules.players
    declarer = (deal.first_hand + seed + strain_i) % n
    strain = STRAINS[strain_i]
    hand = [str(c) for c in deal.hands[declarer]]
    bid = "28NT" if strain == "NT" else f"28{strain}" if f"J{strain}" in hand else f"{strain}28"
    for _ in range((declarer - deal.first_hand) % n):
        deal.push("P")
    deal.push(bid)
    for _ in range(n - 1):
        deal.push("P")
    if deal.phase == "trump":
        deal.push(strain)
    team = rules.team_of[declarer]
    x = features(deal.dealt, rules.team_of, team, None if strain == "NT" else strain_i, deal.first_hand)
    if labels == "solver":
        mover = deal.to_move
        assert mover is not None
        value = solve(Position.from_deal(deal))    # the best total of the side to lead
        return x, value if rules.team_of[mover] == team else TOTAL_POINTS - value
    bots = [Rules56Bot(seed * 31 + s) for s in range(n)]
    while not deal.is_over:
        s = deal.to_move
        assert s is not None
        deal.push(bots[s].choose(view(deal, s)))
    return x, deal.points[team]


def fit(rows: list[list[float]], ys: list[float], ridge: float = 2.0) -> tuple[list[float], float]:
    a = np.array(rows)
    y = np.array(ys)
    reg = ridge * np.eye(a.shape[1])
    reg[0, 0] = 0.0
    coef = np.linalg.solve(a.T @ a + reg, a.T @ y)
    rms = float(np.sqrt(np.mean((a @ coef - y) ** 2)))
    return [float(c) for c in coef], rms


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1500)
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES), default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--labels", choices=("rules", "solver"), default="rules",
                        help="the declaring team's points as the rules bot plays the deal out (default), or its "
                             "double-dummy value (whole 56-6 deals: about half a second each; 56-4's twelve "
                             "cards a hand take seconds to minutes)")
    args = parser.parse_args()
    for name in args.shape or list(SHAPES):
        preset, options = SHAPES[name]
        rules = Rules56.preset_named(preset, **options)
        start = time.perf_counter()
        data: dict[str, tuple[list[list[float]], list[float]]] = {"suit": ([], []), "nt": ([], [])}
        for seed in range(args.seed, args.seed + args.deals):
            for i in range(5):
                x, y = play(rules, seed, i, args.labels)
                rows, ys = data["nt" if i == 4 else "suit"]
                rows.append(x)
                ys.append(float(y))
        suit, rms_suit = fit(*data["suit"])
        nt, rms_nt = fit(*data["nt"])
        key = (rules.players, rules.deck_size, rules.n_teams)
        took = time.perf_counter() - start
        print(f"    {key}: {{  # {name}, {args.deals} deals, {args.labels} labels, {took:.0f} s", flush=True)
        print(f"        \"suit\": ({', '.join(f'{c:.3f}' for c in suit)}),")
        print(f"        \"nt\": ({', '.join(f'{c:.3f}' for c in nt)}),")
        print(f"        \"rms_suit\": {rms_suit:.2f}, \"rms_nt\": {rms_nt:.2f},")
        print("    },", flush=True)
    print(f"# suit features: {', '.join(SUIT_FEATURES)}", file=sys.stderr)
    print(f"# nt features: {', '.join(NT_FEATURES)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Trust rates: how often each bot, playing every seat of the same deals, (a) overtakes a trick its teammate was
sure to win, (b) bids a form whose promise its hand does not keep, (c) passes a hand that must open.

The definitions are those of :mod:`fiftysix.bots.heuristic.trust56` (decided from the bot's own view: "sure" means
no later player can beat the teammate's card given the cards played, the bot's hand and the voids shown). Each rate
is per opportunity: (a) per play decision where the teammate's card is sure and the bot holds a legal card that does
not overtake; (b) per bid (not pass, double or redouble); (c) per call where nobody has bid and the hand has a suit
of 4+ cards with its jack and nine. Rates with a 95% Wilson interval.

    .venv/bin/python bench/trust.py --rules 56-6 --deals 2000 rules pimc,fast=true kermit,fast=true
"""

from __future__ import annotations

import argparse
import json
import math
import time

from fiftysix.bots.heuristic.trust56 import broken_promise, must_open, overtake_avoidable, overtakes
from fiftysix.bots.protocol import bot_from_spec
from fiftysix.games import game_of_preset
from fiftysix.views import view


def wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def measure(spec: str, preset: str, deals: int, seed: int) -> dict[str, object]:
    game = game_of_preset(preset)
    rules = game.rules_from_json(preset)
    counts = {"overtake": [0, 0], "promise": [0, 0], "pass": [0, 0]}
    start = time.thread_time()
    for d in range(seed, seed + deals):
        deal = game.new_deal(rules, seed=d)
        bots = [bot_from_spec(spec, seed=d * 10 + s, game=game.name) for s in range(rules.players)]
        while not deal.is_over:
            seat = deal.to_move
            v = view(deal, seat)
            move = bots[seat].choose(v)
            if deal.phase == "play":
                if overtake_avoidable(v):
                    counts["overtake"][1] += 1
                    counts["overtake"][0] += overtakes(v, move)
            elif deal.phase == "auction":
                if must_open(v):
                    counts["pass"][1] += 1
                    counts["pass"][0] += move == "P"
                if move not in ("P", "X", "XX"):
                    counts["promise"][1] += 1
                    counts["promise"][0] += broken_promise(v, move)
            deal.push(move)
    out: dict[str, object] = {"bot": spec, "rules": preset, "deals": deals, "seed": seed,
                              "cpu_seconds": round(time.thread_time() - start, 1)}
    for key, (k, n) in counts.items():
        lo, hi = wilson(k, n)
        out[key] = {"count": k, "opportunities": n, "rate": round(k / n, 4) if n else None,
                    "ci95": [round(lo, 4), round(hi, 4)]}
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("bots", nargs="+", help="bot specs, e.g. rules pimc,fast=true kermit")
    p.add_argument("--rules", default="56-6", help="a 56 preset (default %(default)s)")
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1, help="first deal seed")
    p.add_argument("--json", help="write the rates to this file")
    args = p.parse_args()
    if game_of_preset(args.rules).name != "56":
        p.error("the trust rates are defined for 56 presets")
    results = []
    print(f"{args.rules}, {args.deals} deals from seed {args.seed}, each bot on every seat")
    print(f"{'bot':32s} {'(a) overtakes':>24s} {'(b) broken promises':>24s} {'(c) passes that must bid':>26s}")
    for spec in args.bots:
        r = measure(spec, args.rules, args.deals, args.seed)
        results.append(r)
        cells = []
        for key in ("overtake", "promise", "pass"):
            c = r[key]
            assert isinstance(c, dict)
            cells.append(f"{c['count']}/{c['opportunities']} [{c['ci95'][0]:.3f}, {c['ci95'][1]:.3f}]")
        print(f"{spec:32s} {cells[0]:>24s} {cells[1]:>24s} {cells[2]:>26s}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()

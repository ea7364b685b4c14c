"""Time per decision of the ``pimc`` bot, by phase and cards held (one process, one core).

Plays seeded deals with ``pimc`` at the even seats and ``rules`` at the odd ones and times every pimc
decision that has a choice: wall-clock and CPU time of the thread (the bot's budget counts CPU time, so
that a loaded machine does not change its play).  The numba load on the first solve is timed apart.

    .venv/bin/python bench/pimc_speed.py [--rules 56-6] [--deals 10] [--bot pimc] [--seed 0]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from typing import Any

from fiftysix import view
from fiftysix.bots.protocol import bot_from_spec
from fiftysix.games import game_of_preset


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="56-6")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--bot", default="pimc", help="the bot spec timed (default %(default)s)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = game_of_preset(args.rules)
    rules = game.rules_from_json(args.rules)
    start = time.perf_counter()
    print(f"command: .venv/bin/python bench/pimc_speed.py {' '.join(sys.argv[1:])}")
    wall: dict[tuple[str, int], list[float]] = defaultdict(list)
    cpu: dict[tuple[str, int], list[float]] = defaultdict(list)
    how: dict[tuple[str, int], set[str]] = defaultdict(set)
    first = True
    for i in range(args.deals):
        deal = _deal(game, rules, args.seed + i)
        bots = [bot_from_spec(args.bot if s % 2 == 0 else "rules", seed=s, game=game.name)
                for s in range(rules.players)]
        while not deal.is_over:
            s = deal.to_move
            v = view(deal, s)
            w0, c0 = time.perf_counter(), time.thread_time()
            move = bots[s].choose(v)
            w, c = time.perf_counter() - w0, time.thread_time() - c0
            if s % 2 == 0 and len(v["legal"]) > 1:
                key = (str(v["phase"]), len(v["hand"] or []))
                if first and getattr(bots[s], "last", {}).get("how") in ("solver", "reach"):
                    print(f"first solve (numba load included): {w:.2f} s")
                    first = False
                else:
                    wall[key].append(w)
                    cpu[key].append(c)
                    how[key].add(str(getattr(bots[s], "last", {}).get("how", "?")))
            deal.push(move)
    print(f"{args.bot} on {args.rules}, {args.deals} deals, {time.perf_counter() - start:.0f} s")
    print(f"{'phase':<9}{'held':>5}{'n':>6}{'cpu med':>9}{'p90':>8}{'max':>8}{'wall med':>10}  how")
    every: list[float] = []
    for key in sorted(wall):
        xs = sorted(cpu[key])
        every += xs
        p90 = xs[int(0.9 * (len(xs) - 1))]
        print(f"{key[0]:<9}{key[1]:>5}{len(xs):>6}{statistics.median(xs) * 1000:>8.0f}m{p90 * 1000:>7.0f}m"
              f"{max(xs) * 1000:>7.0f}m{statistics.median(wall[key]) * 1000:>9.0f}m  {','.join(sorted(how[key]))}")
    every.sort()
    if every:
        print(f"all decisions with a choice: {len(every)}, cpu median {statistics.median(every) * 1000:.0f} ms, "
              f"p90 {every[int(0.9 * (len(every) - 1))] * 1000:.0f} ms, max {every[-1] * 1000:.0f} ms, "
              f"mean {sum(every) / len(every) * 1000:.0f} ms")
    return 0


def _deal(game: Any, rules: Any, seed: int) -> Any:
    from fiftysix import Deal55, Deal56

    return (Deal56 if game.name == "56" else Deal55).from_seed(rules, seed=seed)


if __name__ == "__main__":
    sys.exit(main())

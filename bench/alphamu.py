"""αμ in short endings against ``pimc``'s choice on the same sampled deals: how often it runs, finds strategy
fusion, and changes the card; and its CPU time a decision.

Deals are played by ``sage`` bots with ``alphamu=M`` (so the endings are those a strong bot reaches).  At every
decision where αμ runs, the same seat's plain bot is asked too, both with the same random generator state, so
they sample the same deals: where αμ finds no fusion for any card they must agree (the test suite checks it),
so every change of card is fusion at work.  Whether a change wins or loses tables only the arena tells
(``fiftysix arena --bot sage,alphamu=2 --bot sage``).

    .venv/bin/python bench/alphamu.py --rules 56-4 --deals 100
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from fiftysix.bots.search.sage import SageBot
from fiftysix.games import game_of_preset
from fiftysix.views import view


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rules", default="56-4", help="a 56 preset (default %(default)s)")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=0, help="first deal seed")
    p.add_argument("--moves", type=int, default=2, help="our cards planned together (default %(default)s)")
    args = p.parse_args()
    game = game_of_preset(args.rules)
    rules = game.rules_from_json(args.rules)
    runs = fused = changed = 0
    seconds: list[float] = []
    for d in range(args.seed, args.seed + args.deals):
        match = game.new_match(rules, first_dealer=d % rules.players, seed=d)
        deal = match.new_deal(d)
        planners = [SageBot(seed=d * 10 + s, alphamu=args.moves, time_limit=None) for s in range(rules.players)]
        plain = [SageBot(seed=d * 10 + s, time_limit=None) for s in range(rules.players)]
        while not deal.is_over:
            s = deal.to_move
            v = view(deal, s, match)
            state = planners[s].rng.getstate()
            start = time.thread_time()
            move = planners[s].choose(v)
            spent = time.thread_time() - start
            if planners[s].last.get("how") == "alphamu":
                runs += 1
                seconds.append(spent)
                fused += any(planners[s].last["fusion"].values())
                plain[s].rng = random.Random()
                plain[s].rng.setstate(state)
                changed += plain[s].choose(v) != move
            deal.push(move, seat=s)
    print(f"{args.rules}, {args.deals} deals from seed {args.seed}, alphamu={args.moves}: αμ ran at {runs} decisions "
          f"({runs / args.deals:.2f} a deal); fusion found at {fused}; card changed at {changed} "
          f"({changed / max(runs, 1):.1%})")
    if seconds:
        q = statistics.quantiles(seconds, n=100, method="inclusive") if len(seconds) > 1 else seconds * 99
        print(f"CPU ms a decision where it ran: median {1000 * statistics.median(seconds):.0f}, "
              f"p90 {1000 * q[89]:.0f}, p99 {1000 * q[98]:.0f}, max {1000 * max(seconds):.0f}")


if __name__ == "__main__":
    main()

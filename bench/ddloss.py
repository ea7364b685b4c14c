"""Card play quality: each bot's mean double-dummy loss on the same positions.

Deals are played by ``rules`` bots; at every play decision with a choice where the seat holds at most
``--cards`` cards (and the trump is known), every bot under test is asked for its card, and the card is
charged the points it loses against the best card with every hand known (:func:`fiftysix.solver.card_values`
on the true deal). All bots see the same positions, so the comparison is paired and much less noisy than
an arena run of the same length; it measures the play only, not the calls. A bot that does not know the
other hands cannot reach 0. CPU time per decision is printed beside it.

With ``--trust-only`` only the decisions where a teammate's card is sure to win the trick and a legal card does
not take it from them are judged (:func:`fiftysix.bots.heuristic.trust56.overtake_avoidable`): what keeping off
a partner's sure trick costs, ``pimc,trusty=false`` against ``pimc``.

    .venv/bin/python bench/ddloss.py --rules 56-6 --cards 5 --deals 100 rules ismcts,iterations=100 pimc
    .venv/bin/python bench/ddloss.py --rules 56-4 --cards 8 --deals 300 --trust-only pimc,trusty=false pimc
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from fiftysix.bots import make_bot
from fiftysix.bots.heuristic.trust56 import overtake_avoidable, overtakes
from fiftysix.bots.protocol import bot_from_spec
from fiftysix.games import game_of_preset
from fiftysix.solver import Position, card_values
from fiftysix.views import view


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("bots", nargs="+", help="bot specs, e.g. rules ismcts,iterations=100 pimc")
    p.add_argument("--rules", default="56-6", help="a 56 preset (default %(default)s)")
    p.add_argument("--cards", type=int, default=5, help="judge decisions holding at most this many cards")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=1000, help="first deal seed")
    p.add_argument("--trust-only", action="store_true",
                   help="judge only decisions where a teammate's card is sure to win and need not be overtaken")
    args = p.parse_args()
    game = game_of_preset(args.rules)
    if game.name != "56":
        p.error("the double-dummy loss is measured for 56 presets")
    rules = game.rules_from_json(args.rules)
    bots = [bot_from_spec(spec, seed=1, game="56") for spec in args.bots]
    loss: list[list[int]] = [[] for _ in bots]
    spent = [0.0] * len(bots)
    took = [0] * len(bots)      # with --trust-only: cards that took the trick from the teammate
    for seed in range(args.seed, args.seed + args.deals):
        deal = game.new_deal(rules, seed=seed)
        drivers = [make_bot("rules", seed=seed * 10 + i, game="56") for i in range(rules.players)]
        while not deal.is_over:
            v = view(deal, deal.to_move)
            if deal.phase == "play" and deal.revealed and len(deal.hands[deal.to_move]) <= args.cards \
                    and sum(m not in ("?", "CLAIM") for m in v["legal"]) > 1 \
                    and (not args.trust_only or overtake_avoidable(v)):
                values = {str(c): x for c, x in card_values(Position.from_deal(deal)).items()}
                best = max(values.values())
                for i, bot in enumerate(bots):
                    start = time.thread_time()
                    move = bot.choose(v)
                    spent[i] += time.thread_time() - start
                    loss[i].append(best - values.get(move, best))
                    took[i] += args.trust_only and overtakes(v, move)
            deal.push(drivers[deal.to_move].choose(v))
    n = len(loss[0])
    which = " (a teammate's sure trick)" if args.trust_only else ""
    print(f"{args.rules}, {args.deals} deals from seed {args.seed}, {n} decisions{which} holding <= {args.cards} "
          "cards")
    print(f"{'bot':44s} {'mean loss':>10s} {'(95% CI)':>16s} {'with loss':>10s} {'ms/decision':>12s}")
    for i, (spec, xs, t) in enumerate(zip(args.bots, loss, spent, strict=True)):
        half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
        mean = statistics.mean(xs) if xs else 0.0
        share = sum(x > 0 for x in xs) / max(len(xs), 1)
        print(f"{spec:44s} {mean:10.3f} {f'±{half:.3f}':>16s} {share:10.3f} {1000 * t / max(len(xs), 1):12.1f}"
              + (f"   overtook {took[i]}" if args.trust_only else ""))
    if len(bots) > 1:
        first = loss[0]
        for spec, xs in zip(args.bots[1:], loss[1:], strict=True):
            diffs = [a - b for a, b in zip(xs, first, strict=True)]
            half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
            print(f"{spec} - {args.bots[0]}: {statistics.mean(diffs):+.3f} points per decision, "
                  f"95% CI [{statistics.mean(diffs) - half:+.3f}, {statistics.mean(diffs) + half:+.3f}]")


if __name__ == "__main__":
    main()

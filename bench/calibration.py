"""How often a bot's contracts are made against how often it foresaw: the calibration of its calls.

Self-play deals of one bot spec at every seat, dealt from seeds ``--seed``, ``--seed + 1``, …  For each deal whose
contract the declarer's own last bid made, the chance of making it that the bot foresaw at that bid
(``bot.last["chances"]``, written by ``pimc``'s simulated calls) and whether it was made. Prints the contracts in
fifths of the chance foreseen with the share made, and writes them as JSON:

    .venv/bin/python bench/calibration.py --rules 56-6 --deals 400 --seed 900000 pimc,fast=true --json F
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict

from fiftysix.bots.protocol import bot_from_spec
from fiftysix.games import game_of_preset
from fiftysix.views import view


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("bot", help="a bot spec whose calls record their chances (pimc, sage, ...)")
    p.add_argument("--rules", default="56-6", help="a 56 preset (default %(default)s)")
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--seed", type=int, default=900_000)
    p.add_argument("--json", help="write every contract as JSON")
    args = p.parse_args()
    game = game_of_preset(args.rules)
    rules = game.rules_from_json(args.rules)
    rows = []
    for seed in range(args.seed, args.seed + args.deals):
        deal = game.new_deal(rules, seed=seed)
        bots = [bot_from_spec(args.bot, seed=seed * 10 + s, game=game.name) for s in range(rules.players)]
        foreseen: dict[int, tuple[str, float]] = {}
        while not deal.is_over:
            seat = deal.to_move
            move = bots[seat].choose(view(deal, seat))
            if deal.phase == "auction":
                chances = getattr(bots[seat], "last", {}).get("chances", {})
                if move in chances:
                    foreseen[seat] = (move, float(chances[move]))
            deal.push(move)
        contract = deal.contract
        if contract is not None and contract.declarer in foreseen:
            bid, chance = foreseen[contract.declarer]
            rows.append({"seed": seed, "bid": bid, "value": contract.value, "multiplier": contract.multiplier,
                         "foreseen": chance, "made": bool(deal.made())})
    pairs = [(float(r["foreseen"]), bool(r["made"])) for r in rows]   # type: ignore[arg-type]
    buckets: dict[int, list[tuple[float, bool]]] = defaultdict(list)
    for chance, made in pairs:
        buckets[min(int(chance * 5), 4)].append((chance, made))
    print(f"{args.bot}, {args.rules}, {args.deals} deals from seed {args.seed}: {len(rows)} contracts")
    print(f"{'chance foreseen':<16} {'contracts':>9} {'mean foreseen':>14} {'made':>6}")
    for label, b in [(f"{k / 5:.1f}-{(k + 1) / 5:.1f}", buckets[k]) for k in sorted(buckets)] + [("all", pairs)]:
        if b:
            foreseen, made = sum(c for c, _ in b) / len(b), sum(m for _, m in b) / len(b)
            print(f"{label:<16} {len(b):>9} {foreseen:>14.2f} {made:>6.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"bot": args.bot, "rules": args.rules, "deals": args.deals, "seed": args.seed,
                       "contracts": rows}, f, indent=1)


if __name__ == "__main__":
    main()

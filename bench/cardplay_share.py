"""The card play alone: the share of the all-seeing card-play gap a bot closes when ``rules`` makes every call.

Plays two duplicate arena runs on the same deals (``--pairs`` of them from ``--first``, seed ``--seed``):
X = ``cardplay,cards=BOT`` − ``rules`` and G = ``oracle,calls=rules`` − ``rules``, and reports X / G with its 95%
interval (delta method over the deal pairs, :mod:`fiftysix.arena.cardplay`). The pair count is fixed by
``--pairs`` before the run. Parts of one seed (different ``--first``) are pooled with ``--pool``; ``--compare A B``
prints the paired difference of two documents' X over the deals both played (two card bots, or two settings).

    .venv/bin/python bench/cardplay_share.py --rules 56-6 --bot pimc,fast=true --pairs 100 --first 0 \\
        --json docs/arena/cardplay-56-6-pimc-fast-part1.json
    .venv/bin/python bench/cardplay_share.py --pool docs/arena/cardplay-56-6-pimc-fast-part*.json --json POOLED.json
    .venv/bin/python bench/cardplay_share.py --compare docs/arena/cardplay-56-6-pimc-part1.json \\
        docs/arena/cardplay-56-6-pimc-fast-part1.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from fiftysix.arena.cardplay import BASE, GAP_BOT, card_bot, per_deal, share_document
from fiftysix.arena.duplicate import ArenaConfig, check_bots
from fiftysix.arena.report import pool, summarize
from fiftysix.arena.run import run_arena
from fiftysix.arena.stats import mean_ci

REPORTING_SEED = 424242
"""The seed issue 47's held-out figures were measured on; no setting was chosen on it."""


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def run(args: argparse.Namespace) -> dict[str, Any]:
    configs = {key: ArenaConfig(rules=args.rules, bots=(spec, BASE), deals=args.pairs, seed=args.seed,
                                workers=args.workers, first=args.first)
               for key, spec in (("x", card_bot(args.bot)), ("g", GAP_BOT))}
    for config in configs.values():
        check_bots(config)
    before = load()
    summaries = {}
    for key, config in configs.items():
        result, elapsed = run_arena(config)
        summaries[key] = summarize(config, result, elapsed)
        print(f"{key}: {config.bots[0]} − {BASE}, {summaries[key]['deals']} deals, {elapsed:.0f} s", file=sys.stderr)
    doc = share_document(summaries["x"], summaries["g"])
    doc["load"] = {"before": before, "after": load()}
    return doc


def pooled(paths: list[str]) -> dict[str, Any]:
    docs = [json.loads(Path(p).read_text(encoding="utf-8")) for p in paths]
    doc = share_document(pool([d["runs"]["x"] for d in docs]), pool([d["runs"]["g"] for d in docs]))
    doc["parts"] = [{"path": p, "pairs": d["pairs"], "load": d.get("load")} for p, d in zip(paths, docs, strict=True)]
    return doc


def compare(paths: list[str]) -> str:
    a, b = (json.loads(Path(p).read_text(encoding="utf-8")) for p in paths)
    xa, xb = per_deal(a["runs"]["x"]), per_deal(b["runs"]["x"])
    deals = sorted(set(xa) & set(xb))
    if not deals:
        raise ValueError("the two documents have no deal in common")
    d = mean_ci([xa[i] - xb[i] for i in deals])
    low, high = (d.low, d.high) if d.low is not None else (float("nan"), float("nan"))
    return (f"X of {a['bot']} − X of {b['bot']}, paired over {len(deals)} deals: {d.mean:+.3f} {a['unit']} a deal, "
            f"95% CI [{low:+.3f}, {high:+.3f}]\n")


def report(doc: dict[str, Any]) -> str:
    s, x, g = doc["share"], doc["x"], doc["g"]
    low, high = s["ci95"] or (float("nan"), float("nan"))
    return (f"{doc['rules']['preset'] if isinstance(doc['rules'], dict) else doc['rules']}, seed {doc['seed']}, "
            f"{doc['pairs']} pairs: X = {doc['bot']} − rules {x['mean']:+.3f} {doc['unit']} a deal, "
            f"G = {GAP_BOT} − rules {g['mean']:+.3f}; share X/G = {100 * s['mean']:.1f}% "
            f"[{100 * low:.1f}, {100 * high:.1f}] (95%, delta method)\n")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rules", default="56-6", help="a preset (default %(default)s)")
    p.add_argument("--bot", help="the spec that plays the cards, e.g. pimc,fast=true")
    p.add_argument("--pairs", type=int, help="duplicate deal pairs of each run, fixed before the run")
    p.add_argument("--first", type=int, default=0, help="index of the first deal (parts of one seed)")
    p.add_argument("--seed", type=int, default=REPORTING_SEED, help="default %(default)s, the reporting seed")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--pool", nargs="+", metavar="PART", help="pool these parts instead of playing")
    p.add_argument("--compare", nargs=2, metavar=("A", "B"), help="A's X less B's X over their common deals")
    p.add_argument("--json", help="write the document here (docs/arena/cardplay-<preset>-<bot>-partN.json)")
    args = p.parse_args(argv)
    try:
        if args.compare:
            sys.stdout.write(compare(args.compare))
            return 0
        if args.pool:
            doc = pooled(args.pool)
        elif not args.bot or not args.pairs or args.pairs < 1:
            p.error("give --bot and --pairs (at least 1), or --pool")
        else:
            doc = run(args)
    except (OSError, ValueError, KeyError) as e:
        print(f"cardplay_share: {e}", file=sys.stderr)
        return 2
    sys.stdout.write(report(doc))
    if args.json:
        Path(args.json).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Pool arena summaries that played different deals of one seed (``fiftysix arena --first``).

    .venv/bin/python bench/pool_arena.py A.json B.json [--json POOLED.json]

Prints the paired difference over all the deals with its 95% interval, contracts made, and each part's
deals, time and times per decision with a choice (median / p99 are not poolable, so they stay per part).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from fiftysix.arena.report import pool


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("summaries", nargs="+",
                        help="arena --json files (or summaries this script pooled) of the same seed, rules and bots")
    parser.add_argument("--json", help="write the pooled summary here")
    args = parser.parse_args(argv)
    try:
        pooled = pool([json.loads(Path(path).read_text(encoding="utf-8")) for path in args.summaries])
    except (OSError, ValueError, KeyError) as e:
        print(f"pool_arena: {e}", file=sys.stderr)
        return 2
    print(f"{pooled['rules']}: {pooled['deals']} deals, seed {pooled['seed']}, {len(pooled['parts'])} runs")
    for part in pooled["parts"]:
        times = " ; ".join(f"{t['choice_median']:.0f} / {t['choice_p99']:.0f} / {t['max']:.0f}"
                           for t in part["time_ms"])
        print(f"  from deal {part['first']}: {part['deals']} deals, {part['elapsed_seconds']:.0f} s, "
              f"{part['workers']} worker(s){', interrupted' if part['interrupted'] else ''}; "
              f"ms per choice median / p99 / max by bot: {times}")
    for b in pooled["bots"]:
        rate = f"{b['made']}/{b['declared']}" + (f" ({100 * b['bid_success']:.0f}%)" if b["declared"] else "")
        print(f"  {b['label']}: mean {b['mean_score']:+.3f} {pooled['unit']}, card points {b['mean_points']:.2f}, "
              f"contracts made {rate}")
    d = pooled["bots"][0]["paired_difference"]
    low, high = d["ci95"] or (None, None)
    interval = f"[{low:+.3f}, {high:+.3f}]" if low is not None else "(no interval)"
    print(f"paired difference {pooled['bots'][0]['label']} - {d['versus']}: {d['mean']:+.3f} {pooled['unit']} "
          f"a deal, 95% CI {interval}, n = {d['n']} deals")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(pooled, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

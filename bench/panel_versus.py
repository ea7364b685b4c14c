"""Two bots of one panel run compared through the panel: the paired difference of their panel averages.

    .venv/bin/python bench/panel_versus.py POOLED.json BOT OTHER

Per preset and deal pair, each bot's mean difference against the members both of them played (a bot does not
play the member of its own setting, so that member is left out for both); then BOT's mean less OTHER's, with
a 95% interval over the deal pairs (the same deals for every pairing of a panel run), per preset and over all.
This is issue 28's "tables a deal over `pimc` against the panel average".
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path


def _interval(xs: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    return mean, mean - half, mean + half


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    doc = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    bot, other = argv[1], argv[2]
    per: dict[tuple[str, str, str], dict[int, float]] = {}
    for p in doc["pairings"]:
        per[(p["bot"], p["preset"], p["member"])] = dict(zip(p["deal_indices"], p["per_pair"], strict=True))
    everything: list[float] = []
    for preset in doc["presets"]:
        members = sorted({m for (b, pr, m) in per if b == bot and pr == preset}
                         & {m for (b, pr, m) in per if b == other and pr == preset})
        if not members:
            print(f"{preset}: {bot} and {other} share no member", file=sys.stderr)
            return 2
        deals = set.intersection(*(set(per[(b, preset, m)]) for b in (bot, other) for m in members))
        diffs = defaultdict(float)
        for d in deals:
            diffs[d] = (statistics.fmean(per[(bot, preset, m)][d] for m in members)
                        - statistics.fmean(per[(other, preset, m)][d] for m in members))
        xs = [diffs[d] for d in sorted(deals)]
        everything += xs
        mean, low, high = _interval(xs)
        print(f"{preset}: {bot} - {other} over the panel average ({', '.join(members)}; {len(xs)} deal pairs): "
              f"{mean:+.3f} [{low:+.3f}, {high:+.3f}] tables a deal")
    mean, low, high = _interval(everything)
    print(f"all: {mean:+.3f} [{low:+.3f}, {high:+.3f}] tables a deal ({len(everything)} deal pairs)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

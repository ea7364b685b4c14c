"""The table page's 56 level figures (``fiftysix.bots.levels.FIGURES``) from a pooled panel run.

    .venv/bin/python bench/level_figures.py POOLED.json

Each level's bot is found among the panel's ratings (its name, or its name with options such as ``,fast=true``);
its rating *r* against ``rules`` (the beginner, the anchor) becomes the share of deal pairs won against it,
1 / (1 + e^(-r)), with the rating's 95% interval.  Prints the ``LevelFigure`` lines to paste into
``bots/levels.py``.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

from fiftysix.bots.levels import levels_for


def share(r: float) -> float:
    return 100.0 / (1.0 + math.exp(-r))


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    doc = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    ratings = doc["rating"]["ratings"]
    presets = ",".join(doc["presets"])
    levels = levels_for("56")
    beginner = levels["beginner"]
    if doc["rating"]["anchor"] != beginner:
        print(f"the rating's anchor is {doc['rating']['anchor']}, not the beginner's bot {beginner}", file=sys.stderr)
        return 2
    for level, bot in levels.items():
        if bot == beginner:
            continue
        found = [r for r in ratings if r["name"] == bot or r["name"].startswith(bot + ",")]
        if not found:
            print(f"{level}: {bot} is not rated in {argv[0]}", file=sys.stderr)
            return 2
        r = found[0]
        pairs = min(p["pairs"] for p in doc["pairings"] if r["name"] in (p["bot"], p["member"], p["member_spec"]))
        low, high = r["ci95"]
        print(f'        # {r["name"]}: rating {r["rating"]:+.3f} [{low:+.3f}, {high:+.3f}]')
        print(f'        "{level}": LevelFigure("rating", {share(r["rating"]):.1f}, {share(low):.1f}, '
              f'{share(high):.1f}, "beginner", "{presets}", {pairs}),')
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""CPU time of one ``rules`` bot decision as an in-process caller makes it (the server's computer players,
the arena, the terminal, the suggested call), per preset.

``json``: the seat's JSON view (``views.view``) handed to the bot, which reads it into an observation (the
path of every in-process caller before issue 42).  ``direct``: the observation the game builds from the deal
(``GameSpec.observation``), no JSON in between.  ``view``: the JSON view alone, no bot (what the server pays per
viewer and event).  The decision points are those of ``--deals`` deals the bots
play; each path is timed over all of them ``--repeats`` times (``time.process_time``); the median, lowest and
highest per decision are printed.  Runs against another source tree too (``PYTHONPATH=OLD/src``; a tree
without ``observation`` times ``json`` only):

    .venv/bin/python bench/bot_decision.py --deals 20 --repeats 7
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from fiftysix.bots import make_bot
from fiftysix.games import resolve_rules
from fiftysix.views import view


def decision_points(preset: str, deals: int) -> list[tuple[object, int, object]]:
    """``(deal copy, seat to move, match)`` at every move of ``deals`` deals of a match the bots play."""
    game, rules = resolve_rules(preset)
    match = game.new_match(rules, seed=1)
    bots = [make_bot("rules", s, game.name) for s in range(rules.players)]
    out: list[tuple[object, int, object]] = []
    for i in range(deals):
        deal = match.new_deal(seed=i)
        while not deal.is_over:
            seat = deal.to_move
            out.append((deal.copy(), seat, match))
            deal.push(bots[seat].choose(view(deal, seat, match)))
    return out


def timed(points: list[tuple[object, int, object]], see: Callable[[object, int, object], object], game: str,
          repeats: int) -> list[float]:
    """Seconds per decision, one figure per repeat (a fresh bot of the same seed each repeat)."""
    out = []
    for _ in range(repeats):
        bot = make_bot("rules", 0, game)
        start = time.process_time()
        for deal, seat, match in points:
            bot.choose(see(deal, seat, match))
        out.append((time.process_time() - start) / len(points))
    return out


def timed_views(points: list[tuple[object, int, object]], repeats: int) -> list[float]:
    """Seconds per JSON view of the seat to move."""
    out = []
    for _ in range(repeats):
        start = time.process_time()
        for deal, seat, match in points:
            view(deal, seat, match)  # type: ignore[arg-type]
        out.append((time.process_time() - start) / len(points))
    return out


def line(preset: str, name: str, count: int, per: list[float]) -> str:
    per = sorted(per)
    return (f"{preset:6} {name:6} {count} decisions: median {statistics.median(per) * 1e6:7.1f} µs "
            f"(lowest {per[0] * 1e6:.1f}, highest {per[-1] * 1e6:.1f}) per decision")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=20)
    p.add_argument("--repeats", type=int, default=7)
    p.add_argument("--presets", default="56-4,56-6,55")
    args = p.parse_args()
    for preset in args.presets.split(","):
        game, _ = resolve_rules(preset)
        points = decision_points(preset, args.deals)
        paths: dict[str, Callable[[object, int, object], object]] = {"json": view}  # type: ignore[dict-item]
        if hasattr(game, "observation"):
            paths["direct"] = game.observation  # type: ignore[assignment]
        for name, see in paths.items():
            print(line(preset, name, len(points), timed(points, see, game.name, args.repeats)))
        print(line(preset, "view", len(points), timed_views(points, args.repeats)))


if __name__ == "__main__":
    main()

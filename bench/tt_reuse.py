"""What the solver's transposition table kept between solves is worth to ``pimc``'s card play (issue 47).

``pimc`` solves every sampled deal with the solver's one default table (:func:`fiftysix.solver.fast.default_tables`),
which is never cleared: entries are exact facts about positions, so the samples of one decision and later decisions
reuse them. This bench replays the same card decisions four ways, each with a table of its own:

* ``kept``: the table kept across samples and decisions (what ``pimc`` does), the decisions in the order played;
* ``decision``: cleared before each decision (reuse across the samples of one decision only);
* ``sample``: cleared before each sampled deal (no reuse);
* ``written``: kept as ``kept``, but an array of the table's size is cleared before each sampled deal: what
  clearing costs the search beyond its own time (the caches it flushes) with the reuse left in place.

Each decision is made by a fresh ``pimc`` with the same seed and no time limit, so every way samples the same deals
and must choose the same card with the same scores (checked: any difference is reported and fails the run). It
prints the solver's nodes and the CPU time of the decisions (clearing not counted) for each way.

    .venv/bin/python bench/tt_reuse.py --rules 56-4 --bot pimc,fast=true,samples=32 --deals 30
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import Any

import numpy as np

from fiftysix import view
from fiftysix.bots.protocol import bot_from_spec, parse_bot_spec
from fiftysix.bots.sampling import Sampler
from fiftysix.bots.search.pimc import PimcBot
from fiftysix.core.deal import Deal
from fiftysix.games import game_of_preset
from fiftysix.games.observation import SeatView
from fiftysix.games.spec import Observation
from fiftysix.solver import fast

WAYS = ("kept", "decision", "sample", "written")
SCRATCH: dict[tuple[int, ...], np.ndarray] = {}
"""The array ``written`` clears, of the table's size."""


class Clearing:
    """A sampler that clears ``array`` before each deal it gives, timing the clearing apart."""

    def __init__(self, inner: Sampler, array: np.ndarray, spent: list[float]) -> None:
        self.inner, self.array, self.spent = inner, array, spent

    def sample(self, rng: random.Random) -> Deal:
        start = time.thread_time()
        self.array[:] = 0
        self.spent[0] += time.thread_time() - start
        return self.inner.sample(rng)


class Timed(PimcBot):
    """``pimc`` whose sampler clears ``array`` before each deal (the ways ``sample`` and ``written``)."""

    def __init__(self, array: np.ndarray, spent: list[float], **options: Any) -> None:
        super().__init__(**options)
        self.array, self.spent = array, spent

    def sampler(self, obs: Observation) -> Sampler:
        return Clearing(super().sampler(obs), self.array, self.spent)


def positions(preset: str, spec: str, deals: int, seed: int) -> list[tuple[SeatView, int]]:
    """The views (and a bot seed) of every card decision ``spec`` solves, in ``deals`` deals it plays at every seat."""
    from fiftysix import Deal55, Deal56

    game = game_of_preset(preset)
    rules: Any = game.rules_from_json(preset)
    out = []
    for i in range(deals):
        deal: Any = (Deal56 if game.name == "56" else Deal55).from_seed(rules, seed=seed + i)
        bots = [bot_from_spec(spec, seed=seed + i * 10 + s, game=game.name) for s in range(rules.players)]
        while not deal.is_over:
            s = deal.to_move
            v = view(deal, s)
            move = bots[s].choose(v)
            if getattr(bots[s], "last", {}).get("how") in ("solver", "reach"):
                out.append((v, seed + i * 10 + s))
            deal.push(move)
    return out


def decide(v: SeatView, bot_seed: int, options: dict[str, Any], way: str, tables: fast.Tables,
           ) -> tuple[tuple[str, Any], float, int]:
    """One decision one way: its (card, scores), CPU seconds (clearing not counted) and the nodes searched."""
    fast._DEFAULT.tables = tables    # noqa: SLF001 - the bench swaps the solver's default table (this thread's)
    before = tables.nodes
    spent = [0.0]
    if way == "decision":
        tables.table[:] = 0
    if way in ("sample", "written"):    # the entries only: the node counts go on
        array = tables.table if way == "sample" else SCRATCH.setdefault(tables.table.shape, np.zeros_like(tables.table))
        bot: PimcBot = Timed(array, spent, seed=bot_seed, **options)
    else:
        bot = PimcBot(seed=bot_seed, **options)
    start = time.thread_time()
    card = bot.choose(v)
    seconds = time.thread_time() - start - spent[0]
    return (card, bot.last.get("scores")), seconds, tables.nodes - before


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="56-4")
    parser.add_argument("--bot", default="pimc,fast=true,samples=32", help="pimc options (default %(default)s)")
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    name, parsed = parse_bot_spec(args.bot)
    if name != "pimc":
        raise SystemExit("only pimc's options: pimc,fast=true,samples=32")
    options: dict[str, Any] = dict(parsed)
    options.update(time_limit=None, game=game_of_preset(args.rules).name)
    print(f"command: .venv/bin/python bench/tt_reuse.py {' '.join(sys.argv[1:])}")
    views = positions(args.rules, args.bot, args.deals, args.seed)
    for v, bot_seed in views[:5]:     # the numba load, not timed
        decide(v, bot_seed, options, "kept", fast.Tables())
    tables = {way: fast.Tables() for way in WAYS}
    chosen: dict[str, list[tuple[str, Any]]] = {way: [] for way in WAYS}
    seconds: dict[str, list[float]] = {way: [] for way in WAYS}
    nodes = dict.fromkeys(WAYS, 0)
    for i, (v, bot_seed) in enumerate(views):
        for j in range(len(WAYS)):      # the ways take turns going first, so that the load falls alike
            way = WAYS[(i + j) % len(WAYS)]
            choice, secs, n = decide(v, bot_seed, options, way, tables[way])
            chosen[way].append(choice)
            seconds[way].append(secs)
            nodes[way] += n
    differ = sum(any(chosen[w][i] != chosen["kept"][i] for w in WAYS) for i in range(len(views)))
    print(f"{args.rules}, {args.bot}, {args.deals} deals: {len(views)} solved card decisions, "
          f"{differ} with a different card or score between the ways")
    for way in WAYS:
        xs = sorted(seconds[way])
        print(f"{way:<9} nodes {nodes[way]:>13,}  cpu ms a decision: mean {1000 * statistics.fmean(xs):7.2f}  "
              f"median {1000 * statistics.median(xs):7.2f}  p90 {1000 * xs[int(0.9 * (len(xs) - 1))]:7.2f}  "
              f"p99 {1000 * xs[int(0.99 * (len(xs) - 1))]:7.2f}  total {sum(xs):6.2f} s")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())

"""Random episodes per CPU second through :class:`fiftysix.research.vector.VectorEnv`, against the raw engine.

Two figures per preset, measured in turns in this one run (so that both see the same machine load), as CPU
time (``time.process_time``):

* ``engine``: deals dealt from a seed, then every move drawn uniformly from ``deal.legal_moves()`` and applied
  with the validating ``deal.push()`` (``bench/engine.py``'s ``complete``): no observation, no mask;
* ``vector``: ``VectorEnv(preset, num_tables=N)``, each step one uniformly drawn legal action per table
  (``env.sample_legal``) and ``env.step``: observations (N, D), masks (N, actions), rewards, auto-reset.
  Episodes are the deals that ended.  ``--mask-policy`` draws the actions from ``info["action_mask"]``
  instead (a random float per action, the argmax of the legal ones), as a policy reading the mask would.

Each figure is the median of ``--rounds`` turns of ``--seconds`` each, and the best turn: on a shared machine the
best turn is the nearest to what one core does alone (neighbours only ever slow a turn down).

    .venv/bin/python bench/vector_env.py [--presets 56-6,56-4] [--tables 256] [--seconds 2] [--rounds 3]
        [--bots rules]      # the other teams' seats played by our bot inside the env

With ``--bots`` an episode still counts one deal, the bots' moves included: the figure is what a learner
playing team 0 against that bot gets.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import time

import numpy as np

from fiftysix.games import game_of_preset
from fiftysix.research.train import team_env
from fiftysix.research.vector import VectorEnv


class Chooser(random.Random):
    def randrange(self, n: int) -> int:  # type: ignore[override]
        return int(self.random() * n)


def engine_turn(preset: str, seconds: float, first: int) -> tuple[float, int]:
    game = game_of_preset(preset)
    rules = game.rules_from_json(preset)
    rng = Chooser(first)
    clock = time.process_time
    deals, spent = 0, 0.0
    gc.collect()
    while spent < seconds:
        start = clock()
        for _ in range(100):
            deal = game.new_deal(rules, seed=first + deals)
            while not deal.is_over:
                legal = deal.legal_moves()
                deal.push(legal[rng.randrange(len(legal))])
            deals += 1
        spent += clock() - start
    return deals / spent, deals


def vector_turn(env: VectorEnv, seconds: float, rng: np.random.Generator, mask_policy: bool) -> float:
    clock = time.process_time
    episodes, spent = 0, 0.0
    info = env._info()
    gc.collect()
    while spent < seconds:
        start = clock()
        for _ in range(50):
            if mask_policy:
                mask = info["action_mask"]
                actions = np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)
            else:
                actions = env.sample_legal(rng)
            _, _, terminations, _, info = env.step(actions)
            episodes += int(terminations.sum())
        spent += clock() - start
    return episodes / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--presets", default="56-6")
    parser.add_argument("--tables", type=int, default=256)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--mask-policy", action="store_true")
    parser.add_argument("--bots", default=None, metavar="BOT",
                        help="seat this bot at the other teams' seats (the learner plays team 0's)")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} at the start; {os.cpu_count()} CPUs; CPU time; "
          f"{args.tables} tables; policy {'argmax over the mask' if args.mask_policy else 'sample_legal'}"
          f"{'; other teams: ' + args.bots if args.bots else ''}")
    print(f"{'preset':10} {'vector episodes/s':>18} {'engine deals/s':>15} {'ratio':>6}   "
          f"{'best vector':>11} {'best engine':>11} {'ratio':>6}")
    for preset in args.presets.split(","):
        env = team_env(preset, args.tables, args.bots)
        env.reset(seed=1)
        rng = np.random.default_rng(1)
        vec: list[float] = []
        eng: list[float] = []
        first = 0
        for _ in range(args.rounds):
            rate, played = engine_turn(preset, args.seconds, first)
            first += played
            eng.append(rate)
            vec.append(vector_turn(env, args.seconds, rng, args.mask_policy))
        v, e = statistics.median(vec), statistics.median(eng)
        bv, be = max(vec), max(eng)
        print(f"{preset:10} {v:18,.0f} {e:15,.0f} {v / e:6.2f}   {bv:11,.0f} {be:11,.0f} {bv / be:6.2f}")
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()

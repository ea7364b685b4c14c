"""Random episodes per CPU second through :class:`fiftysix.research.vector.VectorEnv`, against the raw engine.

Two figures per preset, measured in turns in this one run (so that both see the same machine load), as CPU
time (``time.process_time``):

* ``engine``: deals dealt from a seed, then every move drawn uniformly from ``deal.legal_moves()`` and applied
  with the validating ``deal.push()`` (``bench/engine.py``'s ``complete``): no observation, no mask;
* ``vector``: ``VectorEnv(preset, num_tables=N)``, each step one uniformly drawn legal action per table
  (``env.sample_legal``) and ``env.step``: observations (N, D), masks (N, actions), rewards, auto-reset.
  Episodes are the deals that ended.  ``--mask-policy`` draws the actions from ``info["action_mask"]``
  instead (a random float per action, the argmax of the legal ones), as a policy reading the mask would;
  ``--compiled-policy`` reads the mask with a numba kernel instead (each table's legal actions counted along its
  row, eight entries at a time, and one drawn uniformly by a random number of the table: a policy that reads every
  mask entry and does nothing else).
  The env plays the cards with its compiled kernel where it can (``env.compiled``, ``research.vector_play``);
  ``--reference`` measures ``VectorEnv(..., compiled=False)`` (every move the engine's ``Deal.push``) as well, in
  the same turns.  ``policy`` is the share of the vector turns' time spent in the policy's own draw (not the env);
  ``env alone`` is the episodes per second of the rest of the turn (the env's own time: the turn less the draw),
  and its ratio to the engine's median.

Each figure is the median of ``--rounds`` turns of ``--seconds`` each, and the best turn: on a shared machine the
best turn is the nearest to what one core does alone (neighbours only ever slow a turn down).

    .venv/bin/python bench/vector_env.py [--presets 56-6,56-4] [--tables 256] [--seconds 2] [--rounds 3]
        [--mask-policy | --compiled-policy] [--reference]
        [--bots rules]      # the other teams' seats played by our bot inside the env

With ``--bots`` an episode still counts one deal, the bots' moves included: the figure is what a learner
playing team 0 against that bot gets.  ``rules`` at 56 with standard bidding is played by the compiled kernels
(:mod:`fiftysix.research.vector_rules56`: env ``compiled``); ``--reference`` then measures the same seats played by
the Python bot on the engine (``compiled=False``), the path every other bot takes.  The line ``bots`` gives the
compiled bots' decisions and those left to the Python bot (tables the kernels do not hold: none here).

Issue 60's figure (learning against seated ``rules`` at 0.5x the engine or better)::

    .venv/bin/python bench/vector_env.py --presets 56-4,56-6 --bots rules --compiled-policy --reference
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import time

import numpy as np
from numba import njit

from fiftysix.games import game_of_preset
from fiftysix.research.table import Encoding
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


@njit(cache=True, nogil=True)
def draw_from_mask(flat, words, width, u, out):  # type: ignore[no-untyped-def]
    """``out[i]``: the legal action of row ``i`` of the masks at the place ``u[i]`` (0 to 1) of its legal ones.

    The masks are read as bytes (``flat``: the (N, ``width``) bool array's bytes, 0 or 1) and eight at a time as words
    (``words``: the same bytes as uint64): a word's count of legal actions is its bytes' sum, the top byte of the word
    times 0x0101010101010101.  Every entry is read; the draw is uniform over the row's legal actions.
    """
    ones = np.uint64(0x0101010101010101)
    top = np.uint64(56)
    for i in range(u.shape[0]):
        start = i * width
        end = start + width
        first = (start + 7) // 8      # the whole words of the row: first to last - 1 (none in a short row)
        last = end // 8
        head = min(first * 8, end)
        tail = max(last * 8, head)
        count = 0
        for b in range(start, head):
            count += flat[b]
        for w in range(first, last):
            count += np.int64((words[w] * ones) >> top)
        for b in range(tail, end):
            count += flat[b]
        pick = int(u[i] * count)
        b = start       # the pick-th legal action, in order: the bytes before the first word, the words, the rest
        while b < head:
            pick -= flat[b]
            if pick < 0:
                break
            b += 1
        if pick >= 0:
            w = first
            while w < last:
                c = np.int64((words[w] * ones) >> top)
                if pick < c:
                    break
                pick -= c
                w += 1
            b = w * 8 if w < last else tail
            while True:
                pick -= flat[b]
                if pick < 0:
                    break
                b += 1
        out[i] = b - start


def draw(mask: np.ndarray, u: np.ndarray, out: np.ndarray) -> None:
    """:func:`draw_from_mask` on an (N, actions) bool array (its bytes seen as uint8 and as uint64, not copied)."""
    flat = mask.reshape(-1).view(np.uint8)
    draw_from_mask(flat, flat[: flat.shape[0] // 8 * 8].view(np.uint64), mask.shape[1], u, out)


def vector_turn(env: VectorEnv, seconds: float, rng: np.random.Generator, policy: str) -> tuple[float, float]:
    """(episodes a second, the share of the time spent drawing the actions)."""
    clock = time.process_time
    episodes, spent, drawing = 0, 0.0, 0.0
    info = env._info()
    drawn_actions = np.zeros(env.num_tables, np.int64)
    gc.collect()
    while spent < seconds:
        start = clock()
        for _ in range(50):
            drawn = clock()
            if policy == "argmax":
                mask = info["action_mask"]
                actions = np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)
            elif policy == "compiled":
                draw(info["action_mask"], rng.random(env.num_tables), drawn_actions)
                actions = drawn_actions
            else:
                actions = env.sample_legal(rng)
            drawing += clock() - drawn
            _, _, terminations, _, info = env.step(actions)
            episodes += int(terminations.sum())
        spent += clock() - start
    return episodes / spent, drawing / spent


def opponents(preset: str, bot: str | None) -> dict[int, str] | None:
    """The other teams' seats played by ``bot`` (as ``team_env`` seats them), or None."""
    if bot is None:
        return None
    return {s: bot for s, t in enumerate(Encoding(preset).team_of) if t != 0}


def measured(env: VectorEnv) -> VectorEnv:
    """The env reset, and one step taken (numba loads its compiled kernel at the first call)."""
    env.reset(seed=1)
    env.step(env.sample_legal(np.random.default_rng(0)))
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--presets", default="56-6")
    parser.add_argument("--tables", type=int, default=256)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--mask-policy", action="store_true", help="argmax of a random float per legal action")
    parser.add_argument("--compiled-policy", action="store_true", help="a numba kernel draws from the mask")
    parser.add_argument("--reference", action="store_true", help="measure VectorEnv(compiled=False) as well")
    parser.add_argument("--bots", default=None, metavar="BOT",
                        help="seat this bot at the other teams' seats (the learner plays team 0's)")
    args = parser.parse_args()
    policy = "argmax" if args.mask_policy else "compiled" if args.compiled_policy else "sample"
    describe = {"argmax": "argmax over the mask", "compiled": "compiled draw from the mask",
                "sample": "sample_legal"}[policy]
    draw(np.ones((2, 9), np.bool_), np.zeros(2), np.zeros(2, np.int64))    # (compiled before timing)
    print(f"load average {os.getloadavg()[0]:.2f} at the start; {os.cpu_count()} CPUs; CPU time; "
          f"{args.tables} tables; policy {describe}"
          f"{'; other teams: ' + args.bots if args.bots else ''}")
    print(f"{'preset':10} {'env':9} {'vector episodes/s':>18} {'engine deals/s':>15} {'ratio':>6}   "
          f"{'best vector':>11} {'best engine':>11} {'ratio':>6} {'policy':>7} {'env alone':>10} {'ratio':>6}")
    for preset in args.presets.split(","):
        envs = {"compiled" if (e := team_env(preset, args.tables, args.bots)).compiled else "engine": e}
        if args.reference:
            envs["reference"] = VectorEnv(preset, num_tables=args.tables, compiled=False, autoreset="SameStep",
                                          reward_seat="all", bots=opponents(preset, args.bots))
        rngs = {name: np.random.default_rng(1) for name in envs}
        for env in envs.values():
            measured(env)
        vec: dict[str, list[tuple[float, float]]] = {name: [] for name in envs}
        eng: list[float] = []
        first = 0
        for _ in range(args.rounds):     # in turns: the engine, then each env
            rate, played = engine_turn(preset, args.seconds, first)
            first += played
            eng.append(rate)
            for name, env in envs.items():
                vec[name].append(vector_turn(env, args.seconds, rngs[name], policy))
        e, be = statistics.median(eng), max(eng)
        for name, turns in vec.items():
            rates = [r for r, _ in turns]
            v, bv = statistics.median(rates), max(rates)
            share = statistics.median([d for _, d in turns])
            alone = statistics.median([r / (1 - d) for r, d in turns])
            print(f"{preset:10} {name:9} {v:18,.0f} {e:15,.0f} {v / e:6.2f}   {bv:11,.0f} {be:11,.0f} {bv / be:6.2f} "
                  f"{share:7.0%} {alone:10,.0f} {alone / e:6.2f}")
        seated = envs.get("compiled")
        if seated is not None and seated.rules_seats is not None:
            print(f"{preset:10} bots      {seated.rules_seats.decisions:,} compiled decisions, "
                  f"{seated.rules_seats.fallbacks:,} by the Python bot")
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()

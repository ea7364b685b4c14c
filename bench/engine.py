"""Complete random deals per second through the engine's own legal-move generator.

Each deal is dealt from a seed, then every move (calls, trump choice, cards) is drawn uniformly from
``deal.legal_moves()`` and applied with the validating ``deal.push()``.  One process, one core.

    .venv/bin/python bench/engine.py [--seconds 3] [--presets 56-4,56-6,56-8,55,55-9]
"""

from __future__ import annotations

import argparse
import random
import time

from fiftysix.games import game_of_preset


def play_random(game: object, rules: object, seed: int, rng: random.Random) -> int:
    deal = game.new_deal(rules, seed=seed)  # type: ignore[attr-defined]
    moves = 0
    while not deal.is_over:
        legal = deal.legal_moves()
        deal.push(legal[rng.randrange(len(legal))])
        moves += 1
    return moves


def bench(preset: str, seconds: float) -> tuple[float, float]:
    game = game_of_preset(preset)
    rules = game.rules_from_json(preset)
    rng = random.Random(1)
    deals = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            moves += play_random(game, rules, deals, rng)
            deals += 1
    elapsed = time.perf_counter() - start
    return deals / elapsed, moves / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--presets", default="56-4,56-6,56-8,55,55-9")
    args = parser.parse_args()
    print(f"{'preset':<10} {'deals/s':>10} {'moves/s':>10}")
    for preset in args.presets.split(","):
        try:
            game_of_preset(preset)
        except ValueError as e:
            print(f"{preset:<10} skipped: {e}")
            continue
        deals, moves = bench(preset, args.seconds)
        print(f"{preset:<10} {deals:>10,.0f} {moves:>10,.0f}")


if __name__ == "__main__":
    main()

"""One stretch of engine work for instruction counts, which a loaded machine does not disturb (CPU time does).

The same positions as ``bench/engine.py`` (deals brought to the play with moves drawn by its chooser) after
the same warm-up (300 complete deals), then one ``MODE``:

* ``base``: nothing more (what every other mode subtracts);
* ``complete``: ``N`` complete deals from seeds 0..N-1, every move drawn from ``legal_moves()`` and pushed;
* ``auction``: ``N`` deals from their seed to the start of the play (dealing and auction);
* ``deal``: ``N`` deals dealt from their seed;
* ``play``: the play of the ``N`` prepared deals through ``legal_moves()``/``push()``;
* ``minimal``: the minimal bitmask loop of ``bench/engine.py`` from the same positions.

Instructions a deal of a mode = (the run's total - the ``base`` run's total) / N::

    for m in base complete play minimal; do
      PYTHONHASHSEED=0 PYTHONPATH=src valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python bench/engine_count.py $m 400 56-6 2>&1 | grep Collected
    done
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import engine  # noqa: E402  (bench/engine.py, beside this file)

from fiftysix.games import game_of_preset  # noqa: E402


def main() -> None:
    mode, n = sys.argv[1], int(sys.argv[2])
    preset = sys.argv[3] if len(sys.argv) > 3 else "56-6"
    game = game_of_preset(preset)
    rules = game.rules_from_json(preset)
    rng = engine.Chooser(5)
    for seed in range(300):     # warm the caches the same way in every mode
        engine.play_out(game.new_deal(rules, seed=10**6 + seed), rng)
    rng = engine.Chooser(2)
    batch, seed = [], 0
    while len(batch) < n:
        d = engine.to_play(game, rules, seed, rng)
        seed += 1
        if d is not None:
            batch.append(d)
    starts = [engine.minimal_start(d) for d in batch]
    gc.collect()
    gc.disable()
    rng = engine.Chooser(3)
    if mode == "play":
        for d in batch:
            engine.play_out(d, rng)
    elif mode == "minimal":
        for loop, hands, leader, trump, teams, tricks in starts:
            loop(hands, leader, trump, teams, tricks, rng)
    elif mode == "complete":
        for s in range(n):
            engine.play_out(game.new_deal(rules, seed=s), rng)
    elif mode == "auction":
        for s in range(n):
            engine.to_play(game, rules, s, engine.Chooser(7))
    elif mode == "deal":
        for s in range(n):
            game.new_deal(rules, seed=s)
    elif mode != "base":
        raise SystemExit(f"unknown mode {mode!r}: base, complete, auction, deal, play or minimal")


if __name__ == "__main__":
    main()

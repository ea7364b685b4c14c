"""OpenSpiel's ISMCTS as an outside program of the bot protocol: seat it with
``fiftysix arena --rules 56-4 --bot "cmd:python docs/examples/openspiel_ismcts_bot.py" --bot rules``.

Any OpenSpiel bot or trained policy with ``step(state) -> action`` sits the same way: change ``make``.
"""

from __future__ import annotations

import sys

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from fiftysix.bots.protocol import run_bot
from fiftysix.openspiel import SpielBot

SIMULATIONS = int(sys.argv[1]) if len(sys.argv) > 1 else 50


def make(game):
    rng = np.random.RandomState(0)
    return ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0,
                            max_simulations=SIMULATIONS, random_state=rng)


if __name__ == "__main__":
    sys.exit(run_bot(SpielBot(make, seed=0, name=f"openspiel-ismcts-{SIMULATIONS}"), sys.stdin, sys.stdout))

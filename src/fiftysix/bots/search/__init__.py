"""Game-agnostic search bots: ``pimc`` (:mod:`.pimc`, with :mod:`.ddplay`) and ``ismcts`` (:mod:`.ismcts`).

They reach a game only through its :class:`~fiftysix.games.spec.GameSpec` (observation, sampler, play rule,
play state for the solver) and its bots' :class:`~fiftysix.bots.kits.GameKit`; they never name a game.
"""

from __future__ import annotations

from . import ismcts, kermit, pimc

pimc.register_games()
kermit.register_games()

__all__ = ["ismcts", "kermit", "pimc"]

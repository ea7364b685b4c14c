"""Game-agnostic search bots: ``pimc`` (:mod:`.pimc`, with :mod:`.ddplay`), its weighted-sampling variants
``kermit`` (:mod:`.kermit`) and ``reader`` (:mod:`.reader`), ``sage`` (:mod:`.sage`: its calls
calibrated), and ``ismcts`` (:mod:`.ismcts`).

They reach a game only through its :class:`~fiftysix.games.spec.GameSpec` (observation, sampler, play rule,
play state for the solver) and its bots' :class:`~fiftysix.bots.kits.GameKit`; they never name a game.
"""

from __future__ import annotations

from . import ismcts, kermit, pimc, reader, sage

pimc.register_games()
kermit.register_games()
reader.register_games()
sage.register_games()

__all__ = ["ismcts", "kermit", "pimc", "reader", "sage"]

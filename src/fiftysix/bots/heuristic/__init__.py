"""Heuristic players and the game-specific parts of the search bots, one set per game.

56: :mod:`.rules56` (the ``rules`` player) with :mod:`.knowledge` (card counting and bid reading),
:mod:`.simulate56` and :mod:`.pimc_weights56` (the contract model), :mod:`.pimc_auction56` (``pimc``'s calls),
:mod:`.policy56` (ISMCTS's rollouts); 55: :mod:`.rules55`, :mod:`.pimc55`, :mod:`.policy55`.  Each game's
:class:`~fiftysix.bots.kits.GameKit` (:mod:`.fifty_six`, :mod:`.fifty_five`) hands these to the game-agnostic
search bots of :mod:`fiftysix.bots.search`.
"""

from __future__ import annotations

from . import fifty_five, fifty_six, rules55, rules56

__all__ = ["fifty_five", "fifty_six", "rules55", "rules56"]

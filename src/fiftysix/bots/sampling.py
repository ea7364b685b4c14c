"""Whole deals consistent with one seat's view, for search bots: the game's own sampler, reached through its
:class:`~fiftysix.games.spec.GameSpec` (``observe`` then ``sampler``; OpenSpiel's ``ResampleFromInfostate``).

The samplers themselves live with their games (:mod:`fiftysix.games.sampling`, ``games/fifty_six/sampler.py``,
``games/fifty_five/sampler.py``): what a view shows about the hidden cards is a matter of each game's rules.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..core.deal import Deal
from ..games import GAMES
from ..games.sampling import Claim, DealSampler
from ..games.spec import Sampler, SamplingError

__all__ = ["Claim", "DealSampler", "Sampler", "SamplingError", "sample_deals", "sampler_for"]


def sampler_for(view: Mapping[str, Any], *, use_bids: bool = True, infer: bool = True,
                tries: int = 300) -> Sampler:
    """The sampler of ``view``'s game, having read the view once.

    :raises SamplingError: if no deal agrees with the view.
    :raises ValueError: for a malformed view.
    """
    game = GAMES[view["game"]]
    return game.sampler(game.observe(view), use_bids=use_bids, infer=infer, tries=tries)


def sample_deals(view: Mapping[str, Any], n: int, rng: random.Random) -> list[Deal]:
    """``n`` deals consistent with ``view``, each replayed to the view's position.

    :raises SamplingError: if no deal agrees with the view.
    """
    sampler = sampler_for(view)
    return [sampler.sample(rng) for _ in range(n)]

"""``sage``: ``pimc`` that bids only what it expects to make with room to spare.

``pimc``'s calls compare the expected score of each call over sampled deals, and a bid must beat passing by a
margin (0.05 tables in 56). Those expectations run high: the bid is made when the sampled estimate is high, so
the contracts chosen are made less often than foreseen (the winner's curse; measured in docs/bots.md). ``sage``
asks a bid to gain the game kit's :attr:`~fiftysix.bots.kits.GameKit.sage_bid_margin` instead (56: 0.4 tables),
chosen by duplicate-arena runs against ``pimc``. The play, the samples and every other option are ``pimc``'s;
``--bot sage,bid_margin=0.6`` sets the margin by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...games import DEFAULT_GAME
from ..base import register
from ..kits import KITS, kit_for
from .pimc import PimcBot


class SageBot(PimcBot):
    """``pimc`` with the kit's measured bid margin; see the module documentation."""

    name = "sage"

    def __init__(self, seed: int | None = None, bid_margin: float | None = None, game: str = DEFAULT_GAME,
                 **options: Any) -> None:
        if bid_margin is None:
            bid_margin = kit_for(game).sage_bid_margin
        super().__init__(seed=seed, bid_margin=bid_margin, game=game, **options)


def _factory(game: str) -> Callable[..., SageBot]:
    def make(seed: int | None = None, **options: Any) -> SageBot:
        return SageBot(seed=seed, game=game, **options)
    return make


def register_games(games: Sequence[str] | None = None) -> None:
    """Register ``sage`` for every game with a kit (where the kit has no margin of its own it calls as ``pimc``)."""
    for game in games if games is not None else list(KITS):
        register("sage", _factory(game), game)

"""Seat views (``docs/spec/views-and-bots.md``): the only thing that leaves the rules for a player.

A view is the JSON of the seat's :class:`~fiftysix.games.observation.Observation`, which the game builds from
the deal (:meth:`~fiftysix.games.spec.GameSpec.observation`: public facts, that seat's own hand and the game's
own fields filtered for the seat).  So the view and what an in-process bot decides from are one thing.  A
spectator (``seat=None``) sees public information only.
"""

from __future__ import annotations

from .core.deal import Deal
from .games import GAMES
from .games.observation import SeatView, TrickView
from .games.spec import MatchLike

__all__ = ["SeatView", "TrickView", "view"]


def view(deal: Deal, seat: int | None, match: MatchLike | None = None) -> SeatView:
    """What ``seat`` may know now, as JSON-ready data (``seat=None``: a spectator).

    :param match: the match the deal belongs to, for the ``match`` field (scores, deal number).
    :raises ValueError: for a seat the deal does not have.
    """
    return GAMES[deal.game].observation(deal, seat, match).to_json()

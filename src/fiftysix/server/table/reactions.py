"""Reactions: a few preset signs and short phrases a member sends to everyone at the table.

There is no free text: with only these, nothing about the cards can be said.  A reaction is not a change of
the table (not logged, no version); it goes to every connection at once as
``{"type": "reaction", "seat": table seat or null, "name": ..., "reaction": ..., "time": ...}`` and the page
shows it on the sender's seat for a few seconds.  Each person may send ``Limits.reaction_burst`` at once and
``Limits.reactions_per_minute`` a minute on average (a :class:`~fiftysix.server.edge.limits.Buckets` per table); more
are refused.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ...core.meaning import N_, Meaning
from ..state.table import TableError
from .outgoing import Reaction

if TYPE_CHECKING:
    from .live import LiveTable

REACTIONS = ("😄", "😮", "😅", "😎", "😢", "❤",
             "Well played", "Good luck", "Thanks", "Sorry", "Oops", "Nice trick")
"""The reactions, in the page's order; the phrases are English ids the page translates."""


def react(table: LiveTable, player: str, reaction: object) -> None:
    """Broadcast ``player``'s reaction to the table.

    :raises TableError: for a reaction not in :data:`REACTIONS`, a person who has not joined, or one over
        the rate limit.
    """
    if reaction not in REACTIONS:
        raise TableError(f"reaction must be one of: {', '.join(REACTIONS)}")
    state = table.state
    if player not in state.players:
        raise TableError("join the table with a name first")
    if table.reaction_limit.empty(player):
        limits = table.limits
        raise TableError(Meaning(N_("too many reactions: at most {burst} at once and {most} a minute; this one "
                                    "was not sent"), {"burst": limits.reaction_burst,
                                                      "most": limits.reactions_per_minute}))
    table.reaction_limit.take(player)
    table.send_all(Reaction(state.seat_of(player), state.players[player], reaction, round(time.time(), 2)))

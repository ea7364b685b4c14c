"""The compact observation of the vector env (:mod:`.vector`): its pieces laid end to end (:class:`Layout`), the
standing bid and the trump as a seat may know them, and :func:`encode_view`, the same vector built slowly from a
seat's JSON view (the reference the env is tested against)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from .layout import COMPACT_PHASES, CompactLayout, Seen
from .layout import PHASES_WITH_KITTY as PHASES_WITH_KITTY  # (the names this module has always had)
from .layout import STRAINS as STRAINS
from .layout import Piece as Piece
from .layout import auction_fields as auction_fields
from .table import Encoding

PHASES = COMPACT_PHASES
SUITS_OR_NONE = ("S", "H", "D", "C", "none")

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


Layout = CompactLayout
"""The compact observation's layout (the name the vector env exports)."""


def trump_fields(deal: Any) -> tuple[int, bool, int, bool]:
    """(trump index or -1, known to every seat, declarer or -1, hidden and not turned up), as the game's
    ``observation`` decides who knows the trump."""
    mode = getattr(deal.rules, "trump", None)
    if mode is None:        # 55: the bidder names trumps after the discard, for all to see
        return (-1 if deal.trump is None else int(deal.trump)), True, -1, False
    contract = deal.contract
    declarer = -1 if contract is None else int(contract.declarer)
    if mode == "bid":
        if contract is None:
            return -1, True, declarer, False
        return (4 if deal.trump is None else int(deal.trump)), True, declarer, False
    if not deal.trump_chosen:
        return -1, True, declarer, False
    code = 4 if deal.trump is None else int(deal.trump)
    hidden = deal.rules.trump == "hidden" and not deal.revealed
    return code, not hidden, declarer, hidden


def encode_view(enc: Encoding, seat_view: Mapping[str, Any]) -> FloatArray:
    """The compact observation of a seat's JSON view (:func:`fiftysix.views.view`), read into the typed
    :class:`~fiftysix.games.observation.Observation` (the game's ``observe``) and encoded from it by the one
    encoder (:meth:`.layout.Layout.encode`), plus the view's ``pending_discard`` (the table's own field).

    Slow; the reference :class:`VectorEnv` is tested against.  The standing bid is read by replaying the
    view's public calls on a deal of the rules (calls do not depend on the cards).
    """
    full = {"game": enc.game.name, "rules": enc.rules.to_json(True), **seat_view}
    obs = enc.game.observe(full)
    pending = tuple(enc.kinds[enc.kind_of[str(c)]] for c in seat_view.get("pending_discard") or ())
    layout = Layout(enc)
    out = np.zeros(layout.size, np.float32)
    layout.encode(Seen(enc, obs.seat, obs.phase, obs.hand, obs, pending=pending), out)
    return out

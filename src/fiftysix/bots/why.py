"""A short reason for a bot's decision, for the deal review ("plays the 9H: partner's AH is sure to win the
trick"). Built from the view, the move and what the searching bots note of their last decision (``last``:
``how``, ``samples``, ``scores``); never from anything the view does not show.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import View
from .kits import KITS

MAX_REASON = 200
"""Characters; a reason is one short sentence."""


def _doing(view: View, move: str) -> str:
    phase = view.get("phase")
    if move == "P":
        return "passes"
    if move in ("X", "XX"):
        return "doubles" if move == "X" else "redoubles"
    if move == "?":
        return "asks for the trump"
    if phase == "auction":
        return f"bids {move}"
    if phase == "trump":
        return f"chooses {move}"
    return f"plays the {move}"


def reason(view: View, move: str, last: Mapping[str, Any] | None = None) -> str:
    """One sentence: what the bot does and why (at most :data:`MAX_REASON` characters)."""
    what = _doing(view, move)
    why = _trusting_partner(view, move) or _how_it_chose(move, last or {})
    text = f"{what}: {why}" if why else what
    return text[:MAX_REASON]


def _trusting_partner(view: View, move: str) -> str:
    """Why a card leaves the trick to a partner whose card is sure to win it (games with trust rules)."""
    kit = KITS.get(str(view.get("game")))
    trust = kit.trust if kit is not None else None
    if trust is None or view.get("phase") != "play" or move in ("?", "CLAIM"):
        return ""
    if not trust.sure_for_partner(view) or trust.overtakes(view, move):
        return ""
    trick: Mapping[str, Any] = view.get("trick") or {}
    return "partner's card is sure to win the trick" if list(trick.get("cards") or []) else ""


_PLAIN_HOW = {
    "simulation": "its expected score was the best over the simulated deals",
    "only move": "it is the only legal move",
    "rules": "early in the deal the rules of thumb choose",
}
"""Why, for the ways of choosing that need no figures."""


def _how_it_chose(move: str, last: Mapping[str, Any]) -> str:
    """Why, from what a searching bot noted of its decision (``how``, ``samples``, ``scores``)."""
    how = last.get("how")
    if how in ("solver", "reach"):
        n = int(last.get("samples") or 0)
        share = (last.get("scores") or {}).get(move)
        if isinstance(share, int | float) and n:
            return f"it scores {share:.2f} over {n} deals the bot thinks likely, solved with every hand shown"
        return f"it did best over {n} deals solved with every hand shown"
    if how == "alphamu":
        return f"one plan for its next cards did best over {int(last.get('samples') or 0)} deals the bot thinks likely"
    return _PLAIN_HOW.get(how, "") if isinstance(how, str) else ""

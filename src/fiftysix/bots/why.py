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
    last = last or {}
    what = _doing(view, move)
    how = last.get("how")
    why = ""
    kit = KITS.get(str(view.get("game")))
    trust = kit.trust if kit is not None else None
    if trust is not None and view.get("phase") == "play" and move not in ("?", "CLAIM") \
            and trust.sure_for_partner(view) and not trust.overtakes(view, move):
        trick: Mapping[str, Any] = view.get("trick") or {}
        cards = list(trick.get("cards") or [])
        why = "partner's card is sure to win the trick" if cards else ""
    if not why and how in ("solver", "reach"):
        scores = last.get("scores") or {}
        n = int(last.get("samples") or 0)
        share = scores.get(move)
        if isinstance(share, int | float) and n:
            why = f"it scores {share:.2f} over {n} deals the bot thinks likely, solved with every hand shown"
        else:
            why = f"it did best over {n} deals solved with every hand shown"
    elif not why and how == "alphamu":
        why = f"one plan for its next cards did best over {int(last.get('samples') or 0)} deals the bot thinks likely"
    elif not why and how == "simulation":
        why = "its expected score was the best over the simulated deals"
    elif not why and how == "only move":
        why = "it is the only legal move"
    elif not why and how == "rules":
        why = "early in the deal the rules of thumb choose"
    text = f"{what}: {why}" if why else what
    return text[:MAX_REASON]

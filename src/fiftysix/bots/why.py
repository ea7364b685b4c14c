"""A short reason for a bot's decision, for the deal review ("plays the 9H: partner's AH is sure to win the
trick"). Built from the seat's observation, the move and what the searching bots note of their last decision (``last``:
``how``, ``samples``, ``scores``); never from anything the view does not show.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..games.spec import Observation
from .base import Seen, observed
from .kits import KITS

MAX_REASON = 200
"""Characters; a reason is one short sentence."""


def _doing(obs: Observation, move: str) -> str:
    phase = obs.phase
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


def reason(seen: Seen, move: str, last: Mapping[str, object] | None = None) -> str:
    """One sentence: what the bot does and why (at most :data:`MAX_REASON` characters)."""
    obs = observed(seen)
    what = _doing(obs, move)
    why = _trusting_partner(obs, move) or _how_it_chose(move, last or {})
    text = f"{what}: {why}" if why else what
    return text[:MAX_REASON]


def _trusting_partner(obs: Observation, move: str) -> str:
    """Why a card leaves the trick to a partner whose card is sure to win it (games with trust rules)."""
    kit = KITS.get(obs.game)
    trust = kit.trust if kit is not None else None
    if trust is None or obs.phase != "play" or move in ("?", "CLAIM"):
        return ""
    if not trust.sure_for_partner(obs) or trust.overtakes(obs, move):
        return ""
    return "partner's card is sure to win the trick" if obs.trick is not None and obs.trick.cards else ""


_PLAIN_HOW = {
    "simulation": "its expected score was the best over the simulated deals",
    "only move": "it is the only legal move",
    "rules": "early in the deal the rules of thumb choose",
}
"""Why, for the ways of choosing that need no figures."""


def _how_it_chose(move: str, last: Mapping[str, object]) -> str:
    """Why, from what a searching bot noted of its decision (``how``, ``samples``, ``scores``)."""
    how = last.get("how")
    samples, scores = last.get("samples"), last.get("scores")
    n = samples if isinstance(samples, int) else 0
    if how in ("solver", "reach"):
        share = scores.get(move) if isinstance(scores, Mapping) else None
        if isinstance(share, int | float) and n:
            return f"it scores {share:.2f} over {n} deals the bot thinks likely, solved with every hand shown"
        return f"it did best over {n} deals solved with every hand shown"
    if how == "alphamu":
        return f"one plan for its next cards did best over {n} deals the bot thinks likely"
    return _PLAIN_HOW.get(how, "") if isinstance(how, str) else ""

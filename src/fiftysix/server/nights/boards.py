"""Board k of an event: its deal seed and dealer, the same at every table, and a table's result on it (pure)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from ...games import game_of_preset
from ..state.dealing import board_dealer as board_dealer  # the table deals a fixed board by this rule
from ..state.typed_json import Received


def board_seed(event_seed: str, board: int) -> int:
    """The 62-bit deal seed of ``board``: a hash of the event's secret seed and the board number, so the boards
    cannot be guessed from one another and every table (on any process) derives the same one."""
    digest = hashlib.sha256(f"{event_seed}:{board}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def board_result(result: Mapping[str, object], width: int) -> tuple[list[int], Received | None, object]:
    """A table's stored deal result read as a board's: the gain of each of the ``width`` directions (the deal's
    ``score``; nothing to anyone when nobody declared), the contract and whether it was made."""
    score = result.get("score")
    if isinstance(score, list | tuple) and len(score) == width and all(isinstance(x, int) for x in score):
        gains = [int(x) for x in score]
    else:
        gains = [0] * width
    contract = result.get("contract")
    return gains, (contract if isinstance(contract, dict) else None), result.get("made")


def directions(preset: str) -> tuple[int, ...]:
    """Each table seat's direction for an event of ``preset``: its team in 56, the seat itself in 55."""
    game = game_of_preset(preset)
    return tuple(int(t) for t in game.rules_from_json(preset).team_of)

"""Board k of an event: its deal seed and dealer, the same at every table (pure)."""

from __future__ import annotations

import hashlib


def board_seed(event_seed: str, board: int) -> int:
    """The 62-bit deal seed of ``board``: a hash of the event's secret seed and the board number, so the boards
    cannot be guessed from one another and every table (on any process) derives the same one."""
    digest = hashlib.sha256(f"{event_seed}:{board}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def board_dealer(board: int, seats: int) -> int:
    """The table seat that deals ``board``: the deal passes round as at a table, the same at every table."""
    return (board - 1) % seats

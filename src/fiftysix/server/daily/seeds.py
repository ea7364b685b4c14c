"""The day's sets and their boards' seeds (pure: the clock and the secret are passed in).

A day's seed is ``HMAC-SHA256(the server's secret, "daily:" + the UTC date + ":" + the preset)``: the secret never
leaves the server, so nobody can compute a day's boards before the server deals them, and every process (one
database, one secret) derives the same ones.  Board ``k``'s deal seed is then the club nights' rule
(:func:`..nights.boards.board_seed`), so a day's board is dealt exactly as an event's board is.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from dataclasses import dataclass

from ..nights.boards import board_seed

DEFAULT_SETS = "56-6:8,56-4:8"
"""The operator's choice when ``FIFTYSIX_DAILY`` is not set: eight boards of 56-6 and eight of 56-4."""
DEFAULT_LEVEL = "club"
DAY = 86_400


@dataclass(frozen=True)
class DailySet:
    """One of the day's sets: a preset and how many boards of it everyone plays."""

    preset: str
    boards: int


def parse_sets(text: str) -> tuple[DailySet, ...]:
    """``"56-6:8,56-4:8"`` read as the day's sets.

    :raises ValueError: naming the part that is wrong and what is allowed."""
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        preset, _, boards = part.partition(":")
        if not boards.isdigit() or not 1 <= int(boards) <= 32:
            raise ValueError(f"daily set {part!r}: write PRESET:BOARDS with 1 to 32 boards, such as 56-6:8")
        out.append(DailySet(preset, int(boards)))
    if not out or len({s.preset for s in out}) != len(out):
        raise ValueError("daily sets: one or more PRESET:BOARDS, each preset once, such as 56-6:8,56-4:8")
    return tuple(out)


def day_of(now: float) -> str:
    """The UTC date of ``now`` (seconds since 1970), as ``YYYY-MM-DD``: the day's name."""
    return time.strftime("%Y-%m-%d", time.gmtime(now))


def day_end(day: str) -> int:
    """The second the UTC day ``day`` ends (its boards open to everyone then)."""
    return int(time.mktime(time.strptime(day, "%Y-%m-%d")) - time.timezone) + DAY


def day_seed(secret: str, day: str, preset: str) -> str:
    """The secret seed of ``preset``'s set on ``day`` (hex)."""
    return hmac.new(secret.encode(), f"daily:{day}:{preset}".encode(), hashlib.sha256).hexdigest()


def daily_board_seed(secret: str, day: str, preset: str, board: int) -> int:
    """The deal seed of board ``board`` of ``preset``'s set on ``day``: the same at every player's table."""
    return board_seed(day_seed(secret, day, preset), board)

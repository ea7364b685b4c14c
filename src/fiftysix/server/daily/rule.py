"""The one read rule of today's deals (pure): nothing of board k played by someone else (their contract, result,
hands, table) reaches a player before that player has finished board k, until the day is over.

Every read of the day passes through :func:`may_read`: the standing and the ranking (which count only the boards
the reader may read), a board's page, and every read of a player's daily table (its facts, deals, records,
reviews and socket, through the server's one gate).  See docs/spec/daily.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

LIVE = None
"""A read of a daily table as it is now (its board in play): only its own player's."""


@dataclass(frozen=True)
class Day:
    """What the rule needs of one set of a day: whether the day is over, its boards, who finished which."""

    over: bool
    boards: int
    finished: Mapping[str, frozenset[int]]      # player id -> the boards (1-based) whose deal is stored

    def done(self, player: str | None, board: int) -> bool:
        return player is not None and board in self.finished.get(player, frozenset())


def may_read(day: Day, reader: str | None, owner: str | None, through: int | None) -> bool:
    """May ``reader`` be served boards 1..``through`` as ``owner`` played them (``owner`` ``None``: the field's,
    everyone's; ``through`` :data:`LIVE`: ``owner``'s table as it is now)?

    Yes when the day is over or the reader is the owner; else only stored boards the reader has finished too
    (never a table as it plays: its board in play is unfinished by definition)."""
    if day.over or (reader is not None and reader == owner):
        return True
    if through is None:
        return False
    return all(day.done(reader, b) and (owner is None or day.done(owner, b)) for b in range(1, through + 1))


def readable_boards(day: Day, reader: str | None) -> list[int]:
    """The boards whose field results ``reader`` may be shown (a standing and a ranking count only these)."""
    return [b for b in range(1, day.boards + 1) if may_read(day, reader, None, b)]

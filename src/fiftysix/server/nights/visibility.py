"""The no-early-view rule of club nights (pure): who may be served which board, and who may watch which table.

A board's cards, contracts and results, from any table, leave the server on a page, in the standings or in a
download only once the board is finished at every table, or the event is closed. A person seated at a table of a
running event may watch (and download the record of) only their own table: any other table is ahead of them or
behind, and either way holds a board they have not finished. See docs/spec/club-nights.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

CLOSED = "closed"


@dataclass(frozen=True)
class Progress:
    """What the rule needs of an event: its status, size, the (table, board) pairs finished, who sits where."""

    status: str
    tables: int
    boards: int
    finished: frozenset[tuple[int, int]]
    seated: Mapping[str, int]       # player id -> the table number they sit at

    def finished_everywhere(self, board: int) -> bool:
        return all((t, board) in self.finished for t in range(1, self.tables + 1))

    @property
    def all_played(self) -> bool:
        """Every table has finished every board: the event is over."""
        return all(self.finished_everywhere(b) for b in range(1, self.boards + 1))


def board_shown(progress: Progress, board: int) -> bool:
    """May ``board``'s results at all tables be served (to anyone: pages and standings are the same for all)?"""
    return progress.status == CLOSED or progress.finished_everywhere(board)


def shown_boards(progress: Progress) -> list[int]:
    """The boards whose pages exist for now, in order; the live standings count exactly these."""
    return [b for b in range(1, progress.boards + 1) if board_shown(progress, b)]


def may_watch(progress: Progress, viewer: str | None, table: int) -> bool:
    """May ``viewer`` watch table number ``table`` (its socket view, its record download)?  A person seated at
    the event may watch only their own table until the event is closed; others watch as the club allows."""
    if progress.status == CLOSED or viewer is None or viewer not in progress.seated:
        return True
    return progress.seated[viewer] == table

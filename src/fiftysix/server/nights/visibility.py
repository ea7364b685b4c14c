"""The no-early-view rule of club nights (pure): who may be served which board, and who may watch which table.

A board's cards, contracts and results, from any table, leave the server on a page, in the standings or in a
download only once the board is finished at every table, or the event is closed. Only the people seated at a
table of a running event read it as it plays (:func:`may_read`): everyone else, members and the event's runner
included, reads a board there once every table has finished it. See docs/spec/club-nights.md.
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


LIVE = None
"""A read of an event table as it is now (``through`` of :func:`may_read`): its facts, its socket, its score,
its current board."""


def may_read(progress: Progress, reader: str | None, table: int, through: int | None) -> bool:
    """The one rule every read of an event's table passes through: may ``reader`` be served table number
    ``table``'s deals 1..``through`` (``LIVE``: the table as it is now, with the board in play)?

    While the event is not closed, only the people seated at the table (its teams' players) read it whole; for
    anyone else (a member in no team, whoever runs the event, a watcher, a link holder, a person's second player,
    a person seated at another table) a read of boards 1..k opens only once each of them is finished at every
    table, and the live table never does (its current board is unfinished by definition)."""
    if progress.status == CLOSED or (reader is not None and progress.seated.get(reader) == table):
        return True
    return through is not None and all(board_shown(progress, b) for b in range(1, through + 1))

"""What a feature writes in the transaction of the event that finished a deal (a match's history and ratings,
server/matches): the log writer stores it with the event or not at all, knowing nothing of what it is.

The table publishes "a deal is finishing" (:attr:`fiftysix.server.table.hub.Hub.finishing`); a subscriber answers
with :class:`Attached` writes, and the writer runs them inside the event's transaction, so an effect that must
happen exactly once (a rating) happens exactly when the event is stored."""

from __future__ import annotations

from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncConnection

FastRows = tuple[str, list[tuple[Any, ...]]]
"""One SQL statement and its rows, for the SQLite writer's fast path (``?`` placeholders, JSON as text)."""


class Attached(Protocol):
    """A write that rides with an event into its transaction."""

    def fast(self) -> FastRows | None:
        """The write as plain rows for the SQLite fast path, or ``None``: it needs the engine (it reads first)."""

    async def write(self, conn: AsyncConnection) -> None:
        """The write, on the event's transaction ``conn``."""

"""What a table refuses: one exception for the person who asked, one for a stored event that does not read."""

from __future__ import annotations


class TableError(Exception):
    """A request the table refuses; the message is meant for the person who made it.

    :ivar legal: the legal moves, when the refusal came from the rules.
    """

    def __init__(self, message: str, legal: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.legal = legal


class EventError(TableError):
    """An event that is not one the table knows: an unknown kind, a missing or unknown field, a field of the
    wrong type.  A bug or a corrupt log, never a person's mistake, so the message is not translated."""


class NoMoreDeals(TableError):
    """The table deals no further deal: a club night's table that has played all the event's boards."""

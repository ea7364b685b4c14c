"""A table's recent past: the last events (for reconnects) and the table's state just before them.

A live table keeps in memory only its current state and a :class:`History`: the state as it was at
``base.version`` and the stored events after it, between ``limit`` and ``2 * limit`` of them (when it
holds more, the oldest ``limit`` are applied to the base and let go: one more ``apply`` per event on
average).  Older events live in the database only.  From the history the table can

- rebuild itself as the database holds it (after a failed write: every event here was stored), and
- give a reconnecting client exactly the events it missed, each as that viewer saw it, when it is at
  most ``limit`` events behind (a client further behind gets a full ``state``).
"""

from __future__ import annotations

import copy
from collections import deque
from collections.abc import AsyncIterator, Iterator
from typing import Any

from ..state.table import TableState, replay_into
from ..state.typed_json import Received


def copy_state(state: TableState) -> TableState:
    """An independent copy of a table's state (the game and its rules are shared: they never change)."""
    created = state.created      # (game, rules), or None before the create event
    memo: dict[int, Any] = {} if created is None else {id(created): created}
    return copy.deepcopy(state, memo)


class History:
    """The state at ``base.version`` and the stored events after it (see the module's docstring)."""

    def __init__(self, base: TableState, events: list[Received], limit: int) -> None:
        if limit < 1:
            raise ValueError("the history must keep at least one event")
        self.base = base
        self.events: deque[Received] = deque(events)
        self.limit = limit

    @classmethod
    async def load_stream(cls, code: str, count: int, events: AsyncIterator[Received],
                          limit: int) -> tuple[TableState, History]:
        """The current state of a table and its history, from its ``count`` stored events (one replay, with
        no more than ``limit`` events in memory at once).

        :raises TableError: if the log does not replay (a corrupt database).
        """
        split = max(0, count - limit)
        base = TableState(code)
        recent: list[Received] = []
        async for e in events:
            if base.version < split:
                replay_into(base, e)
            else:
                recent.append(e)
        state = copy_state(base)
        for e in recent:
            replay_into(state, e)
        return state, cls(base, recent, limit)

    @property
    def version(self) -> int:
        """The version after the last event here (the table's version)."""
        return self.base.version + len(self.events)

    def append(self, event: Received) -> None:
        """Remember a stored event; past ``2 * limit`` the oldest ``limit`` move into the base."""
        self.events.append(event)
        if len(self.events) > 2 * self.limit:
            while len(self.events) > self.limit:
                self.base.apply(self.events.popleft())

    def covers(self, since: int) -> bool:
        """Whether the events after version ``since`` are all here, and no more than ``limit`` of them."""
        return self.base.version <= since <= self.version and self.version - since <= self.limit

    def replay_since(self, since: int) -> Iterator[tuple[TableState, Received]]:
        """Each event after version ``since`` with the table's state right after it (one state object,
        changed in place: use it before taking the next).

        :raises ValueError: when :meth:`covers` is false for ``since``.
        """
        if not self.base.version <= since <= self.version:
            raise ValueError(f"version {since} is not in the history ({self.base.version}-{self.version})")
        past = copy_state(self.base)
        for e in self.events:
            past.apply(e)
            if past.version > since:
                yield past, e

    def rebuild(self) -> TableState:
        """The table's state as the database holds it: the base and every event here."""
        state = copy_state(self.base)
        for e in self.events:
            state.apply(e)
        return state

"""A replica's side of a clustered table: it follows the writer's channel (events, presence, who asks to join,
a new writer), reads the log again when it misses something, and holds the writer's answers until their event
has arrived.  Part of :class:`.table.ClusterTable`.
"""

from __future__ import annotations

import logging
import time
from dataclasses import fields
from typing import TYPE_CHECKING, Protocol

from ..state.table import TableError, TableState
from ..table.history import History
from ..table.live import Connection, LiveTable
from ..table.messages import Presence, snapshot, table_info
from .bus import Heard

if TYPE_CHECKING:
    from collections.abc import Awaitable

log = logging.getLogger("fiftysix.server")


class ReplicaHost(Protocol):
    """What a replica needs of its process's hub: to run work in the background and to read a table's log."""

    def later(self, work: Awaitable[object]) -> None: ...
    async def load(self, code: str) -> tuple[TableState, History]: ...


def _presence(data: Heard) -> Presence:
    """The writer's :class:`Presence` as published (every field: sets travel as lists)."""
    presence = Presence()
    for f in fields(Presence):
        if f.name in data:
            value = data[f.name]
            setattr(presence, f.name, set(value) if isinstance(getattr(presence, f.name), set) else value)
    return presence


class Replica(LiveTable):
    """A table whose writer may be another process: what this process does while it only follows."""

    hub: ReplicaHost
    owner: str | None
    later: list[tuple[int, Connection, dict[str, object]]]   # answers waiting for their event
    early: list[Heard] | None                               # events arriving while the log is read again
    shared_knocks: dict[str, str]                         # everyone asking, as the writer published it

    @property
    def writer(self) -> bool:
        return self.epoch is not None

    def here(self) -> None:
        """Tell the writer who is online here (and who asks to join here)."""
        raise NotImplementedError

    def receive(self, data: Heard) -> None:
        """A message on the table's channel (the writer's events, presence, a new writer)."""
        if self.writer:
            return
        if self.early is not None:
            self.early.append(data)
            return
        op = data.get("op")
        if op == "writer":
            self.owner = data.get("from")
            self.shared_knocks = {}     # the new writer publishes them again as it hears of them
            LiveTable.tell_host(self)
            self.here()
            # the old writer may have stored its last event and died before publishing it: the new writer
            # read it from the log, but no later event shows the gap here while that event's seat waits
            self.hub.later(self.resync())
        elif op == "reread":    # the writer's memory was ahead of the log: the log is the truth, whatever version
            self.early = []     # from now on, events wait until the log is read (a new event may reuse a version)
            self.hub.later(self._read_log(always=True))
        elif op == "knocks":
            self.shared_knocks = {str(p): str(n) for p, n in dict(data["k"]).items()}
            LiveTable.tell_host(self)
        elif op == "say":
            LiveTable.send_all(self, dict(data["m"]))
        elif op == "answer":
            self.shared_knocks.pop(str(data["player"]), None)
            LiveTable.answer_knock(self, str(data["player"]), bool(data["admitted"]))
        elif op == "presence":
            self.presence = _presence(data["p"])
            LiveTable.broadcast_presence(self)
        elif op == "event":
            version = int(data["v"])
            if version <= self.state.version:
                return
            if version != self.state.version + 1:
                self.hub.later(self.resync())
                return
            try:
                self.state.apply(data["e"])
            except TableError:
                log.exception("table %s: a published event does not apply here; reading the log", self.code)
                self.hub.later(self.resync())
                return
            self.history.append(data["e"])
            self.last_active = time.time()
            self.presence = _presence(data["p"])
            info = table_info(self.state, self.presence)
            for conn in list(self.conns):
                conn.send(snapshot(self.state, self.presence, conn.player, data["e"], info))
            self._answer_later()

    def answer(self, conn: Connection, message: dict[str, object]) -> None:
        """An answer from the writer: a ``moved`` waits until its event has been sent here."""
        version = message.get("version")
        if message.get("type") == "moved" and isinstance(version, int) and version > self.state.version:
            self.later.append((version, conn, message))
        else:
            conn.send(message)

    def _answer_later(self) -> None:
        if self.later:
            due = [x for x in self.later if x[0] <= self.state.version]
            self.later = [x for x in self.later if x[0] > self.state.version]
            for _v, conn, message in due:
                conn.send(message)

    async def resync(self) -> None:
        """Read the table from the log again (a gap in the published versions) and send a full state."""
        if self.early is not None:
            return
        self.early = []
        await self._read_log()

    async def _read_log(self, always: bool = False) -> None:
        """The work of :meth:`resync`, events arriving meanwhile held in ``early`` (set by the caller); with
        ``always``, a full state is sent even when the log ends at the version this replica holds."""
        try:
            async with self.lock:
                state, history = await self.hub.load(self.code)
                if always or state.version != self.state.version:
                    self.state, self.history = state, history
                    for conn in list(self.conns):
                        conn.send(snapshot(self.state, self.presence, conn.player))
        finally:
            waiting, self.early = self.early or [], None
        for data in waiting:
            self.receive(data)
        self._answer_later()

"""A replica's side of a clustered table: it follows the writer's channel (events, presence, who asks to join,
a new writer), reads the log again when it misses something, and holds the writer's answers until their event
has arrived.  A part of :class:`.table.ClusterTable`, handed the table.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Protocol

from ..state.table import TableError, TableState
from ..state.typed_json import Received
from ..table.connection import Connection
from ..table.history import History
from ..table.knocks import Knocking
from ..table.messages import Presence
from .channel import heard_presence
from .messages import EventMessage, Heard

if TYPE_CHECKING:
    from collections.abc import Awaitable

log = logging.getLogger("fiftysix.server")


class ReplicaHost(Protocol):
    """What a replica needs of its process's hub: to run work in the background and to read a table's log."""

    def later(self, work: Awaitable[object]) -> None: ...
    async def load(self, code: str) -> tuple[TableState, History]: ...


class Followed(Protocol):
    """What the replica's side needs of its table: whether it writes now, its state, connections, lock and door,
    and the steps that show what the writer published to this process's viewers."""

    state: TableState
    conns: set[Connection]
    lock: asyncio.Lock
    door: Knocking

    @property
    def code(self) -> str: ...
    @property
    def writer(self) -> bool: ...
    def here(self) -> None: ...
    def adopt(self, state: TableState, history: History, always: bool = True) -> None: ...
    def show(self, presence: Presence, event: Received | None = None) -> None: ...


class Replica:
    """What a table does while another process writes it: the writer's channel followed, the answers waiting for
    their event (``waiting``), who writes it (``owner``), the events arriving while the log is read again
    (``early``), and who asks to join on any process as the writer published it (``shared_knocks``)."""

    def __init__(self, table: Followed, hub: ReplicaHost, owner: str | None) -> None:
        self.table, self.hub = table, hub
        self.owner = owner      # the process that writes the table (this one's name while it does)
        self.waiting: list[tuple[int, Connection, dict[str, object]]] = []
        self.early: list[Heard] | None = None
        self.shared_knocks: dict[str, str] = {}

    def receive(self, data: Heard) -> None:
        """A message on the table's channel (the writer's events, presence, a new writer)."""
        table = self.table
        if table.writer:
            return
        if self.early is not None:
            self.early.append(data)
            return
        if data["op"] == "writer":
            self.owner = data["from"]
            self.shared_knocks = {}     # the new writer publishes them again as it hears of them
            table.door.tell_host_here()
            table.here()
            # the old writer may have stored its last event and died before publishing it: the new writer
            # read it from the log, but no later event shows the gap here while that event's seat waits
            self.hub.later(self.resync())
        elif data["op"] == "reread":    # the writer's memory was ahead of the log: the log is the truth
            self.early = []     # from now on, events wait until the log is read (a new event may reuse a version)
            self.hub.later(self._read_log(always=True))
        elif data["op"] == "knocks":
            self.shared_knocks = dict(data["k"])
            table.door.tell_host_here()
        elif data["op"] == "say":
            for conn in list(table.conns):
                conn.send(dict(data["m"]))
        elif data["op"] == "answer":
            self.shared_knocks.pop(data["player"], None)
            table.door.answer_here(data["player"], data["admitted"])
        elif data["op"] == "presence":
            table.show(heard_presence(data["p"]))
        elif data["op"] == "event":
            self._event(data)

    def _event(self, data: EventMessage) -> None:
        """The writer's stored event: applied here in order, or the log read again at a gap."""
        version = data["v"]
        if version <= self.table.state.version:
            return
        if version != self.table.state.version + 1:
            self.hub.later(self.resync())
            return
        try:
            self.table.state.apply(data["e"])
        except TableError:
            log.exception("table %s: a published event does not apply here; reading the log", self.table.code)
            self.hub.later(self.resync())
            return
        self.table.show(heard_presence(data["p"]), data["e"])
        self.answer_later()

    def follow(self, owner: str | None) -> None:
        """The process that writes this table now, as the lease says (a replica forwards changes to it)."""
        if not self.table.writer:
            self.owner = owner

    def answer(self, conn: Connection, message: dict[str, object]) -> None:
        """An answer from the writer: a ``moved`` waits until its event has been sent here."""
        version = message.get("version")
        if message.get("type") == "moved" and isinstance(version, int) and version > self.table.state.version:
            self.waiting.append((version, conn, message))
        else:
            conn.send(message)

    def answer_later(self) -> None:
        """Send the answers whose event has arrived."""
        if self.waiting:
            due = [x for x in self.waiting if x[0] <= self.table.state.version]
            self.waiting = [x for x in self.waiting if x[0] > self.table.state.version]
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
            async with self.table.lock:
                state, history = await self.hub.load(self.table.code)
                self.table.adopt(state, history, always)
        finally:
            waiting, self.early = self.early or [], None
        for data in waiting:
            self.receive(data)
        self.answer_later()

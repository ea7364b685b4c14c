"""The spectators of a clustered table counted on every process (``fs:watch:<code>``): a part of
:class:`.table.ClusterTable`, handed what it needs of the hub and the table."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol

from ..state.table import TableError, TableState
from ..table.connection import Connection
from ..table.live import spectators_refusal
from .counters import watch_key

if TYPE_CHECKING:
    from .counters import Counters


class WatchHost(Protocol):
    """What the count needs of the process's hub."""

    counters: Counters

    def later(self, work: Awaitable[object]) -> None: ...
    def watch_member(self) -> str: ...
    async def count_watcher(self, code: str, member: str, most: int) -> int | None: ...


class Watching:
    """This process's connections to a table without a seat, each a member of the table's ``fs:watch`` count."""

    def __init__(self, hub: WatchHost, code: str, state: Callable[[], TableState], most: int) -> None:
        self.hub, self.code, self.state, self.most = hub, code, state, most
        self.members: dict[Connection, str] = {}

    async def count(self, conn: Connection) -> None:
        """Count ``conn`` if it has no seat (the host always gets in).

        :raises TableError: when the table has as many spectators as it may, on all processes together.
        """
        if self.state().seat_of(conn.player) is None:     # counted as one process counts them (``watchers``)
            host = conn.player == self.state().host
            member = self.hub.watch_member()
            full = await self.hub.count_watcher(self.code, member, 1 << 30 if host else self.most)
            if full is not None:
                raise TableError(spectators_refusal(full, self.most))
            self.members[conn] = member

    async def counted(self, conn: Connection, connect: Callable[[], Awaitable[bool]]) -> bool:
        """``connect`` ``conn`` counted (:meth:`count`); uncounted again if it did not connect."""
        await self.count(conn)
        try:
            connected = await connect()
        except BaseException:
            self.uncount(conn)
            raise
        if not connected:
            self.uncount(conn)
        return connected

    def uncount(self, conn: Connection) -> None:
        member = self.members.pop(conn, None)
        if member is not None:
            self.hub.later(self.hub.counters.drop([(watch_key(self.code), member)]))

    def now(self, conns: set[Connection]) -> list[tuple[str, str]]:
        """``conns`` without a seat, as ``fs:watch`` members (who sat down stops counting, who stood up starts)."""
        current = {c for c in conns if self.state().seat_of(c.player) is None}
        for conn in [c for c in self.members if c not in current]:
            self.uncount(conn)
        for conn in current - set(self.members):
            self.members[conn] = self.hub.watch_member()
        return [(watch_key(self.code), member) for member in self.members.values()]

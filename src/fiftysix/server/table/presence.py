"""Who is at a table: connections that go and come back, the grace before the computer covers a seated person
who went, and the presence told to everyone (a part of :class:`~.live.LiveTable`)."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from ..state.table import TableState
from .connection import Connection
from .messages import Presence, table_info
from .outgoing import PresenceNow


class Presences:
    """The table's connections and presence; a seated person who goes is covered after the grace period."""

    conns: set[Connection]
    presence: Presence
    state: TableState
    drop_timers: dict[str, asyncio.TimerHandle]
    lock: asyncio.Lock
    wake: asyncio.Event
    last_active: float
    _presence_dirty: bool

    if TYPE_CHECKING:
        def _update_clock(self) -> None: ...

    def disconnect(self, conn: Connection) -> None:
        """Forget a connection (synchronous: it also runs while the connection's task is being cancelled)."""
        if conn in self.conns:
            self.last_active = time.time()
        self.conns.discard(conn)
        player = conn.player
        if player is None or any(c.player == player for c in self.conns):
            return
        self.presence.online.discard(player)
        if self.state.seat_of(player) is not None:
            self._schedule_drop(player)
        self._send_presence()

    def _came_back(self, player: str) -> None:
        timer = self.drop_timers.pop(player, None)
        if timer is not None:
            timer.cancel()
        self.presence.online.add(player)
        self.presence.covered.discard(player)
        self._send_presence()

    def _schedule_drop(self, player: str) -> None:
        old = self.drop_timers.pop(player, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self.drop_timers[player] = loop.call_later(self.state.grace, self._cover, player)

    def _cover(self, player: str) -> None:
        """The grace period is over: a computer player takes the dropped player's seat for now."""
        self.drop_timers.pop(player, None)
        if self.state.seat_of(player) is None or player in self.presence.online:
            return
        self.presence.covered.add(player)
        self._send_presence()
        self.wake.set()

    def _send_presence(self) -> None:
        """Tell everyone who is online, now, or (while a change is being stored) right after it."""
        if self.lock.locked():
            self._presence_dirty = True
        else:
            self.broadcast_presence()

    def _flush_presence(self) -> None:
        if self._presence_dirty:
            self.broadcast_presence()

    def broadcast_presence(self) -> None:
        self._presence_dirty = False
        self._update_clock()
        info = table_info(self.state, self.presence)
        for conn in list(self.conns):
            conn.send(PresenceNow(self.state.version, info))

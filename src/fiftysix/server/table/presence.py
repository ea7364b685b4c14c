"""Who is at a table: the grace before the computer covers a seated person who went, and the presence told to
everyone (a part of :class:`~.live.LiveTable`)."""

from __future__ import annotations

import asyncio
from typing import Protocol

from ..state import events as ev
from ..state.table import TableState
from .connection import Connection
from .messages import Presence, table_info
from .outgoing import PresenceNow


def holding_places(state: TableState) -> list[str]:
    """The people seated at a table and those who take a computer's seat from the next deal."""
    return [s.player for s in state.seats if s.player is not None] + list(state.claims.values())


def holds_place(state: TableState, player: str) -> bool:
    """Whether ``player`` holds a seat at the table, or takes a computer's seat from the next deal."""
    return state.seat_of(player) is not None or player in state.claims.values()


class PresenceOwner(Protocol):
    """What the presence needs of its table: its connections, state, presence, lock and wake-up, its clock, and
    the steps a clustered table changes (:meth:`schedule_drop`, :meth:`broadcast_presence`)."""

    conns: set[Connection]
    state: TableState
    presence: Presence
    lock: asyncio.Lock
    wake: asyncio.Event

    def update_clock(self) -> None: ...
    def schedule_drop(self, player: str) -> None: ...
    def broadcast_presence(self) -> None: ...


class Presences:
    """The drop timers of seated people who went (covered by a computer after the grace period), and whether the
    presence waits to be told after the change being stored."""

    def __init__(self, table: PresenceOwner) -> None:
        self.table = table
        self.drop_timers: dict[str, asyncio.TimerHandle] = {}
        self.lapsed: set[str] = set()      # claimants whose grace ran out: their claim is to be given up
        self.dirty = False

    def went(self, player: str) -> None:
        """``player``'s last connection went: not online; covered after the grace period if seated (a claimant's
        claim lapses then)."""
        self.table.presence.online.discard(player)
        if holds_place(self.table.state, player):
            self.table.schedule_drop(player)
        self.send_presence()

    def expect_seated(self) -> None:
        """Seated people who are not here count as dropped: the computer covers them after the grace period unless
        they come; so do people taking a computer's seat from the next deal, whose claim lapses then."""
        for player in holding_places(self.table.state):
            if player not in self.table.presence.online:
                self.table.schedule_drop(player)       # from now: a grace period is counted afresh

    def seated(self, event: ev.Event) -> None:
        """After a change: a person seated, or claiming a seat, who is not here (the server seated them: one tap to
        a game) counts as dropped from now."""
        if isinstance(event, ev.Sit | ev.Claim) and event.player not in self.table.presence.online:
            self.table.schedule_drop(event.player)

    def came_back(self, player: str) -> None:
        timer = self.drop_timers.pop(player, None)
        if timer is not None:
            timer.cancel()
        self.lapsed.discard(player)
        self.table.presence.online.add(player)
        self.table.presence.covered.discard(player)
        self.send_presence()

    def schedule_drop(self, player: str) -> None:
        old = self.drop_timers.pop(player, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self.drop_timers[player] = loop.call_later(self.table.state.grace, self._cover, player)

    def cancel_drops(self) -> None:
        for timer in self.drop_timers.values():
            timer.cancel()
        self.drop_timers.clear()

    def _cover(self, player: str) -> None:
        """The grace period is over: a computer player takes the dropped player's seat for now; a claimant who
        never came (or went) loses the claim: the computer keeps the seat, and it is free to take again."""
        self.drop_timers.pop(player, None)
        if player in self.table.presence.online:
            return
        if self.table.state.seat_of(player) is None:
            if player in self.table.state.claims.values():
                self.lapsed.add(player)
                self.table.wake.set()
            return
        self.table.presence.covered.add(player)
        self.send_presence()
        self.table.wake.set()

    def lapsing(self) -> tuple[str, int] | None:
        """``("lapse", seat)`` for a claimant whose claim lapsed and is still to be given up (the table's next
        change, made by its computer players' loop), or ``None``."""
        claims = self.table.state.claims
        self.lapsed &= set(claims.values())
        seat = next((seat for seat, who in sorted(claims.items())
                     if who in self.lapsed and who not in self.table.presence.online), None)
        return None if seat is None else ("lapse", seat)

    def send_presence(self) -> None:
        """Tell everyone who is online, now, or (while a change is being stored) right after it."""
        if self.table.lock.locked():
            self.dirty = True
        else:
            self.table.broadcast_presence()

    def flush_presence(self) -> None:
        if self.dirty:
            self.table.broadcast_presence()

    def broadcast_here(self) -> None:
        """The presence to every connection on this process."""
        self.dirty = False
        self.table.update_clock()
        info = table_info(self.table.state, self.table.presence)
        for conn in list(self.table.conns):
            conn.send(PresenceNow(self.table.state.version, info))

"""The host's controls: computer players in seats, swapping seats, offering a seat, pausing, replacing a person,
handing on the host role."""

from __future__ import annotations

from ...core.meaning import N_, Meaning
from . import events as ev
from .base import LOBBY, PLAYING, Seat, TableFields
from .errors import TableError


class HostControls:
    """The events only the host may make."""

    def __init__(self, table: TableFields) -> None:
        self.t = table

    def _host_seat(self, e: ev.Offer | ev.AddBot | ev.RemoveBot | ev.Replace) -> int:
        """The seat the host names.

        :raises TableError: when ``e`` is not the host's or names no seat of the table.
        """
        self.t.check_host(e.player)
        self.t.check_seat(e.seat)
        return e.seat

    def on_offer(self, e: ev.Offer) -> ev.Event:
        """The host offers a computer player's seat that no person has seen this deal to a late friend."""
        seat = self._host_seat(e)
        if self.t.status != PLAYING:
            raise TableError(N_("between deals any free seat may be taken; offering is for a deal in progress"))
        if self.t.seats[seat].bot is None or self.t.deal_seat(seat) is None:
            raise TableError(Meaning("seat {seat} is not a computer player's seat in this deal", {"seat": seat}))
        if self.t.seers[seat] is not None:
            raise TableError(Meaning("a person has seen the hand of seat {seat} this deal; it is free when the "
                                     "deal ends", {"seat": seat}))
        self.t.offered.add(seat)
        return e

    def on_bot(self, e: ev.AddBot) -> ev.Event:
        seat = self._host_seat(e)
        if self.t.seats[seat].player is not None:
            raise TableError(Meaning("seat {seat} belongs to {name}",
                                     {"seat": seat, "name": self.t.players[self.t.seats[seat].player or '']}))
        self.t.seats[seat] = Seat(bot=e.bot)
        return e

    def on_unbot(self, e: ev.RemoveBot) -> ev.Event:
        seat = self._host_seat(e)
        if self.t.status != LOBBY:
            raise TableError(N_("computer players can be removed only before the match starts"))
        if self.t.seats[seat].bot is None:
            raise TableError(Meaning("seat {seat} has no computer player", {"seat": seat}))
        self.t.seats[seat] = Seat()
        return e

    def on_swap(self, e: ev.Swap) -> ev.Event:
        self.t.check_host(e.player)
        a, b = e.a, e.b
        self.t.check_seat(a)
        self.t.check_seat(b)
        if a == b:
            raise TableError(N_("choose two different seats to swap"))
        if self.t.status == PLAYING:
            raise TableError(N_("seats can be swapped only between deals"))
        if self.t.status != LOBBY and not {a, b} <= set(self.t.deal_seats()):
            raise TableError(N_("both seats must be in the match"))
        self.t.seats[a], self.t.seats[b] = self.t.seats[b], self.t.seats[a]
        return e

    def on_pause(self, e: ev.Pause) -> ev.Event:
        self.t.check_host(e.player)
        if self.t.paused:
            raise TableError("the table is paused already")
        if self.t.status == LOBBY:
            raise TableError("the match has not started; there is nothing to pause")
        self.t.paused = True
        return e

    def on_resume(self, e: ev.Resume) -> ev.Event:
        self.t.check_host(e.player)
        if not self.t.paused:
            raise TableError("the table is not paused")
        self.t.paused = False
        return e

    def on_replace(self, e: ev.Replace) -> ev.Event:
        """The host puts a computer player in a person's seat (the person stays a member, watching)."""
        seat = self._host_seat(e)
        person = self.t.seats[seat].player
        if person is None:
            raise TableError(Meaning(N_("seat {seat} has no person to replace"), {"seat": seat}))
        if person == self.t.host:
            raise TableError("you cannot replace yourself; stand up instead")
        if e.at_next_deal and self.t.status == PLAYING:
            # a person who is at the table plays this deal out: the computer takes the seat at the next deal
            self.t.replacing[seat] = (person, e.bot)
            return e
        self.t.seats[seat] = Seat(bot=e.bot)
        return e

    def on_host(self, e: ev.HandHost) -> ev.Event:
        """The host hands the host role to another seated person."""
        self.t.check_host(e.player)
        who = e.who
        if who == self.t.host:
            raise TableError("you are the host already")
        if not isinstance(who, str) or self.t.seat_of(who) is None:
            raise TableError("the host role goes to a person in a seat")
        self.t.host = who
        return e

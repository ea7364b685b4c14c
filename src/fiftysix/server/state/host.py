"""The host's controls: computer players in seats, swapping seats, offering a seat, pausing, replacing a person,
handing on the host role."""

from __future__ import annotations

from ...core.meaning import N_, Meaning
from . import events as ev
from .base import LOBBY, PLAYING, Seat, TableBase
from .errors import TableError


class HostControls(TableBase):
    """The events only the host may make."""

    def _host_seat(self, e: ev.Offer | ev.AddBot | ev.RemoveBot | ev.Replace) -> int:
        """The seat the host names.

        :raises TableError: when ``e`` is not the host's or names no seat of the table.
        """
        self._check_host(e.player)
        self._check_seat(e.seat)
        return e.seat

    def _on_offer(self, e: ev.Offer) -> ev.Event:
        """The host offers a computer player's seat that no person has seen this deal to a late friend."""
        seat = self._host_seat(e)
        if self.status != PLAYING:
            raise TableError(N_("between deals any free seat may be taken; offering is for a deal in progress"))
        if self.seats[seat].bot is None or self.deal_seat(seat) is None:
            raise TableError(Meaning("seat {seat} is not a computer player's seat in this deal", {"seat": seat}))
        if self.seers[seat] is not None:
            raise TableError(Meaning("a person has seen the hand of seat {seat} this deal; it is free when the "
                                     "deal ends", {"seat": seat}))
        self.offered.add(seat)
        return e

    def _on_bot(self, e: ev.AddBot) -> ev.Event:
        seat = self._host_seat(e)
        if self.seats[seat].player is not None:
            raise TableError(Meaning("seat {seat} belongs to {name}",
                                     {"seat": seat, "name": self.players[self.seats[seat].player or '']}))
        self.seats[seat] = Seat(bot=e.bot)
        return e

    def _on_unbot(self, e: ev.RemoveBot) -> ev.Event:
        seat = self._host_seat(e)
        if self.status != LOBBY:
            raise TableError(N_("computer players can be removed only before the match starts"))
        if self.seats[seat].bot is None:
            raise TableError(Meaning("seat {seat} has no computer player", {"seat": seat}))
        self.seats[seat] = Seat()
        return e

    def _on_swap(self, e: ev.Swap) -> ev.Event:
        self._check_host(e.player)
        a, b = e.a, e.b
        self._check_seat(a)
        self._check_seat(b)
        if a == b:
            raise TableError(N_("choose two different seats to swap"))
        if self.status == PLAYING:
            raise TableError(N_("seats can be swapped only between deals"))
        if self.status != LOBBY and not {a, b} <= set(self.deal_seats()):
            raise TableError(N_("both seats must be in the match"))
        self.seats[a], self.seats[b] = self.seats[b], self.seats[a]
        return e

    def _on_pause(self, e: ev.Pause) -> ev.Event:
        self._check_host(e.player)
        if self.paused:
            raise TableError("the table is paused already")
        if self.status == LOBBY:
            raise TableError("the match has not started; there is nothing to pause")
        self.paused = True
        return e

    def _on_resume(self, e: ev.Resume) -> ev.Event:
        self._check_host(e.player)
        if not self.paused:
            raise TableError("the table is not paused")
        self.paused = False
        return e

    def _on_replace(self, e: ev.Replace) -> ev.Event:
        """The host puts a computer player in a person's seat (the person stays a member, watching)."""
        seat = self._host_seat(e)
        person = self.seats[seat].player
        if person is None:
            raise TableError(Meaning(N_("seat {seat} has no person to replace"), {"seat": seat}))
        if person == self.host:
            raise TableError("you cannot replace yourself; stand up instead")
        if e.at_next_deal and self.status == PLAYING:
            # a person who is at the table plays this deal out: the computer takes the seat at the next deal
            self.replacing[seat] = (person, e.bot)
            return e
        self.seats[seat] = Seat(bot=e.bot)
        return e

    def _on_host(self, e: ev.HandHost) -> ev.Event:
        """The host hands the host role to another seated person."""
        self._check_host(e.player)
        who = e.who
        if who == self.host:
            raise TableError("you are the host already")
        if not isinstance(who, str) or self.seat_of(who) is None:
            raise TableError("the host role goes to a person in a seat")
        self.host = who
        return e

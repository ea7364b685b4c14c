"""Seats and presence: joining, being admitted, sitting down and standing up, and the seat rule."""

from __future__ import annotations

from ...core.meaning import N_, Meaning
from . import events as ev
from .base import LOBBY, PLAYING, Seat, TableBase
from .errors import TableError


class Seating(TableBase):
    """The events by which people come to the table and take and leave seats."""

    def _on_join(self, e: ev.Join) -> ev.Event:
        if self.players.get(e.player) == e.name:
            raise TableError(Meaning("you have joined this table already as {name}", {"name": e.name}))
        self.players[e.player] = e.name
        return e

    def _on_admit(self, e: ev.Admit) -> ev.Event:
        """The host lets a person into a private table (who asked without the link)."""
        self._check_host(e.player)
        if e.who in self.players:
            raise TableError(Meaning("{name} is at this table already", {"name": self.players[e.who]}))
        self.players[e.who] = e.name
        return e

    def _on_sit(self, e: ev.Sit) -> ev.Event:
        player, seat = e.player, e.seat
        self._check_seat(seat)
        if player not in self.players:
            raise TableError(N_("join the table with a name before taking a seat"))
        target = self.seats[seat]
        if target.player == player:
            raise TableError(Meaning("you are already in seat {seat}", {"seat": seat}))
        if target.player is not None:
            raise TableError(Meaning("seat {seat} belongs to {name}",
                                     {"seat": seat, "name": self.players[target.player]}))
        self._check_unclaimed(player, seat)
        current = self.seat_of(player)
        if current is not None and self.status == PLAYING:
            raise TableError(N_("you cannot change seats during a deal"))
        if self.status != LOBBY and target.empty:
            raise TableError(Meaning("seat {seat} is not in this match", {"seat": seat}))
        if self.status == PLAYING and self.seat_rule:
            self._check_seat_rule(player, seat)
        if current is not None:
            self.seats[current] = Seat(bot=self.fill) if self.status != LOBBY else Seat()
        self.seats[seat] = Seat(player=player)
        self.claims = {s: who for s, who in self.claims.items() if who != player}     # seated: no claim left
        if self.status == PLAYING and seat in self.offered and self.seers[seat] is None:
            self.seers[seat] = player
            self.offered.discard(seat)
        return e

    def _on_claim(self, e: ev.Claim) -> ev.Event:
        """During a deal a person takes a computer player's seat from the next deal (between deals, or before the
        match, they sit at once): one tap to a game seats a newcomer at a table mid-deal this way."""
        player, seat = e.player, e.seat
        self._check_seat(seat)
        if player not in self.players:
            raise TableError(N_("join the table with a name before taking a seat"))
        if self.status != PLAYING:
            raise TableError(N_("no deal is in progress: take the seat now"))
        if self.seats[seat].player is not None or self.seats[seat].bot is None:
            raise TableError(Meaning(N_("seat {seat} has no computer player to take over"), {"seat": seat}))
        if self.seat_of(player) is not None or player in self.claims.values():
            raise TableError(N_("you have a seat at this table already"))
        self._check_unclaimed(player, seat)
        self.claims[seat] = player
        return e

    def _check_unclaimed(self, player: str, seat: int) -> None:
        """A computer's seat someone takes from the next deal is theirs."""
        claimant = self.claims.get(seat)
        if claimant is not None and claimant != player:
            raise TableError(Meaning(N_("{name} takes seat {seat} from the next deal"),
                                     {"seat": seat, "name": self.players.get(claimant, "?")}))

    def _check_seat_rule(self, player: str, seat: int) -> None:
        """During a deal: back to your own seat; holding none, a seat whose person left it or one offered."""
        if player in self.seers:
            held = self.seers.index(player)
            if held != seat:
                raise TableError(Meaning(N_("during a deal you may only go back to your own seat {seat}; the other "
                                            "seats are free when the deal is over"), {"seat": held}))
        elif self.seers[seat] is None and seat not in self.offered:
            raise TableError(Meaning(N_("a computer player plays seat {seat} this deal: take it when the deal is "
                                        "over, or ask the host to offer it to you"), {"seat": seat}))

    def _on_stand(self, e: ev.Stand) -> ev.Event:
        current = self.seat_of(e.player)
        if current is None:
            raise TableError(N_("you have no seat"))
        if self.status == LOBBY:
            self.seats[current] = Seat()
        else:
            from ...bots.levels import club_bot  # the bots when a computer first takes a seat: a quick start

            bot = self.fill or club_bot(self.game.name)
            self.seats[current] = Seat(bot=bot)
        return e

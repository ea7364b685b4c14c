"""Seats and presence: joining, being admitted, sitting down and standing up, and the seat rule."""

from __future__ import annotations

from ...core.meaning import N_, Meaning
from . import events as ev
from .base import LOBBY, PLAYING, Seat, TableFields
from .errors import TableError


class Seating:
    """The events by which people come to the table and take and leave seats."""

    def __init__(self, table: TableFields) -> None:
        self.t = table

    def on_join(self, e: ev.Join) -> ev.Event:
        if self.t.players.get(e.player) == e.name:
            raise TableError(Meaning("you have joined this table already as {name}", {"name": e.name}))
        self.t.players[e.player] = e.name
        return e

    def on_admit(self, e: ev.Admit) -> ev.Event:
        """The host lets a person into a private table (who asked without the link)."""
        self.t.check_host(e.player)
        if e.who in self.t.players:
            raise TableError(Meaning("{name} is at this table already", {"name": self.t.players[e.who]}))
        self.t.players[e.who] = e.name
        return e

    def on_sit(self, e: ev.Sit) -> ev.Event:
        player, seat = e.player, e.seat
        self.t.check_seat(seat)
        if player not in self.t.players:
            raise TableError(N_("join the table with a name before taking a seat"))
        target = self.t.seats[seat]
        if target.player == player:
            raise TableError(Meaning("you are already in seat {seat}", {"seat": seat}))
        if target.player is not None:
            raise TableError(Meaning("seat {seat} belongs to {name}",
                                     {"seat": seat, "name": self.t.players[target.player]}))
        self._check_unclaimed(player, seat)
        current = self.t.seat_of(player)
        if current is not None and self.t.status == PLAYING:
            raise TableError(N_("you cannot change seats during a deal"))
        if self.t.status != LOBBY and target.empty:
            raise TableError(Meaning("seat {seat} is not in this match", {"seat": seat}))
        if self.t.status == PLAYING and self.t.seat_rule:
            self._check_seat_rule(player, seat)
        if current is not None:
            self.t.seats[current] = Seat(bot=self.t.fill) if self.t.status != LOBBY else Seat()
        self.t.seats[seat] = Seat(player=player)
        self.t.claims = {s: who for s, who in self.t.claims.items() if who != player}     # seated: no claim left
        if self.t.status == PLAYING and seat in self.t.offered and self.t.seers[seat] is None:
            self.t.seers[seat] = player
            self.t.offered.discard(seat)
        return e

    def on_claim(self, e: ev.Claim) -> ev.Event:
        """During a deal a person takes a computer player's seat from the next deal (between deals, or before the
        match, they sit at once): one tap to a game seats a newcomer at a table mid-deal this way."""
        player, seat = e.player, e.seat
        self.t.check_seat(seat)
        if player not in self.t.players:
            raise TableError(N_("join the table with a name before taking a seat"))
        if self.t.status != PLAYING:
            raise TableError(N_("no deal is in progress: take the seat now"))
        if self.t.seats[seat].player is not None or self.t.seats[seat].bot is None:
            raise TableError(Meaning(N_("seat {seat} has no computer player to take over"), {"seat": seat}))
        if self.t.seat_of(player) is not None or player in self.t.claims.values():
            raise TableError(N_("you have a seat at this table already"))
        self._check_unclaimed(player, seat)
        self.t.claims[seat] = player
        return e

    def _check_unclaimed(self, player: str, seat: int) -> None:
        """A computer's seat someone takes from the next deal is theirs."""
        claimant = self.t.claims.get(seat)
        if claimant is not None and claimant != player:
            raise TableError(Meaning(N_("{name} takes seat {seat} from the next deal"),
                                     {"seat": seat, "name": self.t.players.get(claimant, "?")}))

    def _check_seat_rule(self, player: str, seat: int) -> None:
        """During a deal: back to your own seat; holding none, a seat whose person left it or one offered."""
        if player in self.t.seers:
            held = self.t.seers.index(player)
            if held != seat:
                raise TableError(Meaning(N_("during a deal you may only go back to your own seat {seat}; the other "
                                            "seats are free when the deal is over"), {"seat": held}))
        elif self.t.seers[seat] is None and seat not in self.t.offered:
            raise TableError(Meaning(N_("a computer player plays seat {seat} this deal: take it when the deal is "
                                        "over, or ask the host to offer it to you"), {"seat": seat}))

    def on_stand(self, e: ev.Stand) -> ev.Event:
        current = self.t.seat_of(e.player)
        if current is None and e.player in self.t.claims.values():
            # a claimant gives the seat up before the next deal (or never came: the table lets the claim lapse);
            # the computer keeps it and it is free to take again
            self.t.claims = {s: who for s, who in self.t.claims.items() if who != e.player}
            return e
        if current is None:
            raise TableError(N_("you have no seat"))
        if self.t.status == LOBBY:
            self.t.seats[current] = Seat()
        else:
            from ...bots.levels import club_bot  # the bots when a computer first takes a seat: a quick start

            bot = self.t.fill or club_bot(self.t.game.name)
            self.t.seats[current] = Seat(bot=bot)
        return e

"""The deal in play: starting a match, a rematch and the next deal, the moves, and the end of a deal."""

from __future__ import annotations

from dataclasses import replace

from ...core.errors import IllegalMoveError, NotationError
from ...core.meaning import N_, Meaning
from ...records import deal_record
from . import events as ev
from .base import DEAL_OVER, LOBBY, MATCH_OVER, MOVE_IDS, PLAYING, Seat, TableFields
from .errors import TableError
from .finished import FinishedDeal


def board_dealer(board: int, seats: int) -> int:
    """The table seat that deals a deal fixed from outside the table (a club night's ``board``, dealt as the
    table's deal number ``board``): the deal passes round as at a table, the same at every table."""
    return (board - 1) % seats


class Dealing:
    """The events of the deals: starting, moving, and what happens when a deal ends."""

    def __init__(self, table: TableFields) -> None:
        self.t = table

    def on_start(self, e: ev.Start) -> ev.Event:
        self.t.check_host(e.player)
        if self.t.status != LOBBY:
            raise TableError(N_("the match has started already"))
        self._new_match(1, e)
        return e

    def on_rematch(self, e: ev.Rematch) -> ev.Event:
        self.t.check_not_paused()
        if self.t.status != MATCH_OVER:
            raise TableError(N_("a rematch can start only when the match is over"))
        self.t.check_seated(e)
        self._new_match(self.t.match_no + 1, e)
        return e

    def _new_match(self, number: int, e: ev.Start | ev.Rematch) -> None:
        """Match ``number`` begins with its first deal: empty seats filled, time banks full."""
        self._fill_seats()
        self.t.reset_banks()
        self.t.match_no = number
        self.t.match = self.t.game.new_match(self.t.rules, first_dealer=e.dealer, seed=e.seed)
        self.t.match_starts.append(self.t.deals_count + 1)
        self._new_deal(e.seed)

    def on_next(self, e: ev.NextDeal) -> ev.Event:
        self.t.check_not_paused()
        if self.t.status != DEAL_OVER:
            raise TableError(N_("the next deal can start only when a deal is over"))
        if e.player is not None:
            self.t.check_seated(e)
        self._new_deal(e.seed)
        return e

    def on_move(self, e: ev.Move) -> ev.Event:
        if self.t.status in (DEAL_OVER, MATCH_OVER):
            raise TableError(N_("the deal is over; no more moves"))
        if self.t.status != PLAYING:
            raise TableError(N_("the match has not started"))
        self.t.check_not_paused()
        table_seat = e.seat
        seat = self.t.deal_seat(table_seat)
        if seat is None:
            raise TableError(Meaning("seat {seat} does not play in this deal", {"seat": table_seat}))
        person = e.player
        if person is not None and (self.t.seat_of(person) != table_seat or not self.t.may_see(person, table_seat)):
            raise TableError(Meaning("seat {seat} is not yours to play this deal", {"seat": table_seat}))
        move_id = e.id
        if person is not None and move_id is not None and self.t.applied_move(person, move_id) is not None:
            raise TableError(Meaning("move {move_id} was applied already", {"move_id": move_id}))
        text = e.move
        if not isinstance(text, str) or not text.strip():
            raise TableError(N_("a move must be a non-empty string"))
        deal = self.t.deal
        assert deal is not None     # a deal is on while PLAYING
        try:
            move = deal.push(text, seat=seat)
        except (IllegalMoveError, NotationError) as err:
            why = err.args[0] if err.args and isinstance(err.args[0], Meaning) else str(err)   # translatable
            raise TableError(why, tuple(getattr(err, "legal", ()))) from None
        if person is not None and move_id is not None:
            ids = self.t.move_ids.setdefault(person, {})
            ids[move_id] = self.t.version + 1
            if len(ids) > MOVE_IDS:
                del ids[next(iter(ids))]
        self.t.note_bank(table_seat, e.bank)
        if deal.is_over:
            self._finish_deal()
        return replace(e, move=str(move))

    def _fill_seats(self) -> None:
        empty = [i for i, s in enumerate(self.t.seats) if s.empty]
        if empty and self.t.fill is None:
            raise TableError(Meaning(N_("seats {seats} are empty: seat players or computer players there first"),
                                     {"seats": ", ".join(map(str, empty))}))
        for i in empty:
            self.t.seats[i] = Seat(bot=self.t.fill)

    def _new_deal(self, seed: int) -> None:
        assert self.t.match is not None
        for seat, (person, bot) in self.t.replacing.items():     # the host's replacements of people who were here
            if self.t.seats[seat].player == person:
                self.t.seats[seat] = Seat(bot=bot)
        self.t.replacing = {}
        for seat, person in self.t.claims.items():   # people who took a computer's seat during the last deal
            if self.t.seats[seat].player is None and self.t.seat_of(person) is None:
                self.t.seats[seat] = Seat(player=person)
        self.t.claims = {}
        self.t.deal = self.t.match.new_deal(seed)
        self.t.status = PLAYING
        self.t.seers = [s.player for s in self.t.seats]
        self.t.offered = set()

    def _finish_deal(self) -> None:
        deal, match = self.t.deal, self.t.match
        assert deal is not None and match is not None
        record = deal_record(deal)
        deal_no = match.deal_number
        result = match.finish(deal)
        match.results.clear()      # the match never reads them back; the database keeps them
        self.t.deals_count += 1
        self.t.last_finished = FinishedDeal(self.t.deals_count, self.t.match_no, deal_no, record, result)
        self.t.recent_deals.append(self.t.last_finished.summary())
        self.t.status = MATCH_OVER if match.over else DEAL_OVER

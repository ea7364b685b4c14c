"""The deal in play: starting a match, a rematch and the next deal, the moves, and the end of a deal."""

from __future__ import annotations

from dataclasses import replace

from ...core.errors import IllegalMoveError, NotationError
from ...core.meaning import N_, Meaning
from ...records import deal_record
from . import events as ev
from .base import DEAL_OVER, LOBBY, MATCH_OVER, MOVE_IDS, PLAYING, Seat
from .clock import TimeBanks
from .errors import TableError
from .history import DealHistory, FinishedDeal


def board_dealer(board: int, seats: int) -> int:
    """The table seat that deals a deal fixed from outside the table (a club night's ``board``, dealt as the
    table's deal number ``board``): the deal passes round as at a table, the same at every table."""
    return (board - 1) % seats


class Dealing(TimeBanks, DealHistory):
    """The events of the deals: starting, moving, and what happens when a deal ends."""

    def applied_move(self, player: str, move_id: str) -> int | None:
        """The version at which ``player``'s move ``move_id`` was applied, if it is one of the recent ones."""
        return self.move_ids.get(player, {}).get(move_id)

    def to_move_table_seat(self) -> int | None:
        """The table seat that must move now, if a deal is in progress."""
        if self.status != PLAYING or self.deal is None or self.deal.to_move is None:
            return None
        seat: int = self.deal_seats()[self.deal.to_move]
        return seat

    def _on_start(self, e: ev.Start) -> ev.Event:
        self._check_host(e.player)
        if self.status != LOBBY:
            raise TableError(N_("the match has started already"))
        self._new_match(1, e)
        return e

    def _on_rematch(self, e: ev.Rematch) -> ev.Event:
        self.check_not_paused()
        if self.status != MATCH_OVER:
            raise TableError(N_("a rematch can start only when the match is over"))
        self._check_seated(e)
        self._new_match(self.match_no + 1, e)
        return e

    def _new_match(self, number: int, e: ev.Start | ev.Rematch) -> None:
        """Match ``number`` begins with its first deal: empty seats filled, time banks full."""
        self._fill_seats()
        self._reset_banks()
        self.match_no = number
        self.match = self.game.new_match(self.rules, first_dealer=e.dealer, seed=e.seed)
        self.match_starts.append(self.deals_count + 1)
        self._new_deal(e.seed)

    def _on_next(self, e: ev.NextDeal) -> ev.Event:
        self.check_not_paused()
        if self.status != DEAL_OVER:
            raise TableError(N_("the next deal can start only when a deal is over"))
        if e.player is not None:
            self._check_seated(e)
        self._new_deal(e.seed)
        return e

    def _on_move(self, e: ev.Move) -> ev.Event:
        if self.status in (DEAL_OVER, MATCH_OVER):
            raise TableError(N_("the deal is over; no more moves"))
        if self.status != PLAYING:
            raise TableError(N_("the match has not started"))
        self.check_not_paused()
        table_seat = e.seat
        seat = self.deal_seat(table_seat)
        if seat is None:
            raise TableError(Meaning("seat {seat} does not play in this deal", {"seat": table_seat}))
        person = e.player
        if person is not None and (self.seat_of(person) != table_seat or not self.may_see(person, table_seat)):
            raise TableError(Meaning("seat {seat} is not yours to play this deal", {"seat": table_seat}))
        move_id = e.id
        if person is not None and move_id is not None and self.applied_move(person, move_id) is not None:
            raise TableError(Meaning("move {move_id} was applied already", {"move_id": move_id}))
        text = e.move
        if not isinstance(text, str) or not text.strip():
            raise TableError(N_("a move must be a non-empty string"))
        deal = self.deal
        assert deal is not None     # a deal is on while PLAYING
        try:
            move = deal.push(text, seat=seat)
        except (IllegalMoveError, NotationError) as err:
            why = err.args[0] if err.args and isinstance(err.args[0], Meaning) else str(err)   # translatable
            raise TableError(why, tuple(getattr(err, "legal", ()))) from None
        if person is not None and move_id is not None:
            ids = self.move_ids.setdefault(person, {})
            ids[move_id] = self.version + 1
            if len(ids) > MOVE_IDS:
                del ids[next(iter(ids))]
        self._note_bank(table_seat, e.bank)
        if deal.is_over:
            self._finish_deal()
        return replace(e, move=str(move))

    def _fill_seats(self) -> None:
        empty = [i for i, s in enumerate(self.seats) if s.empty]
        if empty and self.fill is None:
            raise TableError(Meaning(N_("seats {seats} are empty: seat players or computer players there first"),
                                     {"seats": ", ".join(map(str, empty))}))
        for i in empty:
            self.seats[i] = Seat(bot=self.fill)

    def _new_deal(self, seed: int) -> None:
        assert self.match is not None
        for seat, (person, bot) in self.replacing.items():     # the host's replacements of people who were here
            if self.seats[seat].player == person:
                self.seats[seat] = Seat(bot=bot)
        self.replacing = {}
        for seat, person in self.claims.items():   # people who took a computer's seat during the last deal
            if self.seats[seat].player is None and self.seat_of(person) is None:
                self.seats[seat] = Seat(player=person)
        self.claims = {}
        self.deal = self.match.new_deal(seed)
        self.status = PLAYING
        self.seers = [s.player for s in self.seats]
        self.offered = set()

    def _finish_deal(self) -> None:
        deal, match = self.deal, self.match
        assert deal is not None and match is not None
        record = deal_record(deal)
        deal_no = match.deal_number
        result = match.finish(deal)
        match.results.clear()      # the match never reads them back; the database keeps them
        self.deals_count += 1
        self.last_finished = FinishedDeal(self.deals_count, self.match_no, deal_no, record, result)
        self.recent_deals.append(self.last_finished.summary())
        self.status = MATCH_OVER if match.over else DEAL_OVER

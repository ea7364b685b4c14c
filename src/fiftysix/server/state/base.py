"""What every part of a table's state reads: its fields, its game and rules, who sits where, who may see a hand.

The parts (:mod:`.seats`, :mod:`.host`, :mod:`.dealing`, :mod:`.clock`, :mod:`.history`) each add the events
of one concern; :class:`~.table.TableState` composes them and holds the fields.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from ...core.deal import Deal
from ...core.meaning import N_, Meaning
from ...core.options import Rules
from ...games.spec import GameSpec, MatchLike
from . import events as ev
from .errors import TableError
from .finished import FinishedDeal

MOVE_IDS = 64
"""How many recent move ids the table remembers per person (to apply a resent move at most once)."""

LOBBY = "lobby"
PLAYING = "playing"
DEAL_OVER = "deal_over"
MATCH_OVER = "match_over"


@dataclass
class Seat:
    """A seat of the table: empty, a person (``player`` id) or a computer player (``bot`` name)."""

    player: str | None = None
    bot: str | None = None

    @property
    def empty(self) -> bool:
        return self.player is None and self.bot is None


class TableBase:
    """The fields of a table (declared here, held by :class:`~.table.TableState`) and what
    every part reads of them."""

    code: str
    version: int
    created: tuple[GameSpec, Rules] | None
    name: str
    host: str
    fill: str | None
    grace: float
    players: dict[str, str]
    seats: list[Seat]
    status: str
    match: MatchLike | None
    deal: Deal | None
    match_no: int
    deals_count: int
    last_finished: FinishedDeal | None
    recent_deals: deque[dict[str, object]]
    match_starts: list[int]
    private: bool
    secret: str | None
    seat_rule: bool
    seers: list[str | None]
    offered: set[int]
    replacing: dict[int, tuple[str, str]]
    claims: dict[int, str]
    move_ids: dict[str, dict[str, int]]
    clock: dict[str, float] | None
    banks: list[float]
    paused: bool
    rated: bool

    @property
    def game(self) -> GameSpec:
        """:raises TableError: before the table is created."""
        if self.created is None:
            raise TableError(N_("the table has not been created"))
        return self.created[0]

    @property
    def rules(self) -> Rules:
        """:raises TableError: before the table is created."""
        if self.created is None:
            raise TableError(N_("the table has not been created"))
        return self.created[1]

    def seat_of(self, player: str | None) -> int | None:
        """The table seat a player holds, or ``None``."""
        if player is None:
            return None
        for i, seat in enumerate(self.seats):
            if seat.player == player:
                return i
        return None

    def deal_seats(self) -> list[int]:
        """The table seat of each seat of the current deal (fewer when a 56 team is out)."""
        if self.match is None:
            return list(range(len(self.seats)))
        return list(getattr(self.match, "seats", range(len(self.seats))))

    def deal_seat(self, table_seat: int | None) -> int | None:
        """The current deal's seat of a table seat (``None`` when not playing in this deal)."""
        seats = self.deal_seats()
        return seats.index(table_seat) if table_seat in seats else None

    def may_see(self, player: str | None, table_seat: int | None) -> bool:
        """Whether ``player`` sitting in ``table_seat`` may see that seat's hand now: during a deal only its
        seer (who held it when the deal started); outside a deal, whoever sits there."""
        if player is None or table_seat is None:
            return False
        if self.status != PLAYING or not self.seers:
            return True
        return self.seers[table_seat] == player

    def own_seat(self, player: str | None) -> int | None:
        """The table seat whose hand ``player`` may see and play now, or ``None`` (watching)."""
        seat = self.seat_of(player)
        return seat if self.may_see(player, seat) else None

    def _check_seat(self, seat: object) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise TableError(Meaning("seat must be a number 0-{count}", {"count": len(self.seats) - 1}))

    def _check_host(self, player: str) -> None:
        if player != self.host:
            raise TableError(N_("only the host can do that"))

    def check_not_paused(self) -> None:
        if self.paused:
            raise TableError("the table is paused by the host; wait until the host resumes it")

    def _check_seated(self, e: ev.Start | ev.Rematch | ev.NextDeal) -> None:
        if self.seat_of(e.player) is None and e.player != self.host:
            raise TableError(N_("only a seated player or the host can do that"))

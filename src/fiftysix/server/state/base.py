"""What every part of a table's state reads: its fields, its game and rules, who sits where, who may see a hand.

The parts (:mod:`.seats`, :mod:`.host`, :mod:`.dealing`) each apply the events of one concern to the fields they
are handed; :class:`~.table.TableState` holds the fields (:class:`TableFields`) and composes the parts.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ...core.deal import Deal
from ...core.meaning import N_, Meaning
from ...core.options import Rules
from ...games.spec import GameSpec, MatchLike
from ...records import match_record
from . import events as ev
from .errors import TableError
from .finished import RECENT_DEALS, DealSummary, FinishedDeal
from .typed_json import Received

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


@dataclass
class TableFields:
    """A table's fields and what every part of its state reads of them; :class:`~.table.TableState` adds the
    applying of events, by the parts (:class:`~.seats.Seating`, :class:`~.host.HostControls`,
    :class:`~.dealing.Dealing`) it composes, each handed these fields."""

    code: str
    version: int = 0
    created: tuple[GameSpec, Rules] | None = None     # the game and its rules, once the create event is applied
    name: str = ""
    host: str = ""
    fill: str | None = None
    grace: float = 60.0
    players: dict[str, str] = field(default_factory=dict)     # player id -> name at this table
    seats: list[Seat] = field(default_factory=list)
    status: str = LOBBY
    match: MatchLike | None = None
    deal: Deal | None = None
    match_no: int = 0
    deals_count: int = 0                                       # finished deals over the table's life
    last_finished: FinishedDeal | None = None                  # the latest, with its record (to store it)
    recent_deals: deque[DealSummary] = field(default_factory=lambda: deque(maxlen=RECENT_DEALS))
    match_starts: list[int] = field(default_factory=list)     # the first deal number of each match
    private: bool = False
    secret: str | None = None       # the link's secret of a private table
    seat_rule: bool = False         # the seat rule (table.py); False only for tables logged before it existed
    seers: list[str | None] = field(default_factory=list)   # per table seat: who may see its hand this deal
    offered: set[int] = field(default_factory=set)           # computer players' seats the host offered
    replacing: dict[int, tuple[str, str]] = field(default_factory=dict)  # seat -> (person, bot) at the next deal
    claims: dict[int, str] = field(default_factory=dict)      # seat -> person taking a computer's seat next deal
    move_ids: dict[str, dict[str, int]] = field(default_factory=dict)   # person -> recent move id -> version
    clock: dict[str, float] | None = None    # the turn clock {"move", "bank"} seconds, or None (server/table/clock.py)
    banks: list[float] = field(default_factory=list)         # per table seat: its time bank left this match
    paused: bool = False                                      # by the host: no moves, no bot moves, clocks stop
    rated: bool = True                                        # False: a club night's table (see events.Create)
    night: str | None = None                                  # a club night's table: the event's id, its boards
    boards: int | None = None

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

    def check_seat(self, seat: object) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise TableError(Meaning("seat must be a number 0-{count}", {"count": len(self.seats) - 1}))

    def check_host(self, player: str) -> None:
        if player != self.host:
            raise TableError(N_("only the host can do that"))

    def check_not_paused(self) -> None:
        if self.paused:
            raise TableError("the table is paused by the host; wait until the host resumes it")

    def check_seated(self, e: ev.Start | ev.Rematch | ev.NextDeal) -> None:
        if self.seat_of(e.player) is None and e.player != self.host:
            raise TableError(N_("only a seated player or the host can do that"))

    def applied_move(self, player: str, move_id: str) -> int | None:
        """The version at which ``player``'s move ``move_id`` was applied, if it is one of the recent ones."""
        return self.move_ids.get(player, {}).get(move_id)

    def to_move_table_seat(self) -> int | None:
        """The table seat that must move now, if a deal is in progress."""
        if self.status != PLAYING or self.deal is None or self.deal.to_move is None:
            return None
        seat: int = self.deal_seats()[self.deal.to_move]
        return seat

    def reset_banks(self) -> None:
        """Every seat's time bank full (a match starts)."""
        self.banks = [float(self.clock["bank"]) if self.clock else 0.0 for _ in self.seats]

    def note_bank(self, table_seat: int, bank: float | None) -> None:
        """A move's stored bank: what was left of its seat's bank after it (tables with a clock)."""
        if bank is not None:
            self.banks[table_seat] = float(bank)

    def match_deals(self, match_no: int) -> tuple[int, int] | None:
        """The first and last deal numbers (over the table's life) of match ``match_no`` (1, 2, ...), or
        ``None`` when it has no finished deal."""
        if not 1 <= match_no <= len(self.match_starts):
            return None
        first = self.match_starts[match_no - 1]
        last = self.match_starts[match_no] - 1 if match_no < len(self.match_starts) else self.deals_count
        return (first, last) if last >= first else None

    def match_record(self, match_no: int, records: list[Received]) -> dict[str, object] | None:
        """The record of match ``match_no`` made of its finished deals' ``records`` (from the database)."""
        return match_record(self.game.name, self.rules, records) if records else None

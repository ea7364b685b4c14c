"""One table as a pure state machine over its event log.

Every change to a table is an *event* (a small JSON object with a ``kind``).  :meth:`TableState.apply`
checks an event against the table and the rules and then applies it; a refused event raises
:class:`TableError` and changes nothing.  Replaying the stored events of a table through a fresh
:class:`TableState` rebuilds it exactly, which is how a restarted server resumes every table.

The state never decides a rule of the game: moves go to ``deal.push`` and deals to the game's match.

The seat rule (tables created with ``seat_rule``): once a deal has started, a person may take only the seat
they held when it started, or, holding none, a seat whose own person left it (a computer player goes on
playing it to the end of the deal), or a computer player's seat the host *offered* that no person has seen
this deal.  :meth:`TableState.may_see` says whose view of a seat shows its hand: during a deal only the one
person who held it when the deal started (or took an offered seat), so hopping seats shows no one a hand
that is not theirs.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from ...core.deal import Deal
from ...core.errors import FiftySixError, RulesError
from ...core.meaning import N_, Meaning
from ...core.options import Rules
from ...games import GAMES
from ...games.spec import GameSpec, MatchLike
from . import events as ev
from .base import DEAL_OVER as DEAL_OVER
from .base import LOBBY as LOBBY
from .base import MATCH_OVER as MATCH_OVER
from .base import MOVE_IDS as MOVE_IDS
from .base import PLAYING as PLAYING
from .base import Seat as Seat
from .dealing import Dealing
from .errors import EventError
from .errors import TableError as TableError  # where the server reads it from
from .history import RECENT_DEALS as RECENT_DEALS
from .history import FinishedDeal as FinishedDeal
from .history import deal_summary as deal_summary
from .host import HostControls
from .seats import Seating


@dataclass
class TableState(Seating, HostControls, Dealing):
    """A table: its fields, and :meth:`apply_event`, which hands each event to the part of its concern
    (:mod:`fiftysix.server.state`: seats, host, dealing, clock, history)."""

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
    recent_deals: deque[dict[str, object]] = field(default_factory=lambda: deque(maxlen=RECENT_DEALS))
    match_starts: list[int] = field(default_factory=list)     # the first deal number of each match
    private: bool = False
    secret: str | None = None       # the link's secret of a private table
    seat_rule: bool = False         # the seat rule (above); False only for tables logged before it existed
    seers: list[str | None] = field(default_factory=list)   # per table seat: who may see its hand this deal
    offered: set[int] = field(default_factory=set)           # computer players' seats the host offered
    replacing: dict[int, tuple[str, str]] = field(default_factory=dict)  # seat -> (person, bot) at the next deal
    claims: dict[int, str] = field(default_factory=dict)     # computer's seat -> the person who takes it next deal
    move_ids: dict[str, dict[str, int]] = field(default_factory=dict)   # person -> recent move id -> version
    clock: dict[str, float] | None = None    # the turn clock {"move", "bank"} seconds, or None (server/table/clock.py)
    banks: list[float] = field(default_factory=list)         # per table seat: its time bank left this match
    paused: bool = False                                      # by the host: no moves, no bot moves, clocks stop
    rated: bool = True                                        # False: a club night's table (see events.Create)
    night: str | None = None                                  # a club night's table: the event's id, its boards
    boards: int | None = None

    def apply(self, event: Mapping[str, object]) -> dict[str, object]:
        """Check and apply one event in its stored JSON form; returns it as it is stored (moves in canonical
        notation).

        :raises EventError: for an event that does not decode (:func:`.events.decode`).
        :raises TableError: with a message for the requester; nothing changes then.
        """
        return self.apply_event(ev.decode(event)).to_json()

    def apply_event(self, event: ev.Event) -> ev.Event:
        """Check and apply one event; returns it as it is stored (moves in canonical notation).

        :raises TableError: with a message for the requester; nothing changes then.
        """
        if not isinstance(event, ev.Create) and self.created is None:
            raise TableError(N_("the table has not been created"))
        stored: ev.Event
        match event:
            case ev.Create():
                stored = self._on_create(event)
            case ev.Move():
                stored = self._on_move(event)
            case ev.Join():
                stored = self._on_join(event)
            case ev.Admit():
                stored = self._on_admit(event)
            case ev.Sit():
                stored = self._on_sit(event)
            case ev.Claim():
                stored = self._on_claim(event)
            case ev.Stand():
                stored = self._on_stand(event)
            case ev.Offer():
                stored = self._on_offer(event)
            case ev.AddBot():
                stored = self._on_bot(event)
            case ev.RemoveBot():
                stored = self._on_unbot(event)
            case ev.Swap():
                stored = self._on_swap(event)
            case ev.Replace():
                stored = self._on_replace(event)
            case ev.Start():
                stored = self._on_start(event)
            case ev.Rematch():
                stored = self._on_rematch(event)
            case ev.NextDeal():
                stored = self._on_next(event)
            case ev.Pause():
                stored = self._on_pause(event)
            case ev.Resume():
                stored = self._on_resume(event)
            case ev.HandHost():
                stored = self._on_host(event)
            case _:   # pragma: no cover - every class of events.EVENTS has its case
                raise EventError(f"no case for event {event.kind!r}")
        self.version += 1
        return stored

    def _on_create(self, e: ev.Create) -> ev.Event:
        if self.created is not None:
            raise TableError(N_("the table exists already"))
        game = GAMES.get(e.game)
        if game is None:
            raise TableError(f"unknown game {e.game!r}; games are {', '.join(GAMES)}")
        try:
            rules = game.rules_from_json(e.rules)
        except RulesError as err:
            raise TableError(str(err)) from None
        self.created = (game, rules)
        self.name, self.host = e.name, e.host
        self.fill, self.grace = e.fill, float(e.grace)
        self.private, self.secret = bool(e.private), e.secret
        self.seat_rule = bool(e.seat_rule)
        self.rated = e.rated is not False
        self.night, self.boards = e.night, e.boards
        self.clock = e.clock
        self.players[e.host] = e.host_name
        self.seats = [Seat() for _ in range(rules.players)]
        host_seat = 0 if e.host_seat is None else e.host_seat
        self._check_seat(host_seat)
        self.seats[host_seat] = Seat(player=e.host)
        stored = game.rules_to_json(rules)     # a preset's name, or the options that differ from its preset
        assert isinstance(stored, str | dict), stored
        return replace(e, rules=stored)


def replay(code: str, events: list[Mapping[str, object]]) -> TableState:
    """Rebuild a table from its stored events.

    :raises TableError: if the log does not replay (a corrupt database).
    """
    state = TableState(code)
    for e in events:
        replay_into(state, e)
    return state


def replay_into(state: TableState, event: Mapping[str, object]) -> None:
    """Apply one stored event while rebuilding a table.

    :raises TableError: if it does not replay (a corrupt database).
    """
    try:
        state.apply(event)
    except (FiftySixError, KeyError) as err:  # pragma: no cover - a corrupt log
        raise TableError(Meaning("table {code}: event {last} does not replay: {err}",
                                 {"code": state.code, "last": state.version + 1, "err": err})) from None

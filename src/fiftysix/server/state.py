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
from typing import Any

from ..bots.levels import club_bot
from ..core.deal import Deal
from ..core.errors import FiftySixError, IllegalMoveError, NotationError, RulesError
from ..core.meaning import N_, Meaning
from ..core.options import Rules
from ..games import GAMES
from ..games.spec import GameSpec, MatchLike
from ..records import deal_record, match_record
from . import events as ev
from .errors import EventError
from .errors import TableError as TableError  # where the server reads it from

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


RECENT_DEALS = 20
"""Finished deals whose summaries a table keeps in memory (the page's first page of its history); the
records of all finished deals are in the database."""


@dataclass
class FinishedDeal:
    number: int         # 1, 2, ... over the table's whole life
    match_no: int
    deal_no: int
    record: dict[str, Any]
    result: dict[str, Any]

    def summary(self) -> dict[str, Any]:
        """What the page's history shows of a finished deal (public)."""
        return deal_summary(self.number, self.match_no, self.deal_no, self.result)


def deal_summary(number: int, match_no: int, deal_no: int, result: dict[str, Any]) -> dict[str, Any]:
    return {"number": number, "match": match_no, "deal": deal_no, "contract": result.get("contract"),
            "made": result.get("made"), "score": result.get("score"), "points": result.get("points")}


@dataclass
class TableState:
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
    recent_deals: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=RECENT_DEALS))
    match_starts: list[int] = field(default_factory=list)     # the first deal number of each match
    private: bool = False
    secret: str | None = None       # the link's secret of a private table
    seat_rule: bool = False         # the seat rule (above); False only for tables logged before it existed
    seers: list[str | None] = field(default_factory=list)   # per table seat: who may see its hand this deal
    offered: set[int] = field(default_factory=set)           # computer players' seats the host offered
    move_ids: dict[str, dict[str, int]] = field(default_factory=dict)   # person -> recent move id -> version
    clock: dict[str, float] | None = None    # the turn clock {"move", "bank"} seconds, or None (server/clock.py)
    banks: list[float] = field(default_factory=list)         # per table seat: its time bank left this match
    paused: bool = False                                      # by the host: no moves, no bot moves, clocks stop

    # -- reading --------------------------------------------------------------------------------------
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

    def applied_move(self, player: str, move_id: str) -> int | None:
        """The version at which ``player``'s move ``move_id`` was applied, if it is one of the recent ones."""
        return self.move_ids.get(player, {}).get(move_id)

    def to_move_table_seat(self) -> int | None:
        """The table seat that must move now, if a deal is in progress."""
        if self.status != PLAYING or self.deal is None or self.deal.to_move is None:
            return None
        seat: int = self.deal_seats()[self.deal.to_move]
        return seat

    # -- changing -------------------------------------------------------------------------------------
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
            case ev.Join() | ev.Admit() | ev.Sit() | ev.Stand():
                stored = self._seating(event)
            case ev.Offer() | ev.AddBot() | ev.RemoveBot() | ev.Swap() | ev.Replace():
                stored = self._seat_control(event)
            case ev.Start() | ev.Rematch() | ev.NextDeal():
                stored = self._dealing(event)
            case ev.Pause() | ev.Resume() | ev.HandHost():
                stored = self._host_control(event)
            case _:   # pragma: no cover - every class of events.EVENTS has its case
                raise EventError(f"no case for event {event.kind!r}")
        self.version += 1
        return stored

    def _seating(self, e: ev.Join | ev.Admit | ev.Sit | ev.Stand) -> ev.Event:
        match e:
            case ev.Join():
                return self._on_join(e)
            case ev.Admit():
                return self._on_admit(e)
            case ev.Sit():
                return self._on_sit(e)
            case ev.Stand():
                return self._on_stand(e)

    def _seat_control(self, e: ev.Offer | ev.AddBot | ev.RemoveBot | ev.Swap | ev.Replace) -> ev.Event:
        match e:
            case ev.Offer():
                return self._on_offer(e)
            case ev.AddBot():
                return self._on_bot(e)
            case ev.RemoveBot():
                return self._on_unbot(e)
            case ev.Swap():
                return self._on_swap(e)
            case ev.Replace():
                return self._on_replace(e)

    def _dealing(self, e: ev.Start | ev.Rematch | ev.NextDeal) -> ev.Event:
        match e:
            case ev.Start():
                return self._on_start(e)
            case ev.Rematch():
                return self._on_rematch(e)
            case ev.NextDeal():
                return self._on_next(e)

    def _host_control(self, e: ev.Pause | ev.Resume | ev.HandHost) -> ev.Event:
        match e:
            case ev.Pause():
                return self._on_pause(e)
            case ev.Resume():
                return self._on_resume(e)
            case ev.HandHost():
                return self._on_host(e)

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
        self.clock = e.clock
        self.players[e.host] = e.host_name
        self.seats = [Seat() for _ in range(rules.players)]
        host_seat = 0 if e.host_seat is None else e.host_seat
        self._check_seat(host_seat)
        self.seats[host_seat] = Seat(player=e.host)
        stored = game.rules_to_json(rules)     # a preset's name, or the options that differ from its preset
        assert isinstance(stored, str | dict), stored
        return replace(e, rules=stored)

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

    def _on_offer(self, e: ev.Offer) -> ev.Event:
        """The host offers a computer player's seat that no person has seen this deal to a late friend."""
        self._check_host(e.player)
        seat = e.seat
        self._check_seat(seat)
        if self.status != PLAYING:
            raise TableError(N_("between deals any free seat may be taken; offering is for a deal in progress"))
        if self.seats[seat].bot is None or self.deal_seat(seat) is None:
            raise TableError(Meaning("seat {seat} is not a computer player's seat in this deal", {"seat": seat}))
        if self.seers[seat] is not None:
            raise TableError(Meaning("a person has seen the hand of seat {seat} this deal; it is free when the "
                                     "deal ends", {"seat": seat}))
        self.offered.add(seat)
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
        if self.status == PLAYING and seat in self.offered and self.seers[seat] is None:
            self.seers[seat] = player
            self.offered.discard(seat)
        return e

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
            bot = self.fill or club_bot(self.game.name)
            self.seats[current] = Seat(bot=bot)
        return e

    def _on_bot(self, e: ev.AddBot) -> ev.Event:
        self._check_host(e.player)
        seat = e.seat
        self._check_seat(seat)
        if self.seats[seat].player is not None:
            raise TableError(Meaning("seat {seat} belongs to {name}",
                                     {"seat": seat, "name": self.players[self.seats[seat].player or '']}))
        self.seats[seat] = Seat(bot=e.bot)
        return e

    def _on_unbot(self, e: ev.RemoveBot) -> ev.Event:
        self._check_host(e.player)
        seat = e.seat
        self._check_seat(seat)
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

    def _on_start(self, e: ev.Start) -> ev.Event:
        self._check_host(e.player)
        if self.status != LOBBY:
            raise TableError(N_("the match has started already"))
        self._fill_seats()
        self._reset_banks()
        self.match_no = 1
        self.match = self.game.new_match(self.rules, first_dealer=e.dealer, seed=e.seed)
        self.match_starts.append(self.deals_count + 1)
        self._new_deal(e.seed)
        return e

    def _on_rematch(self, e: ev.Rematch) -> ev.Event:
        self.check_not_paused()
        if self.status != MATCH_OVER:
            raise TableError(N_("a rematch can start only when the match is over"))
        self._check_seated(e)
        self._fill_seats()
        self._reset_banks()
        self.match_no += 1
        self.match = self.game.new_match(self.rules, first_dealer=e.dealer, seed=e.seed)
        self.match_starts.append(self.deals_count + 1)
        self._new_deal(e.seed)
        return e

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
        if e.bank is not None:     # the server's turn clock: what is left of this seat's bank after the move
            self.banks[table_seat] = float(e.bank)
        if deal.is_over:
            self._finish_deal()
        return replace(e, move=str(move))

    # -- the host's controls --------------------------------------------------------------------------
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
        self._check_host(e.player)
        seat = e.seat
        self._check_seat(seat)
        person = self.seats[seat].player
        if person is None:
            raise TableError(Meaning(N_("seat {seat} has no person to replace"), {"seat": seat}))
        if person == self.host:
            raise TableError("you cannot replace yourself; stand up instead")
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

    # -- helpers --------------------------------------------------------------------------------------
    def _check_seat(self, seat: object) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise TableError(Meaning("seat must be a number 0-{count}", {"count": len(self.seats) - 1}))

    def _check_host(self, player: str) -> None:
        if player != self.host:
            raise TableError(N_("only the host can do that"))

    def check_not_paused(self) -> None:
        if self.paused:
            raise TableError("the table is paused by the host; wait until the host resumes it")

    def _reset_banks(self) -> None:
        self.banks = [float(self.clock["bank"]) if self.clock else 0.0 for _ in self.seats]

    def _check_seated(self, e: ev.Start | ev.Rematch | ev.NextDeal) -> None:
        if self.seat_of(e.player) is None and e.player != self.host:
            raise TableError(N_("only a seated player or the host can do that"))

    def match_deals(self, match_no: int) -> tuple[int, int] | None:
        """The first and last deal numbers (over the table's life) of match ``match_no`` (1, 2, ...), or
        ``None`` when it has no finished deal."""
        if not 1 <= match_no <= len(self.match_starts):
            return None
        first = self.match_starts[match_no - 1]
        last = self.match_starts[match_no] - 1 if match_no < len(self.match_starts) else self.deals_count
        return (first, last) if last >= first else None

    def match_record(self, match_no: int, records: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The record of match ``match_no`` made of its finished deals' ``records`` (from the database)."""
        return match_record(self.game.name, self.rules, records) if records else None

    def _fill_seats(self) -> None:
        empty = [i for i, s in enumerate(self.seats) if s.empty]
        if empty and self.fill is None:
            raise TableError(Meaning(N_("seats {seats} are empty: seat players or computer players there first"),
                                     {"seats": ", ".join(map(str, empty))}))
        for i in empty:
            self.seats[i] = Seat(bot=self.fill)

    def _new_deal(self, seed: int) -> None:
        assert self.match is not None
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


def replay(code: str, events: list[dict[str, Any]]) -> TableState:
    """Rebuild a table from its stored events.

    :raises TableError: if the log does not replay (a corrupt database).
    """
    state = TableState(code)
    for e in events:
        replay_into(state, e)
    return state


def replay_into(state: TableState, event: dict[str, Any]) -> None:
    """Apply one stored event while rebuilding a table.

    :raises TableError: if it does not replay (a corrupt database).
    """
    try:
        state.apply(event)
    except (FiftySixError, KeyError) as err:  # pragma: no cover - a corrupt log
        raise TableError(Meaning("table {code}: event {last} does not replay: {err}",
                                 {"code": state.code, "last": state.version + 1, "err": err})) from None

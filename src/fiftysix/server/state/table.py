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

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from ...core.errors import FiftySixError, RulesError
from ...core.meaning import N_, Meaning
from ...games import GAMES
from . import events as ev
from .base import DEAL_OVER as DEAL_OVER
from .base import LOBBY as LOBBY
from .base import MATCH_OVER as MATCH_OVER
from .base import MOVE_IDS as MOVE_IDS
from .base import PLAYING as PLAYING
from .base import Seat as Seat
from .base import TableFields
from .dealing import Dealing
from .errors import EventError
from .errors import TableError as TableError  # where the server reads it from
from .finished import RECENT_DEALS as RECENT_DEALS
from .finished import FinishedDeal as FinishedDeal
from .finished import deal_summary as deal_summary
from .host import HostControls
from .seats import Seating
from .typed_json import Received


@dataclass
class TableState(TableFields):
    """A table: its fields (:class:`~.base.TableFields`), and :meth:`apply_event`, which hands each event to the
    part of its concern, each part handed the fields: who sits where (:class:`~.seats.Seating`), the host's
    controls (:class:`~.host.HostControls`), the deals (:class:`~.dealing.Dealing`)."""

    seating: Seating = field(init=False, repr=False, compare=False)
    hosting: HostControls = field(init=False, repr=False, compare=False)
    dealing: Dealing = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.seating, self.hosting, self.dealing = Seating(self), HostControls(self), Dealing(self)

    def apply(self, event: Mapping[str, object]) -> Received:
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
                stored = self.dealing.on_move(event)
            case ev.Join():
                stored = self.seating.on_join(event)
            case ev.Admit():
                stored = self.seating.on_admit(event)
            case ev.Sit():
                stored = self.seating.on_sit(event)
            case ev.Claim():
                stored = self.seating.on_claim(event)
            case ev.Stand():
                stored = self.seating.on_stand(event)
            case ev.Offer():
                stored = self.hosting.on_offer(event)
            case ev.AddBot():
                stored = self.hosting.on_bot(event)
            case ev.RemoveBot():
                stored = self.hosting.on_unbot(event)
            case ev.Swap():
                stored = self.hosting.on_swap(event)
            case ev.Replace():
                stored = self.hosting.on_replace(event)
            case ev.Start():
                stored = self.dealing.on_start(event)
            case ev.Rematch():
                stored = self.dealing.on_rematch(event)
            case ev.NextDeal():
                stored = self.dealing.on_next(event)
            case ev.Pause():
                stored = self.hosting.on_pause(event)
            case ev.Resume():
                stored = self.hosting.on_resume(event)
            case ev.HandHost():
                stored = self.hosting.on_host(event)
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
        self.check_seat(host_seat)
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

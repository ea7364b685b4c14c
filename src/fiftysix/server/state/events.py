"""A table's events, one frozen dataclass per kind: what a table's log stores and its state applies.

The log keeps each event as the JSON object it always was (``{"kind": "sit", "player": ..., "seat": 2}``):
:func:`decode` reads one into its class, checking every field's type, and :meth:`Event.to_json` writes it back
with the same keys in the same order, so a stored log reads and writes byte for byte as before.

A field whose default is ``None`` is *sparse*: left out of the JSON while ``None`` (an old log that never had
it reads as ``None``; :class:`~.table.TableState` says what that means).  Every other field is always written
(``fill`` of ``create`` is written even when it is ``null``).

A new event: a class here with its ``kind`` (a dataclass of its own when it adds fields), listed in
:data:`EVENTS`, and its case in :meth:`.table.TableState.apply_event`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from .errors import EventError
from .typed_json import Json, Kinded, Received, field_types, fits


@dataclass(frozen=True)
class Event(Kinded):
    """One change to a table; ``kind`` names its class in the stored JSON.

    A kind with no field of its own is a plain subclass of the dataclass that holds its fields: a frozen dataclass
    all the same (its fields typed, equal only to its own class's), and its own class is what the table matches.
    """

    def to_json(self) -> Received:
        """The stored JSON object: ``kind`` first, then the fields in order, sparse ones only when set."""
        return {"kind": self.kind, **{name: _stored(v) for name, _, sparse in _FIELDS[type(self)]
                                      if (v := getattr(self, name)) is not None or not sparse}}


def _stored(value: object) -> Json:
    """A field's value as stored: every field is text, a number, a flag, null or an object of them (the
    rules, the clock), as :func:`decode` reads it back."""
    assert value is None or isinstance(value, str | int | float | dict), value
    return value


@dataclass(frozen=True)
class Create(Event, kind="create"):
    """The table's birth: its game and rules (a preset's name or the options), host, and settings."""

    game: str
    rules: str | dict[str, Json]      # a preset's name, or the options as JSON
    name: str
    host: str
    host_name: str
    fill: str | None                  # the computer player that fills empty seats (None: none does)
    grace: int | float
    time: int | None = None
    private: bool | None = None       # None: logged before private tables existed (public)
    seat_rule: bool | None = None     # None: logged before the seat rule existed (no rule)
    secret: str | None = None
    clock: dict[str, float] | None = None     # the turn clock: {"move", "bank"} seconds
    host_seat: int | None = None      # None: seat 0
    rated: bool | None = None         # None: rated; False: a club night's table (the event is rated once)
    night: str | None = None          # a club night's table: the event's id ...
    boards: int | None = None         # ... and its boards (the table's deal k is board k)


@dataclass(frozen=True)
class _ByPlayer(Event):
    """An act of one person, ``player`` (their id)."""

    player: str


class Stand(_ByPlayer, kind="stand"):
    """A person leaves their seat and watches (a claimant gives up the seat taken from the next deal)."""


@dataclass(frozen=True)
class Join(_ByPlayer, kind="join"):
    """A person comes to the table under a name."""

    name: str


class Pause(_ByPlayer, kind="pause"):
    """The host stops the play and the clocks."""


@dataclass(frozen=True)
class Admit(_ByPlayer, kind="admit"):
    """The host lets a person into a private table."""

    who: str
    name: str


class Resume(_ByPlayer, kind="resume"):
    """The host lets the play go on."""


@dataclass(frozen=True)
class HandHost(_ByPlayer, kind="host"):
    """The host hands the host role to ``who`` (``None``: the seat named had no person; refused)."""

    who: str | None


@dataclass(frozen=True)
class Swap(_ByPlayer, kind="swap"):
    """The host swaps the seats ``a`` and ``b``."""

    a: int
    b: int


@dataclass(frozen=True)
class _AtSeat(_ByPlayer):
    """An act on the table seat ``seat``."""

    seat: int


class Sit(_AtSeat, kind="sit"):
    """A person takes a seat."""


class Claim(_AtSeat, kind="claim"):
    """A person takes a computer player's seat from the next deal (one tap to a game: a table mid-deal)."""


class Offer(_AtSeat, kind="offer"):
    """The host offers a computer player's seat no person has seen this deal."""


@dataclass(frozen=True)
class _BotAtSeat(_AtSeat):
    """A computer player, ``bot``, for a seat."""

    bot: str


@dataclass(frozen=True)
class Replace(_BotAtSeat, kind="replace"):
    """The host puts a computer player in a person's seat."""

    at_next_deal: bool | None = None    # the person was at the table mid-deal: the computer takes over after it


class AddBot(_BotAtSeat, kind="bot"):
    """The host seats a computer player."""


class RemoveBot(_AtSeat, kind="unbot"):
    """The host takes a computer player from its seat."""


@dataclass(frozen=True)
class _FirstDeal(_ByPlayer):
    """A match's first deal: ``seed`` shuffles it, ``dealer`` deals it."""

    seed: int
    dealer: int


class Start(_FirstDeal, kind="start"):
    """The host starts the first match."""


class Rematch(_FirstDeal, kind="rematch"):
    """The host starts a new match after one is over."""


@dataclass(frozen=True)
class NextDeal(Event, kind="next"):
    """The next deal of a match; ``player`` is ``None`` when the server deals it after a pause."""

    player: str | None = None
    seed: int = 0


@dataclass(frozen=True)
class Move(Event, kind="move"):
    """A call, card, trump or discard of a table seat, by a person (``by`` "player") or a computer player."""

    seat: int
    move: str
    by: str
    player: str | None = None     # the person who moved, when one did
    id: str | None = None         # the person's move id (a resent move is applied once)
    timeout: bool | None = None   # the person's clock ran out and the server passed for them
    bank: int | float | None = None   # what is left of the mover's time bank (tables with a clock)


EVENTS: dict[str, type[Event]] = {c.kind: c for c in (
    Create, Join, Admit, Offer, Sit, Stand, AddBot, RemoveBot, Swap, Start, Rematch, NextDeal, Move, Pause, Resume,
    Replace, HandHost, Claim)}
"""Every event class by its stored ``kind``."""


_FIELDS: dict[type[Event], tuple[tuple[str, tuple[type, ...], bool], ...]] = {
    cls: tuple((f.name, field_types(cls)[f.name], f.default is None) for f in fields(cls)) for cls in EVENTS.values()}
"""Per event class: each field's name, the classes it allows and whether it is sparse (may be left out)."""


def decode(data: Mapping[str, object]) -> Event:
    """The event a stored JSON object holds.

    :raises EventError: for an unknown kind, a missing or unknown field, or a field of the wrong type.
    """
    kind = data.get("kind")
    cls = EVENTS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EventError(f"unknown event kind {kind!r}; kinds are {', '.join(EVENTS)}")
    spec = _FIELDS[cls]
    unknown = set(data) - {"kind"} - {name for name, _, _ in spec}
    if unknown:
        raise EventError(f"event {kind!r} has no field {', '.join(sorted(unknown))}")
    values: dict[str, object] = {}
    for name, allowed, sparse in spec:
        if name not in data:
            if not sparse:
                raise EventError(f"event {kind!r} needs the field {name!r}")
            continue
        value = data[name]
        if not fits(value, allowed):
            wanted = " or ".join("null" if c is type(None) else c.__name__ for c in allowed)
            raise EventError(f"event {kind!r}: {name} must be {wanted}, not {type(value).__name__} {value!r}")
        values[name] = value
    return cls(**values)

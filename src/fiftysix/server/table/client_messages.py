"""The messages a client may send, one frozen dataclass each, decoded once from the JSON object (``type`` names
the class; see :mod:`.protocol` for what each does).

Decoding checks what a message can be checked for on its own: its type, each field's type (a seat is a number,
a name is text: the catalogue's refusal otherwise), and a move's text and id.  What depends
on the table (a seat's number, whose turn it is, who is host) is checked where the table is known, by
:mod:`.protocol` and :class:`~fiftysix.server.state.table.TableState`.  The wire format is unchanged: a replica
forwards the JSON object itself, and the writer decodes it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields

from ...core.meaning import N_, Meaning
from ..state.table import TableError
from ..state.typed_json import Kinded, Received, field_types, fits

MAX_MOVE = 64
MAX_MOVE_ID = 32


class Missing:
    """A field the client left out (``seat`` of a move: the sender's own seat)."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING = Missing()


@dataclass(frozen=True)
class ClientMessage(Kinded):
    """One message from a client.  ``kind`` is its ``type``; the fields are read by name from the JSON object (left
    out: the field's default, ``None`` but for a move's).  A field is checked by its annotation (``None`` only
    where it allows ``None``), or by the function its metadata names as ``"check"``.

    A message with no field of its own is a plain subclass of the dataclass that holds its fields (a frozen
    dataclass all the same, equal only to its own class's); its own class is what the protocol tells apart."""

    @classmethod
    def from_json(cls, msg: Received) -> ClientMessage:
        """:raises TableError: for a field of the wrong type (a seat that is no number, a name that is no text)."""
        return cls(**{name: _checked(name, msg.get(name, default), allowed, check)
                      for name, default, allowed, check in _FIELDS[cls]})

    def to_json(self) -> Received:
        """The JSON object a client sends for this message (a field left at ``None`` or missing is left out): how
        a feature's command reaches a table the way a person's does, forwarded to its writer with many processes."""
        return {"type": self.kind, **{f.name: _sent(v) for f in fields(self)
                                      if (v := getattr(self, f.name)) is not None and v is not MISSING}}


def _sent(value: object) -> str | int:
    """A field's value as sent: every field of a message is text or a number (a seat, a version)."""
    assert isinstance(value, str | int), value
    return value


def _checked(name: str, value: object, allowed: tuple[type, ...], check: Check | None) -> object:
    """``value`` when it passes the field's ``check`` or is of a type ``allowed``, else the catalogue's refusal.

    :raises TableError: naming the field and what it must be.
    """
    if check is not None:
        check(value)
        return value
    if fits(value, allowed):
        return value
    what = Meaning(FIELD_WORDS[name]) if name in FIELD_WORDS else name
    if int in allowed:
        raise TableError(Meaning("the {what} must be a number", {"what": what}))
    raise TableError(Meaning("the {what} must be text", {"what": what}))


Check = Callable[[object], None]
"""A field's own check of the value read (what its type alone does not say)."""

FIELD_WORDS = {"name": N_("name"), "seat": N_("seat"), "a": N_("seat"), "b": N_("seat"), "bot": N_("bot"),
               "version": N_("version"), "token": N_("player token"), "key": N_("table's secret")}
"""What a refusal calls a field (translated); other fields go by their name in the protocol."""


@dataclass(frozen=True)
class Hello(ClientMessage, kind="hello"):
    """The first message: the last table version the client saw (for the changes since), its player token
    (instead of the cookie) and a private table's link secret."""

    version: int | None = None
    token: str | None = None
    key: str | None = None


# the messages with no field: the type says it all (each is told in :mod:`.protocol`)
class Ping(ClientMessage, kind="ping"): ...
class AskState(ClientMessage, kind="state"): ...
class Start(ClientMessage, kind="start"): ...
class NextDeal(ClientMessage, kind="next"): ...
class Rematch(ClientMessage, kind="rematch"): ...
class Stand(ClientMessage, kind="stand"): ...
class Pause(ClientMessage, kind="pause"): ...
class Resume(ClientMessage, kind="resume"): ...


@dataclass(frozen=True)
class Swap(ClientMessage, kind="swap"):
    """The host swaps the seats ``a`` and ``b`` (between deals)."""

    a: int | None = None
    b: int | None = None


@dataclass(frozen=True)
class _ForPlayer(ClientMessage):
    """The host's answer to ``player``, who asked to come in."""

    player: str | None = None


class Admit(_ForPlayer, kind="admit"): ...
class Refuse(_ForPlayer, kind="refuse"): ...


def _move_text(move: object) -> None:
    if not isinstance(move, str) or not move.strip() or len(move) > MAX_MOVE:
        raise TableError(N_("a move must be a non-empty string in the notation of the rules"))


def _move_id(move_id: object) -> None:
    if move_id is not None and (not isinstance(move_id, str) or not 1 <= len(move_id) <= MAX_MOVE_ID
                                or not move_id.isprintable()):
        raise TableError(Meaning("a move id must be text of 1-{most} printable characters", {"most": MAX_MOVE_ID}))


@dataclass(frozen=True)
class Move(ClientMessage, kind="move"):
    """A call, a card, a trump or a discard in the rules' notation; ``id`` makes it applied at most once."""

    move: str = field(default="", metadata={"check": _move_text})
    id: str | None = field(default=None, metadata={"check": _move_id})    # 1-32 printable characters
    seat: int | Missing = MISSING      # left out: the sender's own seat (``null`` is refused: no number)


@dataclass(frozen=True)
class _AtSeat(ClientMessage):
    """A message about the table seat ``seat``."""

    seat: int | None = None


class Sit(_AtSeat, kind="sit"): ...
class RemoveBot(_AtSeat, kind="unbot"): ...
class Offer(_AtSeat, kind="offer"): ...
class Claim(_AtSeat, kind="claim"): ...
class Host(_AtSeat, kind="host"): ...


@dataclass(frozen=True)
class _BotAtSeat(_AtSeat):
    """A seat and the computer player, ``bot``, for it."""

    bot: str | None = None


class AddBot(_BotAtSeat, kind="bot"): ...
class Replace(_BotAtSeat, kind="replace"): ...


@dataclass(frozen=True)
class _Named(ClientMessage):
    """A message with the name the sender goes by."""

    name: str | None = None


class Join(_Named, kind="join"): ...
class Ask(_Named, kind="ask"): ...


@dataclass(frozen=True)
class React(ClientMessage, kind="react"):
    """A preset reaction to everyone."""

    reaction: str | None = None


@dataclass(frozen=True)
class Explain(ClientMessage, kind="explain"):
    """The meaning of one of the sender's legal calls, before making it."""

    move: str | None = None


MESSAGES: dict[str, type[ClientMessage]] = {c.kind: c for c in (
    Hello, Join, Sit, Stand, AddBot, RemoveBot, Swap, Start, NextDeal, Rematch, Move, Explain, AskState, Ping,
    Offer, Ask, Admit, Refuse, React, Pause, Resume, Replace, Host, Claim)}
"""Every client message by its ``type``, in the order the protocol lists them."""

TYPES = tuple(MESSAGES)


_FIELDS: dict[type[ClientMessage], tuple[tuple[str, object, tuple[type, ...], Check | None], ...]] = {
    cls: tuple((f.name, f.default, field_types(cls)[f.name], f.metadata.get("check")) for f in fields(cls))
    for cls in MESSAGES.values()}
"""Per message class: each field's name, its value when left out, the classes it allows and its own check."""


def decode(msg: Received) -> ClientMessage:
    """The dataclass of a client message (its ``type`` known: :func:`.protocol.read_message` checked it).

    :raises TableError: for a move whose text or id is malformed.
    """
    return MESSAGES[str(msg["type"])].from_json(msg)

"""The messages a client may send, one frozen dataclass each, decoded once from the JSON object (``type`` names
the class; see :mod:`.protocol` for what each does).

Decoding checks what a message can be checked for on its own: its type, each field's type (a seat is a number,
a name is text: the catalogue's refusal otherwise), and a move's text and id.  What depends
on the table (a seat's number, whose turn it is, who is host) is checked where the table is known, by
:mod:`.protocol` and :class:`~fiftysix.server.state.table.TableState`.  The wire format is unchanged: a replica
forwards the JSON object itself, and the writer decodes it.
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass, fields
from typing import ClassVar

from ...core.meaning import N_, Meaning
from ..state.table import TableError

MAX_MOVE = 64
MAX_MOVE_ID = 32


class Missing:
    """A field the client left out (``seat`` of a move: the sender's own seat)."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING = Missing()


@dataclass(frozen=True)
class ClientMessage:
    """One message from a client.  ``kind`` is its ``type``; the fields are read by name from the JSON object
    (absent: ``None``, as the client sent no value)."""

    kind: ClassVar[str]

    @classmethod
    def from_json(cls, msg: dict[str, object]) -> ClientMessage:
        """:raises TableError: for a field of the wrong type (a seat that is no number, a name that is no text)."""
        return cls(**{f.name: checked(f.name, msg.get(f.name), _ALLOWED[cls][f.name]) for f in fields(cls)})


def checked(name: str, value: object, allowed: tuple[type, ...]) -> object:
    """``value`` when it is of a type ``allowed`` (or absent), else the catalogue's refusal for its field.

    :raises TableError: naming the field and what it must be.
    """
    if value is None or object in allowed or (isinstance(value, allowed) and not isinstance(value, bool)):
        return value
    what = Meaning(FIELD_WORDS[name]) if name in FIELD_WORDS else name
    if int in allowed:
        raise TableError(Meaning("the {what} must be a number", {"what": what}))
    raise TableError(Meaning("the {what} must be text", {"what": what}))


FIELD_WORDS = {"name": N_("name"), "seat": N_("seat"), "a": N_("seat"), "b": N_("seat"), "bot": N_("bot"),
               "version": N_("version"), "token": N_("player token"), "key": N_("table's secret")}
"""What a refusal calls a field (translated); other fields go by their name in the protocol."""


@dataclass(frozen=True)
class Hello(ClientMessage):
    """The first message: the last table version the client saw (for the changes since), its player token
    (instead of the cookie) and a private table's link secret."""

    kind = "hello"
    version: int | None = None
    token: str | None = None
    key: str | None = None


@dataclass(frozen=True)
class Ping(ClientMessage):
    kind = "ping"


@dataclass(frozen=True)
class AskState(ClientMessage):
    kind = "state"


@dataclass(frozen=True)
class Ask(ClientMessage):
    kind = "ask"
    name: str | None = None


@dataclass(frozen=True)
class Join(ClientMessage):
    kind = "join"
    name: str | None = None


@dataclass(frozen=True)
class Explain(ClientMessage):
    kind = "explain"
    move: str | None = None


@dataclass(frozen=True)
class React(ClientMessage):
    kind = "react"
    reaction: str | None = None


@dataclass(frozen=True)
class Admit(ClientMessage):
    kind = "admit"
    player: str | None = None


@dataclass(frozen=True)
class Refuse(ClientMessage):
    kind = "refuse"
    player: str | None = None


@dataclass(frozen=True)
class Sit(ClientMessage):
    kind = "sit"
    seat: int | None = None


@dataclass(frozen=True)
class Stand(ClientMessage):
    kind = "stand"


@dataclass(frozen=True)
class AddBot(ClientMessage):
    kind = "bot"
    seat: int | None = None
    bot: str | None = None


@dataclass(frozen=True)
class RemoveBot(ClientMessage):
    kind = "unbot"
    seat: int | None = None


@dataclass(frozen=True)
class Swap(ClientMessage):
    kind = "swap"
    a: int | None = None
    b: int | None = None


@dataclass(frozen=True)
class Offer(ClientMessage):
    kind = "offer"
    seat: int | None = None


@dataclass(frozen=True)
class Start(ClientMessage):
    kind = "start"


@dataclass(frozen=True)
class NextDeal(ClientMessage):
    kind = "next"


@dataclass(frozen=True)
class Rematch(ClientMessage):
    kind = "rematch"


@dataclass(frozen=True)
class Pause(ClientMessage):
    kind = "pause"


@dataclass(frozen=True)
class Resume(ClientMessage):
    kind = "resume"


@dataclass(frozen=True)
class Replace(ClientMessage):
    kind = "replace"
    seat: int | None = None
    bot: str | None = None


@dataclass(frozen=True)
class Host(ClientMessage):
    kind = "host"
    seat: int | None = None


@dataclass(frozen=True)
class Move(ClientMessage):
    """A call, a card, a trump or a discard in the rules' notation; ``id`` makes it applied at most once."""

    kind = "move"
    move: str = ""
    id: str | None = None
    seat: int | Missing = MISSING      # checked: a number, or left out

    @classmethod
    def from_json(cls, msg: dict[str, object]) -> Move:
        """:raises TableError: for a move that is not text, or an id that is not 1-32 printable characters."""
        move = msg.get("move")
        if not isinstance(move, str) or not move.strip() or len(move) > MAX_MOVE:
            raise TableError(N_("a move must be a non-empty string in the notation of the rules"))
        move_id = msg.get("id")
        if move_id is not None and (not isinstance(move_id, str) or not 1 <= len(move_id) <= MAX_MOVE_ID
                                    or not move_id.isprintable()):
            raise TableError(Meaning("a move id must be text of 1-{most} printable characters",
                                     {"most": MAX_MOVE_ID}))
        seat = msg.get("seat", MISSING)
        if seat is MISSING:
            return cls(move, move_id)
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise TableError(Meaning("the {what} must be a number", {"what": Meaning(N_("seat"))}))
        return cls(move, move_id, seat)


MESSAGES: dict[str, type[ClientMessage]] = {c.kind: c for c in (
    Hello, Join, Sit, Stand, AddBot, RemoveBot, Swap, Start, NextDeal, Rematch, Move, Explain, AskState, Ping,
    Offer, Ask, Admit, Refuse, React, Pause, Resume, Replace, Host)}
"""Every client message by its ``type``, in the order the protocol lists them."""

TYPES = tuple(MESSAGES)


def _allowed(hint: object) -> tuple[type, ...]:
    """The runtime classes a field's annotation allows (``None`` is allowed everywhere: the client sent none)."""
    if isinstance(hint, types.UnionType):
        return tuple(c for arg in typing.get_args(hint) for c in _allowed(arg) if c is not type(None))
    assert isinstance(hint, type)
    return (hint,)


_ALLOWED: dict[type[ClientMessage], dict[str, tuple[type, ...]]] = {
    cls: {f.name: _allowed(typing.get_type_hints(cls)[f.name]) for f in fields(cls)} for cls in MESSAGES.values()}
"""Per message class: each field's allowed runtime classes (read once from its annotations)."""


def decode(msg: dict[str, object]) -> ClientMessage:
    """The dataclass of a client message (its ``type`` known: :func:`.protocol.read_message` checked it).

    :raises TableError: for a move whose text or id is malformed.
    """
    return MESSAGES[str(msg["type"])].from_json(msg)

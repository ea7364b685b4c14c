"""What a table's socket sends besides states and events (:mod:`.messages` builds those from the table): one
frozen dataclass per ``type``, so a message is checked where it is made and its shape is declared once.

:meth:`Outgoing.to_json` writes ``{"type": ..., fields...}`` with a field whose default is ``None`` left out while
it is ``None``; a message's text may be a :class:`~fiftysix.core.meaning.Meaning`, put in the reader's language
when it is sent. A new kind: a class here, sent as ``conn.send(Kind(...))``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

from ...core.meaning import Meaning
from ..state.typed_json import Kinded

if TYPE_CHECKING:
    from .messages import TableInfo

Text = str | Meaning
"""Words for a person: plain English (the server's own) or a meaning translated when sent."""


@dataclass(frozen=True)
class Outgoing(Kinded):
    """One message to a client; ``kind`` is its ``type``."""

    def to_json(self) -> dict[str, object]:
        return {"type": self.kind, **{f.name: list(v) if isinstance(v, tuple) else v for f in fields(self)
                                      if (v := getattr(self, f.name)) is not None or f.default is not None}}


@dataclass(frozen=True)
class Error(Outgoing, kind="error"):
    """A refusal: nothing changed. ``id``: the refused move's id; ``legal``: the moves that are allowed."""

    message: Text
    id: str | None = None
    legal: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Pong(Outgoing, kind="pong"):
    version: int


@dataclass(frozen=True)
class Moved(Outgoing, kind="moved"):
    """The move with this id was applied at ``version`` (``again``: earlier, a resend changed nothing)."""

    id: str
    version: int
    again: bool | None = None


@dataclass(frozen=True)
class Joined(Outgoing, kind="joined"):
    """A join under the name the person has already: nothing changed."""

    name: str
    version: int
    message: Text


@dataclass(frozen=True)
class Synced(Outgoing, kind="synced"):
    """The client is at ``version``; ``applied``: its move ids the table has applied (a resent one is not moved
    again)."""

    version: int
    applied: tuple[str, ...]


@dataclass(frozen=True)
class Admitted(Outgoing, kind="admitted"):
    """The host let this person in: they say hello again."""


@dataclass(frozen=True)
class Refused(Outgoing, kind="refused"):
    message: Text


@dataclass(frozen=True)
class Asked(Outgoing, kind="asked"):
    message: Text


@dataclass(frozen=True)
class Private(Outgoing, kind="private"):
    """A private table without its secret: nothing else is sent (``can_ask``: the person has a name to ask with)."""

    code: str
    can_ask: bool
    message: Text


@dataclass(frozen=True)
class Explained(Outgoing, kind="explained"):
    """What one of the asker's legal calls would tell the partners (``meaning`` ``None``: nothing to explain)."""

    move: str
    meaning: object


@dataclass(frozen=True)
class Knocks(Outgoing, kind="knocks"):
    """To the host: everyone asking to be let in, as ``[{"player", "name"}]``."""

    knocks: tuple[dict[str, str], ...]


@dataclass(frozen=True)
class PresenceNow(Outgoing, kind="presence"):
    """Who is here changed (the table's facts as :func:`.messages.table_info` gives them)."""

    version: int
    table: TableInfo


@dataclass(frozen=True)
class Reaction(Outgoing, kind="reaction"):
    """A person's preset reaction, to everyone at the table (``seat`` ``None``: a watcher's)."""

    seat: int | None
    name: str
    reaction: str
    time: float

    def to_json(self) -> dict[str, object]:      # a watcher's seat is sent as null, not left out
        return {"type": self.kind, "seat": self.seat, "name": self.name, "reaction": self.reaction, "time": self.time}


@dataclass(frozen=True)
class PeekAsk(Outgoing, kind="peek_ask"):
    """To a seated person: a watcher asks to see their hand."""

    watcher: str
    name: str
    seat: int


@dataclass(frozen=True)
class PeekHand(Outgoing, kind="peek_hand"):
    """To the watcher: the hand they were let see."""

    seat: int
    hand: object
    version: int


@dataclass(frozen=True)
class PeekRefused(Outgoing, kind="peek_refused"):
    seat: int

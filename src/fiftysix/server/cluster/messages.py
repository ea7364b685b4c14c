"""The messages between the server's processes on Redis, one declared type per ``op`` (JSON objects on the wire).

On a table's channel (``fs:t:<code>``, the writer to its replicas): ``event``, ``presence``, ``say``, ``knocks``,
``answer``, ``reread``, ``writer``.  In a process's inbox (``fs:p:<process>``): ``req`` (a replica's change for
the writer), ``reply`` and ``done`` (the writer's answers), ``here`` (who is online at a replica).  To every
process (``fs:all``): ``signout``, ``revoke``, ``forget``, ``tell``.  They are published and read only by this
server's own processes (trusted: read by key, not checked).  Keys named ``from`` are written in the functional
form of :class:`TypedDict` (a keyword in Python).
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from ..state.typed_json import Received
from ..table.clock import ClockInfo


class PublishedPresence(TypedDict):
    """A table's :class:`~..table.messages.Presence` as published (its sets as sorted lists)."""

    online: list[str]
    covered: list[str]
    clock: ClockInfo | None     # the turn clock's info, as :class:`Presence` holds it


class EventMessage(TypedDict):
    """The writer stored event number ``v`` (``e``, its stored JSON) with this presence."""

    op: Literal["event"]
    v: int
    e: Received
    p: PublishedPresence


class PresenceMessage(TypedDict):
    op: Literal["presence"]
    p: PublishedPresence


class SayMessage(TypedDict):
    """A message for every viewer that is not a change of the table (a reaction), as sent to a client."""

    op: Literal["say"]
    m: dict[str, object]


class KnocksMessage(TypedDict):
    """Everyone asking to join, on every process (player -> the name they gave)."""

    op: Literal["knocks"]
    k: dict[str, str]


class AnswerMessage(TypedDict):
    """The host's answer to ``player`` asking to join."""

    op: Literal["answer"]
    player: str
    admitted: bool


class RereadMessage(TypedDict):
    """The writer's memory was ahead of the log: every replica reads the log again."""

    op: Literal["reread"]


WriterMessage = TypedDict("WriterMessage", {"op": Literal["writer"], "from": str})
"""The process ``from`` writes the table now."""

RequestMessage = TypedDict("RequestMessage", {"op": Literal["req"], "code": str, "from": str, "rid": int,
                                              "player": str | None, "msg": Received})
"""A client's message ``msg`` at a replica on process ``from``, for the writer of ``code`` (request ``rid``)."""


class ReplyMessage(TypedDict):
    """The writer's message for the client of request ``rid``."""

    op: Literal["reply"]
    rid: int
    msg: dict[str, object]


class DoneMessage(TypedDict):
    """The writer served request ``rid`` (``retry``: it does not write that table, ask again)."""

    op: Literal["done"]
    rid: int
    retry: NotRequired[bool]


HereMessage = TypedDict("HereMessage", {"op": Literal["here"], "code": str, "from": str, "players": list[str],
                                        "knocks": dict[str, str]})
"""Who is online at process ``from`` at table ``code``, and who asks to join there."""

SignoutMessage = TypedDict("SignoutMessage", {"op": Literal["signout"], "from": str, "player": str, "gen": int})
"""``player`` signed out everywhere: their tokens before generation ``gen`` are refused."""

RevokeMessage = TypedDict("RevokeMessage", {"op": Literal["revoke"], "from": str, "player": str, "session": str})
"""Device ``session`` of ``player`` was signed out."""

ForgetMessage = TypedDict("ForgetMessage", {"op": Literal["forget"], "from": str, "player": str})
"""``player``'s account was deleted."""

TellMessage = TypedDict("TellMessage", {"op": Literal["tell"], "from": str, "code": str, "player": str,
                                        "m": dict[str, object], "seatless": bool})
"""Message ``m`` for ``player``'s connections to ``code`` (with ``seatless``: only while they hold no seat)."""

OnTable = EventMessage | PresenceMessage | SayMessage | KnocksMessage | AnswerMessage | RereadMessage | WriterMessage
"""What a table's channel carries."""

Heard = (OnTable | RequestMessage | ReplyMessage | DoneMessage | HereMessage | SignoutMessage | RevokeMessage
         | ForgetMessage | TellMessage)
"""Any message between the processes."""

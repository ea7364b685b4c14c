"""One websocket's connection to a table: who it is and its bounded queue of messages to send."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..services import ServiceMessage
from .outgoing import Outgoing

if TYPE_CHECKING:
    from .messages import Snapshot


@dataclass(eq=False)
class Connection:
    """One websocket: who it is and the queue of messages waiting to be sent to it.

    The queue holds at most ``limit`` messages: a client that reads slower than its table changes (or
    never reads) is dropped instead of growing the server's memory: its queue is emptied, ``dropped``
    says why, and ``on_drop`` (set by the websocket's handler) closes the socket.
    """

    player: str | None
    limit: int = 256
    queue: asyncio.Queue[dict[str, object] | None] = field(default_factory=asyncio.Queue)
    dropped: str | None = None
    on_drop: Callable[[], None] | None = None
    lang: str = "en"              # the viewer's language: rules' meanings are translated for it when sent
    states_waiting: int = 0       # full states queued and not yet taken by the sender

    def send(self, message: Outgoing | Snapshot | ServiceMessage | dict[str, object] | None) -> None:
        """Queue a message (``None``: close the sender); a state or an event is built by :mod:`.messages`, a
        plain ``dict`` is one the table's writer on another process sent back (server/cluster)."""
        if self.dropped is not None:
            return
        if isinstance(message, Outgoing):
            message = message.to_json()
        elif message is not None:
            message = dict(message)
        if message is not None and self.queue.qsize() >= self.limit:
            self.drop(f"too slow: {self.limit} messages were waiting to be sent; reconnect for a fresh state")
            return
        if message is not None and message.get("type") == "state":
            self.states_waiting += 1
        self.queue.put_nowait(message)

    async def take(self) -> dict[str, object] | None:
        """The next message for the sender (``None``: close)."""
        message = await self.queue.get()
        if message is not None and message.get("type") == "state":
            self.states_waiting = max(0, self.states_waiting - 1)
        return message

    def drop(self, reason: str) -> None:
        """Stop sending: forget what waits, tell the sender to close, call ``on_drop``."""
        if self.dropped is not None:
            return
        self.dropped = reason
        self.states_waiting = 0
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)
        if self.on_drop is not None:
            self.on_drop()

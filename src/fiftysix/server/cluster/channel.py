"""What a table's writer publishes on the table's channel (``fs:t:<code>``) for its replicas: each stored event
once with who is online, the presence, what is said to every viewer, who asks to join and the host's answer, and
a word to read the log again (a part of :class:`.table.ClusterTable`, heard by :class:`.replica.Replica`)."""

from __future__ import annotations

from ..state.typed_json import Received
from ..table.messages import Presence
from .bus import Bus, table_channel
from .messages import PublishedPresence


def published(presence: Presence) -> PublishedPresence:
    """A :class:`Presence` as JSON (sets as sorted lists); :func:`.replica.heard_presence` reads it back."""
    return {"online": sorted(presence.online), "covered": sorted(presence.covered), "clock": presence.clock}


def heard_presence(published: PublishedPresence) -> Presence:
    """The writer's :class:`Presence` as published."""
    return Presence(online=set(published["online"]), covered=set(published["covered"]), clock=published["clock"])


class Channel:
    """One table's channel, published to through the process's bus."""

    def __init__(self, bus: Bus, code: str) -> None:
        self.bus, self.name = bus, table_channel(code)

    def event(self, version: int, event: Received, presence: Presence) -> None:
        self.bus.publish_soon(self.name, {"op": "event", "v": version, "e": event, "p": published(presence)})

    def presence(self, presence: Presence) -> None:
        self.bus.publish_soon(self.name, {"op": "presence", "p": published(presence)})

    def say(self, message: dict[str, object]) -> None:
        self.bus.publish_soon(self.name, {"op": "say", "m": message})

    def knocks(self, asking: dict[str, str]) -> None:
        self.bus.publish_soon(self.name, {"op": "knocks", "k": asking})

    def answer(self, player: str, admitted: bool) -> None:
        self.bus.publish_soon(self.name, {"op": "answer", "player": player, "admitted": admitted})

    def reread(self) -> None:
        self.bus.publish_soon(self.name, {"op": "reread"})

    def writer(self, me: str) -> None:
        """This process writes the table now (promoted, or Redis back)."""
        self.bus.publish_soon(self.name, {"op": "writer", "from": me})

"""A private table's door: people without its link ask the host to be let in (a part of :class:`~.live.LiveTable`)."""

from __future__ import annotations

from typing import Protocol

from ...core.meaning import N_, Meaning
from ..state.table import TableError, TableState
from .connection import Connection
from .outgoing import Admitted, Knocks, Refused

MAX_KNOCKS = 20
"""People waiting at once for the host to let them into a private table."""


class DoorOwner(Protocol):
    """What the door needs of its table: its connections (the host's are told) and its state (who hosts)."""

    conns: set[Connection]
    state: TableState


class KnocksElsewhere(Protocol):
    """Who asks on the table's other processes (a clustered table's: :class:`~..cluster.table.ClusterKnocks`)."""

    def asking(self) -> dict[str, str]: ...
    def told(self, asking: dict[str, str]) -> None: ...
    def answered(self, player: str, admitted: bool) -> None: ...


class Knocking:
    """Who is asking to be let in here (``knocks``: player -> the name they gave and their connections), told to
    the host's connections; with many processes, ``elsewhere`` adds who asks on the others and hears of changes."""

    def __init__(self, table: DoorOwner) -> None:
        self.table = table
        self.knocks: dict[str, tuple[str, set[Connection]]] = {}
        self.elsewhere: KnocksElsewhere | None = None

    def knock(self, conn: Connection, name: str) -> None:
        """``conn`` (a person, not a member) asks the host to be let in.

        :raises TableError: when too many are waiting already.
        """
        assert conn.player is not None
        asking = self.asking()
        if conn.player not in asking and len(asking) >= MAX_KNOCKS:
            raise TableError(Meaning(N_("{n} people are waiting for the host already; try again later"),
                                     {"n": MAX_KNOCKS}))
        conns = self.knocks.get(conn.player, (name, set()))[1]
        conns.add(conn)
        self.knocks[conn.player] = (name, conns)
        self.tell_host()

    def forget_knock(self, conn: Connection) -> None:
        for player, (_name, conns) in list(self.knocks.items()):
            conns.discard(conn)
            if not conns:
                del self.knocks[player]
                self.tell_host()

    def answer_knock(self, player: str, admitted: bool) -> None:
        """The host's answer, to whoever asked, on whichever process they wait."""
        if self.elsewhere is not None:
            self.elsewhere.answered(player, admitted)
        self.answer_here(player, admitted)

    def answer_here(self, player: str, admitted: bool) -> None:
        """Tell whoever asked on this process: let in (they say hello again) or refused."""
        _name, conns = self.knocks.pop(player, ("", set()))
        for c in conns:
            c.send(Admitted() if admitted else Refused("the host did not let you in"))
        self.tell_host()

    def asking(self) -> dict[str, str]:
        """Everyone asking to be let in (player -> the name they gave), on any process."""
        merged = self.elsewhere.asking() if self.elsewhere is not None else {}
        merged.update(self.asking_here())
        return merged

    def asking_here(self) -> dict[str, str]:
        """Everyone asking to be let in on this process."""
        return {p: name for p, (name, _c) in self.knocks.items()}

    def knock_list(self) -> Knocks:
        """Everyone asking, on any process, as the host is told."""
        return Knocks(tuple({"player": p, "name": n} for p, n in self.asking().items()))

    def tell_host(self) -> None:
        """The list to the host's connections here, and to the other processes."""
        self.tell_host_here()
        if self.elsewhere is not None:
            self.elsewhere.told(self.asking())

    def tell_host_here(self) -> None:
        """The list to the host's connections on this process."""
        message = self.knock_list()
        for c in self.table.conns:
            if c.player == self.table.state.host:
                c.send(message)

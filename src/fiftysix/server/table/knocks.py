"""A private table's door: people without its link ask the host to be let in (a part of :class:`~.live.LiveTable`)."""

from __future__ import annotations

from ...core.meaning import N_, Meaning
from ..state.table import TableError, TableState
from .connection import Connection
from .outgoing import Admitted, Knocks, Refused

MAX_KNOCKS = 20
"""People waiting at once for the host to let them into a private table."""


class Knocking:
    """Who is asking to be let in, told to the host's connections; with many processes the clustered table
    adds those asking on other processes (:meth:`asking`, :meth:`tell_host`)."""

    knocks: dict[str, tuple[str, set[Connection]]]     # asking to join: player -> (name, connections)
    conns: set[Connection]
    state: TableState

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
        """Tell whoever asked: let in (they say hello again) or refused."""
        _name, conns = self.knocks.pop(player, ("", set()))
        for c in conns:
            c.send(Admitted() if admitted else Refused("the host did not let you in"))
        self.tell_host()

    def asking(self) -> dict[str, str]:
        """Everyone asking to be let in (player -> the name they gave); with many processes, on any of them."""
        return {p: name for p, (name, _c) in self.knocks.items()}

    def knock_list(self) -> Knocks:
        return Knocks(tuple({"player": p, "name": n} for p, n in self.asking().items()))

    def tell_host(self) -> None:
        message = self.knock_list()
        for c in self.conns:
            if c.player == self.state.host:
                c.send(message)

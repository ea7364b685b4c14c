"""A club table seats only the club's members; others may watch it only when the club's owner allows.

The checks wrap the server's message handler (``join``, ``sit`` and ``ask`` of a stranger are refused before
the table sees them, so nothing changes) and its watch gate (a stranger's hello, or read of the table's
facts, at a club that allows no watchers).
"""

from __future__ import annotations

from ...core.meaning import N_
from ..serving import Gate, Server
from ..state.typed_json import Received
from ..table.live import Connection, LiveTable
from ..table.outgoing import Error
from .routes import clubs_of

MEMBERS_ONLY = N_("only members of this table's club may sit or join here: ask a member for the club's "
                  "invite link")
NO_WATCHERS = N_("this table belongs to a club whose owner lets only members watch: ask a member for the "
                 "club's invite link")
SEATING = {"join", "sit", "ask"}    # what a stranger may not do at a club table (the seat-giving messages)


def install(server: Server) -> None:
    """Put the club checks in front of ``server``'s message handler and its watch gate."""
    clubs = clubs_of(server)
    inner = server.handle

    async def handle(table: LiveTable, conn: Connection, msg: Received) -> None:
        if msg.get("type") in SEATING:
            club = await clubs.club_of_table(table.code)
            if club is not None and not await clubs.is_member(club, conn.player):
                conn.send(Error(MEMBERS_ONLY))
                return
        await inner(table, conn, msg)

    server.handle = handle
    server.watch_gate = gate(server)


def gate(server: Server) -> Gate:
    clubs = clubs_of(server)

    async def may_watch(code: str, player: str | None, _through: int | None) -> str | None:
        """``None``: ``player`` may watch table ``code``; else why not."""
        club_id = await clubs.club_of_table(code)
        if club_id is None or await clubs.is_member(club_id, player):
            return None
        club = await clubs.get(club_id)
        return None if club is not None and club["watchers"] else NO_WATCHERS
    return may_watch

"""The no-early-view rule at the tables: while an event runs, only the people seated at one of its tables read
it as it plays; anyone else reads a board there once every table has finished it (:func:`.visibility.may_read`).
The server's read gate covers the socket's hello and every read of a table, so one check guards them all."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from ...core.meaning import N_
from ..serving import Gate, Server
from ..state.errors import NoMoreDeals
from .boards import board_seed
from .routes import nights_of
from .running import close_if_played
from .store import running_matches
from .visibility import may_read

ALL_PLAYED = N_("this table has played every board of the event: the standings are on the club page")
OTHER_TABLE = N_("you play at another table of this event: its tables open to you when the event is closed")
NOT_YET = N_("this table plays a club night's boards: a board is shown when every table has finished it, and "
             "the whole table when the event is closed")


def install(server: Server) -> None:
    """Put the event check in front of ``server``'s watch gate (after the club's, which it keeps), and make an
    event's tables deal its boards."""
    server.watch_gate = gate(server, server.watch_gate)
    server.hub.deal_seeds = seeds(server)
    server.hub.deals_done = boards_done(server)
    server.withheld = nights_of(server).running_tables
    server.pending_matches = running_matches


def boards_done(server: Server) -> Callable[[str, int, list[int]], Awaitable[None]]:
    nights = nights_of(server)

    async def done(code: str, deal: int, _standings: list[int]) -> None:
        """The event's last board stored at its last table closes the event (and rates it, once).  The board
        itself needs no writing: its deal's row is the board (:meth:`.store.Nights.finished`)."""
        found = await nights.table_of(code)
        event = await nights.get(found[0]) if found is not None else None
        if event is not None and deal == event["boards"]:
            await close_if_played(nights, event)
    return done


def seeds(server: Server) -> Callable[[str, int], Awaitable[int | None]]:
    nights = nights_of(server)
    known: dict[str, tuple[str, int]] = {}     # event id -> (its seed, its boards): neither ever changes

    async def seed_of(code: str, deal: int) -> int | None:
        """Board ``deal``'s seed when ``code`` is an event's table and the event has that board."""
        found = await nights.table_of(code)
        if found is None:
            return None
        if found[0] not in known:
            event = await nights.get(found[0])
            if event is None:
                return None
            known[found[0]] = (await nights.seed(found[0]), int(event["boards"]))
        seed, boards = known[found[0]]
        if deal > boards:
            raise NoMoreDeals(ALL_PLAYED)
        return board_seed(seed, deal) if deal >= 1 else None
    return seed_of


def gate(server: Server, inner: Gate | None) -> Gate:
    nights = nights_of(server)

    async def may_see(code: str, player: str | None, through: int | None) -> str | None:
        """An event table's reads pass the one rule (:func:`.visibility.may_read`), then the club's gate."""
        found = await nights.table_of(code)
        if found is not None:
            progress = await nights.progress(found[0])
            if progress is not None and not may_read(progress, player, found[1], through):
                return OTHER_TABLE if player is not None and player in progress.seated else NOT_YET
        return None if inner is None else await inner(code, player, through)
    return may_see

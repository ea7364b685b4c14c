"""Today's deals at the tables: a daily table deals the day's boards in order and no more (none after its day),
every read of it passes the one rule (:func:`.rule.may_read`, through the server's read gate), and it writes
nothing for histories, stats and table ratings (its boards are shown on the daily pages, through the rule; the
day's ranking is rated on its own: :mod:`.closing`).  Subscribed like the club nights: the table core knows
nothing of this feature."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from ...core.meaning import N_
from ..serving import Gate, Server
from ..state.errors import NoMoreDeals
from ..state.table import TableState
from ..storage.attached import Attached
from ..table.deal_links import Finishing
from .part import daily_of
from .rule import may_read
from .seeds import daily_board_seed

ALL_PLAYED = N_("you have played every board of today's set: the field's results are on the daily page")
DAY_OVER = N_("this set was the day's: it closed at midnight UTC, and its boards are no longer dealt. Today's "
              "sets are on the daily page")
NOT_YET = N_("this table plays today's deals: you may watch a board of it once you have finished that board "
             "yourself, and never while it is played")

Seeds = Callable[[str, int], Awaitable[int | None]]
Done = Callable[[str, int, list[int]], Awaitable[None]]


EVENT = "daily:"
"""A daily table's event name begins so (``daily:<day>:<preset>``, logged in its ``Create``)."""


def install(server: Server) -> None:
    """In front of what is installed already (the club nights', and history's subscriber), for the daily tables
    only."""
    server.hub.finishing[:] = [kept_out(f) for f in server.hub.finishing]
    server.watch_gate = gate(server, server.watch_gate)
    server.hub.deal_seeds = seeds(server, server.hub.deal_seeds)
    server.hub.deals_done = done(server, server.hub.deals_done)


def kept_out(subscriber: Finishing) -> Finishing:
    """History's subscriber to finished deals, silent at daily tables: a daily board is played with computers
    against the field, not a match with people, so it enters no one's matches, stats, partners or table rating
    (and so nothing of it can reach a history, a club's leaderboard or its recent matches before the day is over)."""
    def writes(state: TableState, played: list[int]) -> Sequence[Attached]:
        return [] if (state.night or "").startswith(EVENT) else subscriber(state, played)
    return writes


def seeds(server: Server, inner: Seeds | None) -> Seeds:
    daily = daily_of(server)

    async def seed_of(code: str, deal: int) -> int | None:
        claim = await daily.store.of_code(code)
        if claim is None:
            return None if inner is None else await inner(code, deal)
        if deal > claim["boards"]:
            raise NoMoreDeals(ALL_PLAYED)
        if deal >= 1 and daily.over(claim["day"]):     # the day's set closed at midnight UTC (and is rated)
            raise NoMoreDeals(DAY_OVER)
        return daily_board_seed(await daily.secret(), claim["day"], claim["preset"], deal) if deal >= 1 else None
    return seed_of


def done(server: Server, inner: Done | None) -> Done:
    daily = daily_of(server)

    async def stored(code: str, deal: int, standings: list[int]) -> None:
        claim = await daily.store.of_code(code)
        if claim is None:
            if inner is not None:
                await inner(code, deal, standings)
        elif deal >= claim["boards"]:     # the set is over: its place in play is free
            await daily.release(claim["player"])
    return stored


def gate(server: Server, inner: Gate | None) -> Gate:
    daily = daily_of(server)

    async def may_see(code: str, player: str | None, through: int | None) -> str | None:
        claim = await daily.store.of_code(code)
        if claim is not None:
            day, _played = await daily.day(claim["day"], claim["preset"])
            if not may_read(day, player, claim["player"], through):
                return NOT_YET
        return None if inner is None else await inner(code, player, through)
    return may_see

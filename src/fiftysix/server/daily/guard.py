"""Today's deals at the tables: a daily table deals the day's boards in order and no more, every read of it passes
the one rule (:func:`.rule.may_read`, through the server's read gate), and its matches stay out of histories
until the day is over.  Subscribed like the club nights: the table core knows nothing of this feature."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from ...core.meaning import N_
from ..serving import Gate, Server
from ..state.errors import NoMoreDeals
from .part import daily_of
from .rule import may_read
from .seeds import daily_board_seed

ALL_PLAYED = N_("you have played every board of today's set: the field's results are on the daily page")
NOT_YET = N_("this table plays today's deals: you may watch a board of it once you have finished that board "
             "yourself, and never while it is played")

Seeds = Callable[[str, int], Awaitable[int | None]]
Done = Callable[[str, int, list[int]], Awaitable[None]]
Withheld = Callable[[list[str]], Awaitable[set[str]]]


def install(server: Server) -> None:
    """In front of what is installed already (the club nights'), for the daily tables only."""
    server.watch_gate = gate(server, server.watch_gate)
    server.hub.deal_seeds = seeds(server, server.hub.deal_seeds)
    server.hub.deals_done = done(server, server.hub.deals_done)
    server.withheld = withheld(server, server.withheld)


def seeds(server: Server, inner: Seeds | None) -> Seeds:
    daily = daily_of(server)

    async def seed_of(code: str, deal: int) -> int | None:
        claim = await daily.store.of_code(code)
        if claim is None:
            return None if inner is None else await inner(code, deal)
        if deal > claim["boards"]:
            raise NoMoreDeals(ALL_PLAYED)
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
            daily.admission.release(claim["player"])
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


def withheld(server: Server, inner: Withheld | None) -> Withheld:
    daily = daily_of(server)

    async def held(codes: list[str]) -> set[str]:
        out = set() if inner is None else await inner(codes)
        for code in codes:
            claim = await daily.store.of_code(code)
            if claim is not None and not daily.over(claim["day"]):
                out.add(code)
        return out
    return held

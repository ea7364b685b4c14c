"""A watcher asks a seated person to see their hand (issue 43).

Routes::

    POST /api/tables/{code}/peek         a watcher: {"seat"} -> asks that seat's person (or is shown at once
                                         when that person said "always" to them)
    POST /api/tables/{code}/peek/answer  the seated person: {"watcher", "answer": "allow"|"refuse"|"always"}

The seated person hears ``{"type": "peek_ask", "watcher", "name", "seat"}``; the watcher hears
``{"type": "peek_hand", "seat", "hand"}`` or ``{"type": "peek_refused", "seat"}``.  The hand goes only to
connections of that watcher, and only while the watcher holds no seat: nobody seated at the table ever
receives it.  A watcher who has seen a hand may not sit at that table until the match ends.  What was asked,
allowed always and seen is kept in the database (:mod:`.peek_store`): with many processes every process sees it,
whichever holds the watcher's, the player's or the table's writer's connections, and it outlives a failover.  The
messages reach connections on other processes through the hub (``Hub.tell_elsewhere``: Redis).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...core.meaning import N_
from ...views import view
from ..edge.lang import language_of
from ..edge.limits import Buckets
from ..edge.safejson import JSONResponse
from ..edge.tokens import COOKIE, Player
from ..serving import Server, address_of, json_body, part, refusal, serving
from ..state.table import MATCH_OVER, PLAYING, TableState
from ..state.typed_json import Received
from ..table.live import Connection, LiveTable
from ..table.outgoing import Error, Outgoing, PeekAsk, PeekHand, PeekRefused
from .peek_store import PeekStore

ANSWERS = ("allow", "refuse", "always")
SAW_A_HAND = N_("you have seen a seated player's hand at this table: you may take a seat when this match ends")


@dataclass
class Peeks:
    """The asks and seen hands (in the database) and this process's limits on asking."""

    store: PeekStore
    limits: tuple[Buckets, Buckets] = field(default_factory=lambda: (Buckets(0.5, 10), Buckets(100.0, 200)))

    async def may_sit(self, state: TableState, player: str | None) -> bool:
        """``False`` while ``player`` has seen a hand in this table's current match (until it ends)."""
        if player is None:
            return True
        saw = await self.store.seen_in(state.code, player)
        return saw is None or saw != state.match_no or state.status == MATCH_OVER

    async def show(self, server: Server, table: LiveTable, watcher: str, seat: int) -> bool:
        """Send ``seat``'s hand to ``watcher``'s connections while they hold no seat; ``False``: no hand now.
        The ban on sitting is stored before the hand leaves."""
        state = table.state
        deal_seat = state.deal_seat(seat)
        if state.status != PLAYING or state.deal is None or deal_seat is None or state.seat_of(watcher) is not None:
            return False
        await self.store.saw(state.code, watcher, state.match_no)
        hand = view(state.deal, deal_seat, state.match)["hand"]
        tell(server, table, watcher, PeekHand(seat, hand, state.version),
             seatless=True)
        return True


def tell(server: Server, table: LiveTable, player: str, message: Outgoing, seatless: bool = False) -> None:
    """``message`` to ``player``'s connections to ``table`` on every process (``seatless``: only while they hold
    no seat there)."""
    for conn in list(table.conns):
        if conn.player == player and not (seatless and table.state.seat_of(player) is not None):
            conn.send(message)
    server.hub.tell_elsewhere(table.code, player, message, seatless)


def peeks_of(server: Server) -> Peeks:
    """The server's asks and seen hands (made on first use)."""
    return part(server, Peeks, lambda: Peeks(PeekStore(server.db.engine)))


def install(server: Server) -> None:
    """Refuse a seat to a watcher who has seen a hand in the table's current match (nothing changes)."""
    peeks = peeks_of(server)
    inner = server.handle

    async def handle(table: LiveTable, conn: Connection, msg: Received) -> None:
        if msg.get("type") == "sit" and not await peeks.may_sit(table.state, conn.player):
            conn.send(Error(SAW_A_HAND))
            return
        await inner(table, conn, msg)

    server.handle = handle


@dataclass(frozen=True)
class _Asked:
    """A peek route's request that passed the checks both routes make (:func:`_checked`)."""

    server: Server
    table: LiveTable
    player: Player          # the body's player (its token), else the cookie's
    body: Received
    lang: str

    @property
    def state(self) -> TableState:
        return self.table.state

    @property
    def peeks(self) -> Peeks:
        return peeks_of(self.server)


async def _checked(request: Request) -> _Asked | Response:
    """The table (readable by this request), the player, the body and the language; else the refusal."""
    server = serving(request)
    lang = language_of(request)
    limits = peeks_of(server).limits
    if not limits[1].allow() or not limits[0].allow(address_of(request)):
        return refusal(N_("too many asks to see a hand from your address; try again in a minute"), 429, lang)
    body = await json_body(request)
    if isinstance(body, Response):
        return body
    player = server.signer().read(body.get("token") or request.cookies.get(COOKIE))
    if player is None:
        return refusal(N_("join the table with a name first"), 401, lang)
    table = await server.readable(request)
    if isinstance(table, Response):
        return table
    # the route acts for the body's player, who may not be the cookie's that ``readable`` judged: the watch gate
    # (a club's members, a club night's seated players) judges them too
    why = await server.gate(table.code, player.id)
    if why is not None:
        return refusal(why, 403, lang)
    return _Asked(server, table, player, body, lang)


def _route(answer: Callable[[_Asked], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """The endpoint that answers a request once :func:`_checked` passed it."""
    async def endpoint(request: Request) -> Response:
        asked = await _checked(request)
        return asked if isinstance(asked, Response) else await answer(asked)
    return endpoint


@_route
async def api_peek(asked: _Asked) -> Response:
    watcher, state, peeks, lang = asked.player.id, asked.state, asked.peeks, asked.lang
    seat = asked.body.get("seat")
    if state.seat_of(watcher) is not None:
        return refusal(N_("you sit at this table: only watchers ask to see a hand"), 400, lang)
    if state.status != PLAYING or not isinstance(seat, int) or isinstance(seat, bool) \
            or not 0 <= seat < len(state.seats) or state.seats[seat].player is None:
        return refusal(N_("seat must be the seat of a person playing this deal"), 400, lang)
    seated = state.seats[seat].player
    assert seated is not None
    if await peeks.store.allowed_always(state.code, seated, watcher):
        return JSONResponse({"shown": await peeks.show(asked.server, asked.table, watcher, seat)})
    name = state.players.get(watcher) or asked.player.name     # a watcher need not have joined
    await peeks.store.ask(state.code, watcher, seat, name)
    tell(asked.server, asked.table, seated, PeekAsk(watcher, name, seat))
    return JSONResponse({"asked": True})


@_route
async def api_answer(asked: _Asked) -> Response:
    seated, state, peeks = asked.player.id, asked.state, asked.peeks
    seat = state.seat_of(seated)
    watcher, answer = asked.body.get("watcher"), asked.body.get("answer")
    if answer not in ANSWERS:
        return refusal(N_("answer must be allow, refuse or always"), 400, asked.lang)
    if seat is None or not isinstance(watcher, str) or len(watcher) > 64 or "\x00" in watcher \
            or not await peeks.store.take_ask(state.code, watcher, seat):
        return refusal(N_("no one is waiting for your answer to see your hand"), 400, asked.lang)
    if answer == "refuse":
        tell(asked.server, asked.table, watcher, PeekRefused(seat))
        return JSONResponse({"shown": False})
    if answer == "always":
        await peeks.store.allow_always(state.code, seated, watcher)
    return JSONResponse({"shown": await peeks.show(asked.server, asked.table, watcher, seat)})


def routes() -> list[BaseRoute]:
    return [Route("/api/tables/{code}/peek", api_peek, methods=["POST"]),
            Route("/api/tables/{code}/peek/answer", api_answer, methods=["POST"])]

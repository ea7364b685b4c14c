"""``POST /api/play``: one tap to a game.

The route seats the person at the public table of the default game that :func:`.matching.choose` picks (a free
seat, or a computer's seat: between deals at once, mid-deal from the next deal by the table's ``claim``), or opens
a public table with computers in the other seats and deals at once; its answer says which (``outcome``:
``seated``, ``next_deal``, ``new`` or ``already``) in the person's language.

Concurrency: a person's taps are held apart on every process (``Hub.places``: with many processes a lock in Redis,
:mod:`..cluster.places`), the second waiting for the first and then finding its seat (``already``): a table of
this process where they hold a seat or a claim, the table Play last seated them at (``Hub.places.recall``, read
from its log on a process that only follows it), or a lobby another process holds.  On one process one lock
(:class:`Desk`) then holds each tap from reading the openings to its seat, so people arriving at once are seated
one after another and no seat is given twice.  With many processes every seat is taken by a ``sit`` sent to the table's
writer (the cluster owner of its lease, ``server.handle`` forwards it), which refuses a seat someone took first;
the route then tries the next opening, so a table is never over-filled.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...core.meaning import N_, Meaning, words_of
from ...games import DEFAULT_PRESET, game_of_preset
from ...i18n import tr
from ..edge.lang import language_of
from ..edge.limits import QuotaError
from ..edge.names import TABLE_NAME
from ..edge.safejson import JSONResponse
from ..edge.tokens import COOKIE, clean_name
from ..matches import rating
from ..matches.queries import Rating, ratings_of
from ..serving import Server, address_of, part, refusal, serving, set_cookie, table_link, with_body
from ..state.table import DEAL_OVER, LOBBY, PLAYING, TableError, TableState
from ..state.typed_json import Received
from ..table.client_messages import Claim, ClientMessage, Join, Sit, Start
from ..table.live import LiveTable
from ..table.presence import holding_places, holds_place
from ..table.protocol import send_as
from .matching import Opening, ranked

SEATED, NEXT_DEAL, NEW, ALREADY = "seated", "next_deal", "new", "already"


@dataclass
class Desk:
    """The process's one lock over Play: a tap reads the openings and takes its seat before the next tap reads."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def playable(state: TableState) -> bool:
    """A table Play may seat people at: public, of the default preset, not a club night's."""
    if state.created is None or state.private or state.night is not None:
        return False
    rules = state.game.rules_to_json(state.rules, full=True)
    return isinstance(rules, dict) and rules.get("preset") == DEFAULT_PRESET


def takeable(state: TableState) -> tuple[int, ...]:
    """The seats a newcomer may take: before the match any seat no person holds; once it began a computer's
    that nobody claimed (between deals the newcomer sits at once, mid-deal they play it from the next deal)."""
    if state.paused or state.status not in (LOBBY, PLAYING, DEAL_OVER):
        return ()
    return tuple(i for i, s in enumerate(state.seats)
                 if s.player is None and (state.status == LOBBY or s.bot is not None) and i not in state.claims)


async def tables_in_reach(server: Server) -> list[tuple[float, TableState]]:
    """The tables of this process and the lobbies other processes hold, with when each last changed."""
    here = [(t.last_active, t.state) for t in list(server.hub.tables.values())]
    return here + await server.hub.lobbies_elsewhere(400)


async def openings(server: Server, family: str, reach: list[tuple[float, TableState]]) -> list[Opening]:
    """Every table of ``reach`` Play may seat a newcomer at now, with its people's display ratings (guests at the
    start)."""
    found = [(since, s) for since, s in reach if playable(s) and takeable(s)]
    people = {(p, family) for _, s in found for p in holding_places(s)}
    rated = await ratings_of(server.db.engine, people)
    out = []
    for since, s in found:
        ratings = tuple(_display(rated.get((p, family))) for p in holding_places(s))
        out.append(Opening(s.code, s.players.get(s.host or "", ""), takeable(s), ratings, since,
                           now=s.status != PLAYING))
    return out


def _display(found: Rating | None) -> int:
    return found["display"] if found else rating.START


async def sent(server: Server, table: LiveTable, player: str, message: ClientMessage) -> str | None:
    """``message`` handled as if ``player`` sent it on the table's socket (forwarded to the writer with many
    processes); the first refusal it got, or ``None``."""
    refusals = await send_as(server.handle, table, player, message)
    return refusals[0] if refusals else None


async def take(server: Server, code: str, player: str, name: str, seat: int) -> tuple[str, LiveTable] | None:
    """Join table ``code`` and sit in ``seat`` (mid-deal: claim it for the next deal); what happened and the
    table, or ``None`` when it refused (someone was quicker, or a deal began or ended meanwhile)."""
    table = await server.hub.get(code)
    if table is None or (player not in table.state.players
                         and await sent(server, table, player, Join(name=name)) is not None):
        return None
    claim = table.state.status == PLAYING
    if await sent(server, table, player, Claim(seat=seat) if claim else Sit(seat=seat)) is not None:
        return None
    return (NEXT_DEAL if claim else SEATED), table


def seated(state: TableState, player: str) -> bool:
    """Whether ``player`` holds a seat (or a claim) at a table reachable by Play that is still on."""
    return playable(state) and state.status in (LOBBY, PLAYING, DEAL_OVER) and holds_place(state, player)


async def seated_already(server: Server, player: str, reach: list[tuple[float, TableState]],
                         ) -> tuple[LiveTable, TableState] | None:
    """Where ``player`` holds a seat already (a second tap finds it, on any process), with the state that says so:
    a table of this process, else the one Play last seated them at, else a lobby another process holds."""
    for table in list(server.hub.tables.values()):
        if getattr(table, "writer", True) and seated(table.state, player):
            return table, table.state
    recalled = await server.hub.places.recall(player)
    codes = ([recalled] if recalled else []) + [s.code for _, s in reach if seated(s, player)]
    for code in dict.fromkeys(codes):
        found = await server.hub.get(code)
        if found is None:
            continue
        # a table another process writes: its log, not this process's copy, which may not have the seat yet
        state = found.state if getattr(found, "writer", True) else (await server.hub.load(code))[0]
        if seated(state, player):
            return found, state
    return None


async def open_new(server: Server, player: str, name: str, lang: str, address: str) -> LiveTable:
    """A public table of the default preset with the club level's computers in the other seats, dealt at once.

    :raises TableError, QuotaError: as creating a table does."""
    from ...bots.levels import club_bot  # the bots when a table with computers is first made: a quick start

    game = game_of_preset(DEFAULT_PRESET)
    table = await server.hub.create(player, name, {
        "preset": DEFAULT_PRESET, "public": True, "fill": club_bot(game.name),
        "name": tr(lang, "{name}'s table", name=name)[:TABLE_NAME]}, address)
    refused = await sent(server, table, player, Start())
    if refused is not None:
        raise TableError(refused)
    return table


async def play(server: Server, player: str, name: str, lang: str, address: str,
               ) -> tuple[str, LiveTable, TableState]:
    """Seat ``player``: what happened, the table and its state with the seat."""
    async with server.hub.places.hold(player), part(server, Desk, Desk).lock:
        outcome, table, state = await _seat(server, player, name, lang, address)
        await server.hub.places.remember(player, table.code)
        return outcome, table, state


async def _seat(server: Server, player: str, name: str, lang: str, address: str,
                ) -> tuple[str, LiveTable, TableState]:
    reach = await tables_in_reach(server)
    found = await seated_already(server, player, reach)
    if found is not None:
        return ALREADY, *found
    family = game_of_preset(DEFAULT_PRESET).name
    mine = (await ratings_of(server.db.engine, {(player, family)})).get((player, family))
    for opening in ranked(_display(mine), await openings(server, family, reach)):
        for seat in opening.seats:
            taken = await take(server, opening.code, player, name, seat)
            if taken is not None:
                return taken[0], taken[1], taken[1].state
    table = await open_new(server, player, name, lang, address)
    return NEW, table, table.state


def said(outcome: str, state: TableState, lang: str) -> str:
    """What happened, in the person's language."""
    host = state.players.get(state.host or "", "")
    if outcome == SEATED:
        return tr(lang, "Seated at {host}'s table", host=host)
    if outcome == NEXT_DEAL:
        return tr(lang, "Seated at {host}'s table: a deal is on, you play from the next one", host=host)
    if outcome == ALREADY:
        return tr(lang, "You have a seat at {host}'s table already", host=host)
    return tr(lang, "No table had a free seat near your rating: a new table with computers; people who arrive "
                    "take their seats at the next deal")


async def api_play(request: Request, body: Received) -> Response:
    server, lang = serving(request), language_of(request)
    player = server.signer().read(body.get("token") or request.cookies.get(COOKIE))
    try:
        name = clean_name(body["player_name"]) if body.get("player_name") else None
    except ValueError as e:
        return refusal(words_of(e), lang=lang)
    if player is None and name is None:
        return refusal(Meaning(N_("choose your name first")), lang=lang)
    token = None
    if name is not None and (player is None or player.name != name):
        player, token = server.signer().issue(name, *((player.id, player.session) if player is not None else ()))
    assert player is not None
    try:
        outcome, table, state = await play(server, player.id, player.name, lang, address_of(request))
    except TableError as e:
        return refusal(e.message, lang=lang)
    except QuotaError as e:
        return refusal(e.message, 429, lang=lang)
    response = JSONResponse({"outcome": outcome, "code": table.code, "url": table_link(table.code, state.secret),
                             "seat": seat_of(state, player.id), "host": state.players.get(state.host or "", ""),
                             "message": said(outcome, state, lang)})
    if token is not None:
        set_cookie(response, token, server.signer().max_age)
    return response


def seat_of(state: TableState, player: str) -> int | None:
    """The seat ``player`` holds, or the one they take from the next deal."""
    seat = state.seat_of(player)
    return seat if seat is not None else next((s for s, who in state.claims.items() if who == player), None)


def routes() -> list[BaseRoute]:
    return [Route("/api/play", with_body(api_play), methods=["POST"])]

"""Clubs and finding a game over HTTP, and their pages.

Routes::

    GET  /club                       the club page (``#c=ID`` a club, ``#i=SECRET`` an invite to join)
    GET  /api/clubs                  your clubs
    POST /api/clubs                  {"name"} -> {"id", "invite"}: a new club, you its owner
    GET  /api/clubs/{id}             a member's view: members (by name), open tables, recent matches
    GET  /api/clubs/{id}/leaderboard?family=56   members by rating (server/matches)
    POST /api/clubs/invited          {"invite"} -> {"name"}: the club an invite is to (no player needed: the
                                     invite page names the club before asking the invitee's name)
    POST /api/clubs/join             {"invite", "name"?} -> {"id"}: become a member
    POST /api/clubs/{id}/invite      owner: a new invite (the old one fails from now on)
    POST /api/clubs/{id}/revoke      owner: no invite works until a new one is made
    POST /api/clubs/{id}/remove      owner: {"player"} is no longer a member
    POST /api/clubs/{id}/owner       owner: hand the club to member {"player"}
    POST /api/clubs/{id}/settings    owner: {"watchers": bool} may people outside the club watch its tables
    POST /api/clubs/{id}/tables      a member: the create form -> a table only members sit at
    GET  /api/lobby                  public tables with a free seat (never private or club tables)

Clubs are never listed by id: an id that does not exist and a club you are not in get the same 404, counted
against the address like an unknown table code (:class:`~..access.Lookups`), so ids cannot be probed.  Every
route refuses a foreign ``Origin`` (reads too: a club's members are personal) and each address, and the whole
process, may ask only so often.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypedDict

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...core.meaning import N_, Meaning, words_of
from ..edge.lang import language_of
from ..edge.limits import QuotaError
from ..edge.names import check_name
from ..edge.safejson import JSONResponse
from ..edge.tokens import COOKIE, Player, clean_name
from ..pages.html import page_route
from ..pages.route_guard import RouteGuard
from ..serving import Server, address_of, json_body, part, refusal, table_link
from ..state.table import MATCH_OVER, TableError
from ..state.typed_json import Received
from ..table.live import LiveTable
from ..table.messages import level_of
from .lobby import open_tables
from .store import Club, ClubMatch, Clubs

PER_ADDRESS = (3.0, 60)     # club requests a second per address on average, and at once (a club page
                            # asks 5-8: the club, each family's leaderboard, its nights, your clubs)
WHOLE = (200.0, 400)        # ... and for the whole process
GUARD = RouteGuard("club", PER_ADDRESS, WHOLE,
                   Meaning(N_("too many club requests from your address; try again in a minute")))

CLUB_NAME = 40
SECRET_MAX = 64             # ids and invites are 22 characters; longer is not ours

NO_CLUB = N_("no club of yours has that id: ask its owner for an invite link")
NOT_OWNER = N_("only the club's owner may do that")
CHOOSE_NAME = N_("choose your name first: clubs are kept under your player on this device")


def may_be_id(value: str) -> bool:
    """Whether a path's id could be one of ours (to look up): 1 to :data:`SECRET_MAX` characters, no NUL (which
    PostgreSQL refuses in a query: the answer would be 500, not the 404 of an id that is not ours)."""
    return 0 < len(value) <= SECRET_MAX and "\x00" not in value


def clubs_of(server: Server) -> Clubs:
    """The server's clubs (made on first use, on the server's database)."""
    return part(server, Clubs, lambda: Clubs(server.db.engine))


class _Ask:
    """One request's common parts: the server, the language, the player, the JSON body."""

    def __init__(self, request: Request, server: Server, player: Player, body: Received) -> None:
        self.request, self.server, self.player, self.body = request, server, player, body
        self.lang = language_of(request)
        self.clubs = clubs_of(server)

    def no(self, message: str, status: int = 400) -> Response:
        return refusal(message, status, self.lang)

    async def club(self, owner: bool = False) -> Club | Response:
        """The path's club when the player is a member (``owner``: its owner); else the refusal (404 for a
        stranger, the same as no such club, and counted)."""
        club_id = self.request.path_params["club"]
        address = address_of(self.request)
        if await self.server.lookups.refused(address):
            return self.no(self.server.lookups.refusal(), 429)
        club = await self.clubs.get(club_id) if may_be_id(club_id) else None
        if club is None or not await self.clubs.is_member(club_id, self.player.id):
            await self.server.lookups.failed(address)
            return self.no(NO_CLUB, 404)
        if owner and club["owner"] != self.player.id:
            return self.no(NOT_OWNER, 403)
        return club


def endpoint(handler: Callable[[_Ask], Awaitable[Response]], reads: bool = False,
             ) -> Callable[[Request], Awaitable[Response]]:
    """A club endpoint: origin and limits checked, a player required, the JSON body read (not for reads)."""
    async def run(request: Request) -> Response:
        admitted = GUARD.admit(request)
        if isinstance(admitted, Response):
            return admitted
        server, lang = admitted
        body: Received = {}
        if not reads:
            read = await json_body(request)
            if isinstance(read, Response):
                return read
            body = read
        player = server.signer().read(body.get("token") or request.cookies.get(COOKIE))
        if player is None:
            return refusal(CHOOSE_NAME, 401, lang)
        result: Response = await handler(_Ask(request, server, player, body))
        return result
    return run


def club_endpoint(handler: Callable[[_Ask, Club], Awaitable[Response]], owner: bool = False, reads: bool = False,
                  ) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint of the path's club: as :func:`endpoint`, and the asker a member (``owner``: its owner)."""
    async def with_club(ask: _Ask) -> Response:
        club = await ask.club(owner)
        if isinstance(club, Response):
            return club
        return await handler(ask, club)
    return endpoint(with_club, reads)


async def _create(ask: _Ask) -> Response:
    try:
        name = check_name(ask.body.get("name"), "club name", CLUB_NAME)
    except ValueError as e:
        return ask.no(words_of(e))
    club_id, invite = await ask.clubs.create(ask.player.id, ask.player.name, name)
    return JSONResponse({"id": club_id, "name": name, "invite": invite, "url": f"/club#c={club_id}",
                         "invite_url": f"/club#i={invite}"})


async def _mine(ask: _Ask) -> Response:
    return JSONResponse({"clubs": await ask.clubs.mine(ask.player.id)})


BAD_INVITE = N_("this invite link does not work: it was mistyped or the owner made a new one; "
                "ask the owner for the current link")


async def api_invited(request: Request) -> Response:
    """The club's name for an invite, asked before the invitee has a player; a wrong invite is counted against
    the address like a wrong join."""
    admitted = GUARD.admit(request)
    if isinstance(admitted, Response):
        return admitted
    server, lang = admitted
    body = await json_body(request)
    if isinstance(body, Response):
        return body
    address = address_of(request)
    if await server.lookups.refused(address):
        return refusal(server.lookups.refusal(), 429, lang)
    invite = body.get("invite")
    name = await clubs_of(server).invited_to(invite) \
        if isinstance(invite, str) and 0 < len(invite) <= SECRET_MAX else None
    if name is None:
        await server.lookups.failed(address)
        return refusal(BAD_INVITE, 404, lang)
    return JSONResponse({"name": name})


async def _join(ask: _Ask) -> Response:
    invite = ask.body.get("invite")
    address = address_of(ask.request)
    if await ask.server.lookups.refused(address):
        return ask.no(ask.server.lookups.refusal(), 429)
    name = ask.player.name
    if ask.body.get("name") is not None:
        try:
            name = clean_name(ask.body.get("name"))
        except ValueError as e:
            return ask.no(words_of(e))
    club_id = None
    if isinstance(invite, str) and 0 < len(invite) <= SECRET_MAX:
        club_id = await ask.clubs.join(invite, ask.player.id, name)
    if club_id is None:
        await ask.server.lookups.failed(address)
        return ask.no(BAD_INVITE, 404)
    return JSONResponse({"id": club_id, "url": f"/club#c={club_id}"})


class MatchSide(TypedDict):
    people: list[str]           # the names they had at the table ("" for a former player)
    computers: list[str]        # each computer's level ("" for a program of none)
    bots: list[str]             # each computer's program (its name when it has no level)
    won: bool
    standing: object


class MatchLine(TypedDict):
    id: int
    game: str
    preset: str | None
    finished: int
    sides: list[MatchSide]
    url: str


def _mapping(value: object) -> Received:
    """An object of a match's stored summary (JSON read back), or an empty one where it holds none."""
    return value if isinstance(value, dict) else {}


def match_line(row: ClubMatch) -> MatchLine:
    """A recent match as the club page shows it: each side's people (by the name they had at the table, ``""``
    for a former player) and computers (their level and program), its place and standing, and a link to its first
    deal."""
    summary = _mapping(row["summary"])
    ranks, standings = summary.get("ranks"), summary.get("standings")
    ranks = ranks if isinstance(ranks, list) else []
    standings = standings if isinstance(standings, list) else []
    people, names, bots = (_mapping(summary.get(k)) for k in ("people", "names", "bots"))
    game = row["game"]
    sides = [MatchSide(people=[str(names.get(p, "")) for p, t in people.items() if t == team],
                       computers=[level_of(game, str(b)) or "" for b in _list(bots.get(str(team)))],
                       bots=[str(b) for b in _list(bots.get(str(team)))],
                       won=rank == 0, standing=standings[team] if team < len(standings) else None)
             for team, rank in enumerate(ranks)]
    return MatchLine(id=row["id"], game=game, preset=row["preset"], finished=row["finished"], sides=sides,
                     url=f"/review?table={row['table_code']}&deal={row['first_deal']}")


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


async def _view(ask: _Ask, club: Club) -> Response:
    codes = await ask.clubs.tables(club["id"])
    hub = ask.server.hub
    # this process's tables from memory, other processes' (with many) from their logs; finished ones are history
    here = [hub.tables[code].state for code in codes if code in hub.tables]
    tables = []
    for state in here + [state for _, state in await hub.open_elsewhere([c for c in codes if c not in hub.tables])]:
        # a table the reader may not read as it is now (a club night's, while it runs) is not listed: its link
        # would carry the secret to a board not finished everywhere (the event's page lists its tables)
        if state.created is not None and state.status != MATCH_OVER \
                and await ask.server.gate(state.code, ask.player.id) is None:
            tables.append({"code": state.code, "name": state.name, "status": state.status, "game": state.game.name,
                           "free": sum(1 for s in state.seats if s.empty),
                           "url": table_link(state.code, state.secret)})
    return JSONResponse({"id": club["id"], "name": club["name"], "owner": club["owner"],
                         "you": ask.player.id, "is_owner": club["owner"] == ask.player.id,
                         "watchers": club["watchers"], "members": await ask.clubs.members(club["id"]),
                         "tables": tables,
                         "matches": [match_line(m) for m in
                                     await ask.clubs.recent_matches(club["id"], withheld=ask.server.withheld)]})


async def _leaderboard(ask: _Ask, club: Club) -> Response:
    family = ask.request.query_params.get("family", "56")
    if family not in ("56", "55"):
        return ask.no(N_("family must be 56 or 55"))
    return JSONResponse({"family": family, "members": await ask.clubs.leaderboard(club["id"], family)})


async def _new_invite(ask: _Ask, club: Club) -> Response:
    invite = await ask.clubs.new_invite(club["id"])
    return JSONResponse({"invite": invite, "invite_url": f"/club#i={invite}"})


async def _revoke(ask: _Ask, club: Club) -> Response:
    await ask.clubs.revoke_invite(club["id"])
    return JSONResponse({"revoked": True})


async def _remove(ask: _Ask, club: Club) -> Response:
    who = ask.body.get("player")
    if who == ask.player.id:
        return ask.no(N_("the owner cannot remove themselves: hand the club to another member first"))
    if not isinstance(who, str) or not await ask.clubs.remove(club["id"], who):
        return ask.no(N_("player must be the id of a member of this club"))
    return JSONResponse({"removed": who})


async def _hand_over(ask: _Ask, club: Club) -> Response:
    who = ask.body.get("player")
    if not isinstance(who, str) or not await ask.clubs.hand_over(club["id"], who):
        return ask.no(N_("player must be the id of a member of this club"))
    return JSONResponse({"owner": who})


async def _settings(ask: _Ask, club: Club) -> Response:
    watchers = ask.body.get("watchers")
    if not isinstance(watchers, bool):
        return ask.no(N_("watchers must be true (people outside the club may watch its tables) or false"))
    await ask.clubs.set_watchers(club["id"], watchers)
    return JSONResponse({"watchers": watchers})


async def club_table(ask: _Ask, club_id: str, form: Received) -> LiveTable | Response:
    """A new table of the club, hosted by the asker (private: its link reaches members through the club page);
    else the refusal (the form, or a quota)."""
    try:
        table = await ask.server.hub.create(ask.player.id, ask.player.name, {**form, "public": False},
                                            address_of(ask.request))
    except TableError as e:
        return ask.no(e.message)
    except QuotaError as e:
        return ask.no(e.message, 429)
    await ask.clubs.add_table(table.code, club_id)
    return table


async def _table(ask: _Ask, club: Club) -> Response:
    table = await club_table(ask, club["id"], {k: v for k, v in ask.body.items() if k != "token"})
    if isinstance(table, Response):
        return table
    key = table.state.secret
    return JSONResponse({"code": table.code, "key": key, "url": table_link(table.code, key)})


async def api_lobby(request: Request) -> Response:
    admitted = GUARD.admit(request)
    if isinstance(admitted, Response):
        return admitted
    server = admitted[0]
    return JSONResponse({"tables": await open_tables(server, clubs_of(server))})


def routes() -> list[BaseRoute]:
    return [Route("/club", page_route("club")),
            Route("/api/lobby", api_lobby),
            Route("/api/clubs", endpoint(_mine, reads=True), methods=["GET"]),
            Route("/api/clubs", endpoint(_create), methods=["POST"]),
            Route("/api/clubs/invited", api_invited, methods=["POST"]),
            Route("/api/clubs/join", endpoint(_join), methods=["POST"]),
            Route("/api/clubs/{club}", club_endpoint(_view, reads=True)),
            Route("/api/clubs/{club}/leaderboard", club_endpoint(_leaderboard, reads=True)),
            Route("/api/clubs/{club}/invite", club_endpoint(_new_invite, owner=True), methods=["POST"]),
            Route("/api/clubs/{club}/revoke", club_endpoint(_revoke, owner=True), methods=["POST"]),
            Route("/api/clubs/{club}/remove", club_endpoint(_remove, owner=True), methods=["POST"]),
            Route("/api/clubs/{club}/owner", club_endpoint(_hand_over, owner=True), methods=["POST"]),
            Route("/api/clubs/{club}/settings", club_endpoint(_settings, owner=True), methods=["POST"]),
            Route("/api/clubs/{club}/tables", club_endpoint(_table), methods=["POST"])]

"""Club nights over HTTP (JSON): making an event, signing up, the standings and the board pages.

Routes::

    GET  /api/clubs/{club}/nights          a member: the club's events, whether they may make one (and, for the
                                           owner, the members allowed to)
    POST /api/clubs/{club}/nights          the owner or a member they allow: the event form -> {"id"}
    POST /api/clubs/{club}/nights/makers   the owner: {"player", "allow"} allow a member to make events, or no
                                           longer (the events they made stay theirs to run)
    GET  /api/nights/{night}               a member: the event, its teams, live (or final) standings
    POST /api/nights/{night}/teams         a member: {"name", "table", "direction", "partners"?} sign up a team
    GET  /api/nights/{night}/boards/{k}    a member: what each table did on board k, once it may be shown
    POST /api/nights/{night}/draw          who runs it: {"players": [ids]} drawn into teams in the open places
    POST /api/nights/{night}/start         who runs it: seat the teams, deal -> {"tables": [{"table", "code", "url"}]}
    POST /api/nights/{night}/pause         who runs it: pause every table (and resume: .../resume)
    POST /api/nights/{night}/replace       who runs it: {"player"} the computer in that member's seat
    POST /api/nights/{night}/close         who runs it: close (unfinished boards are dropped; rated once)

An event is run by the member who made it and by the club's owner ("who runs it"); both must be members.

Every route goes through the club's checks (a foreign Origin refused, per-address and process limits, a stranger
answered as for no such club) and the no-early-view rule (:mod:`.visibility`): a board not finished at every
table is on no page and in no standings until the event is closed.
"""

from __future__ import annotations

import secrets
import time
from fractions import Fraction
from typing import TypedDict

from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...core.meaning import N_, Meaning, words_of
from ..clubs.routes import _Ask, endpoint, may_be_id
from ..clubs.store import Club
from ..edge.limits import QuotaError
from ..edge.names import check_name
from ..edge.safejson import JSONResponse
from ..serving import Server, address_of, part, table_link
from ..state.errors import TableError
from ..table.client_messages import ClientMessage, Pause, Replace, Resume
from ..table.protocol import send_as
from .boards import directions
from .draw import draw, open_places
from .form import FormError, check_form
from .running import (
    NOT_SEATED,
    PAUSED,
    RUNNING,
    MadeTable,
    at_every_table,
    close_event,
    close_if_played,
    event_bot,
    event_standings,
    seat_of,
    start_event,
)
from .scoring import Seat, board_comparisons, places
from .store import BoardSummary, Night, Nights, TeamRow
from .visibility import CLOSED, LIVE, board_shown, may_read

TEAM_NAME = 40
NO_NIGHT = N_("no event of your clubs has that id: ask the club's owner for its link")
NOT_MAKER = N_("only the club's owner, or a member the owner allows, may make a club night")
NOT_RUNNER = N_("only the member who made this event, or the club's owner, may do that")
NOT_SHOWN = N_("this board is not finished at every table yet: its deals and results are shown when every "
               "table has finished it, or the event is closed")


class Drawn(TypedDict):
    """A team the draw made: its name, place and players."""

    team: str
    table: int
    direction: int
    players: list[str]


def nights_of(server: Server) -> Nights:
    """The server's club nights (made on first use, on the server's database)."""
    return part(server, Nights, lambda: Nights(server.db.engine))


async def _night(ask: _Ask, running: bool = False) -> tuple[Night, Club] | Response:
    """The path's event and its club when the player is a member of the club (``running``: one who runs the
    event, :func:`runs`)."""
    night_id = ask.request.path_params["night"]
    address = address_of(ask.request)
    if await ask.server.lookups.refused(address):
        return ask.no(ask.server.lookups.refusal(), 429)
    night = await nights_of(ask.server).get(night_id) if may_be_id(night_id) else None
    club = await ask.clubs.get(night["club_id"]) if night is not None else None
    if night is None or club is None or not await ask.clubs.is_member(club["id"], ask.player.id):
        await ask.server.lookups.failed(address)
        return ask.no(NO_NIGHT, 404)
    if running and not runs(night, club, ask.player.id):
        return ask.no(NOT_RUNNER, 403)
    return night, club


def runs(night: Night, club: Club, player: str) -> bool:
    """Does ``player`` run ``night``: the member who made it, or the club's owner?"""
    return player in (night["owner"], club["owner"])


async def _may_make(ask: _Ask, club: Club) -> bool:
    return club["owner"] == ask.player.id or ask.player.id in await nights_of(ask.server).makers(club["id"])


async def _list(ask: _Ask) -> Response:
    club = await ask.club()
    if isinstance(club, Response):
        return club
    store = nights_of(ask.server)
    makers = await store.makers(club["id"]) if club["owner"] == ask.player.id else []
    return JSONResponse({"nights": await store.of_club(club["id"]), "may_make": await _may_make(ask, club),
                         "makers": makers})


async def _makers(ask: _Ask) -> Response:
    """The owner allows a member to make events ({"player": id, "allow": true}), or no longer ("allow": false);
    the members allowed now."""
    club = await ask.club(owner=True)
    if isinstance(club, Response):
        return club
    player, allow = ask.body.get("player"), ask.body.get("allow")
    if not isinstance(allow, bool):
        return ask.no(N_("allow must be true (the member may make club nights) or false"))
    if not isinstance(player, str) or player == club["owner"] or not await ask.clubs.is_member(club["id"], player):
        return ask.no(N_("player must be the id of a member of the club other than its owner"))
    store = nights_of(ask.server)
    await store.allow_maker(club["id"], player, allow)
    return JSONResponse({"makers": await store.makers(club["id"])})


async def _create(ask: _Ask) -> Response:
    club = await ask.club()
    if isinstance(club, Response):
        return club
    if not await _may_make(ask, club):
        return ask.no(NOT_MAKER, 403)
    try:
        form = check_form(ask.body, int(time.time()))
    except FormError as e:
        return ask.no(e.args[0])
    night_id = await nights_of(ask.server).create(club["id"], ask.player.id, form)
    return JSONResponse({"id": night_id, "url": f"/club#n={night_id}"})


class BoardRow(TypedDict):
    """A board's contract and result at one table, with where to read it (see :func:`_summary`)."""

    contract: object
    made: object
    deal: int
    record: str
    review: str
    analysis: str


class EventTableLink(TypedDict):
    table: int
    url: str | None         # only to a table the reader may read now
    yours: bool
    boards_finished: int


def _summary(summary: BoardSummary, key: str | None) -> BoardRow:
    """A board row's contract and result, with links to the table's record of that deal, its review and its
    double-dummy marks (the review page).  ``key``: the table's link secret, which the club page gives every
    member already; the table's own rule still refuses a person seated at another table until the event closes."""
    code, deal = summary["code"], summary["deal"]
    query, fragment = (f"?k={key}", f"#k={key}") if key else ("", "")
    return BoardRow(contract=summary["contract"], made=summary["made"], deal=deal,
                    record=f"/api/tables/{code}/deals/{deal}.json{query}",
                    review=f"/review?table={code}&deal={deal}{fragment}",
                    analysis=f"/api/tables/{code}/deals/{deal}/review{query}")


def _score(value: Fraction | float) -> float:
    return round(float(value), 2)


async def _view(ask: _Ask) -> Response:
    found = await _night(ask)
    if isinstance(found, Response):
        return found
    night, club = found
    store = nights_of(ask.server)
    night = await _due(ask, night, club)
    teams = await store.teams(night["id"])
    table, shown = await event_standings(store, night)
    owner = runs(night, club, ask.player.id)
    signed = {p for t in teams for p in t["players"]}
    free = [m for m in await ask.clubs.members(club["id"]) if m["id"] not in signed] \
        if owner and night["status"] == "open" else []      # the owner's draw: who has no team yet
    return JSONResponse({**night, "teams": teams, "without_team": free, "boards_shown": shown, "is_owner": owner,
                         "final": night["status"] == CLOSED, "tables_made": await _links(ask, night, teams),
                         "sides": len(set(directions(night["preset"]))),
                         "standings": [{"team": s.team, "score": _score(s.score), "boards": s.boards, "rank": p + 1}
                                       for s, p in zip(table, places(table), strict=True)]})


async def _links(ask: _Ask, night: Night, teams: list[TeamRow]) -> list[EventTableLink]:
    """The event's tables, each with the boards it has finished (so whoever runs it sees a table that stalls);
    a link only to a table the reader may read as it is now (:func:`.visibility.may_read`: their own, or any
    once the event is closed)."""
    progress = await nights_of(ask.server).progress(night["id"])
    mine = next((t["table"] for t in teams if ask.player.id in t["players"]), None)
    out: list[EventTableLink] = []
    for row in await nights_of(ask.server).tables_of(night["id"]):
        open_ = progress is not None and may_read(progress, ask.player.id, row["table"], LIVE)
        done = 0 if progress is None else sum(1 for t, _b in progress.finished if t == row["table"])
        out.append(EventTableLink(table=row["table"], url=table_link(row["code"], None) if open_ else None,
                                  yours=mine == row["table"], boards_finished=done))
    return out


async def _due(ask: _Ask, night: Night, club: Club) -> Night:
    """Start an open event whose start time has come, close a running one whose every table played every
    board (a look at the event is enough: every process may do it, once); the event as it is now."""
    store = nights_of(ask.server)
    if night["status"] == "open" and night["starts"] is not None and night["starts"] <= time.time():
        await _start_now(ask, night, club)
    elif night["status"] in (RUNNING, PAUSED):
        for row in await store.tables_of(night["id"]):     # after a restart: its tables deal on (not only the
            await ask.server.hub.get(row["code"])           # ones that were mid-deal, which come back by themselves)
        await close_if_played(store, night)
    return await store.get(night["id"]) or night


async def _start_now(ask: _Ask, night: Night, club: Club) -> list[MadeTable] | Response:
    """Start the event (once, whoever asks first): its tables made, the teams seated, board 1 dealt."""
    store = nights_of(ask.server)
    if not await store.set_status(night["id"], RUNNING, was=("open",)) and night["status"] == "open":
        return ask.no(N_("the event has started already"))
    members = {m["id"]: m["name"] for m in await ask.clubs.members(club["id"])}
    try:
        return await start_event(ask.server, store, night, members.get(night["owner"], "?"), members)
    except TableError as e:
        return ask.no(e.message)
    except QuotaError as e:
        return ask.no(e.message, 429)


async def _sign_up(ask: _Ask) -> Response:
    found = await _night(ask)
    if isinstance(found, Response):
        return found
    night, club = found
    if night["status"] != "open":
        return ask.no(N_("sign-up is over: the event has started"))
    name, table, direction = ask.body.get("name"), ask.body.get("table"), ask.body.get("direction")
    partners = _ids(ask.body.get("partners") or [])
    try:
        name = check_name(name, "team name", TEAM_NAME)
    except ValueError as e:
        return ask.no(words_of(e))
    seats = directions(night["preset"])
    if not isinstance(table, int) or not 1 <= table <= night["tables"] or not isinstance(direction, int) \
            or not 0 <= direction <= max(seats):
        return ask.no(Meaning(N_("table must be 1 to {tables} and direction 0 to {last}"),
                              {"tables": night["tables"], "last": max(seats)}))
    most = seats.count(direction)
    if partners is None or len(partners) >= most:
        return ask.no(Meaning(N_("partners must be a list of up to {most} member ids"), {"most": most - 1}))
    for partner in partners:
        if not await ask.clubs.is_member(club["id"], partner):
            return ask.no(Meaning(N_("partners must be a list of up to {most} member ids"), {"most": most - 1}))
    players = [ask.player.id, *[p for p in partners if p != ask.player.id]]
    store = nights_of(ask.server)
    if not await store.sign_up(night["id"], name, players, Seat(table, direction)):
        return ask.no(N_("that team name or place is taken, or one of you is in a team already"), 409)
    if night["starts"] is None and len(await store.teams(night["id"])) == night["tables"] * (max(seats) + 1):
        await _start_now(ask, night, club)      # start when full: every place at every table has its team
    return JSONResponse({"team": name, "table": table, "direction": direction})


def _ids(value: object) -> list[str] | None:
    """A body's list of member ids, or ``None`` when it is no list of text."""
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        return None
    return [str(p) for p in value]


async def _draw(ask: _Ask) -> Response:
    """Who runs the event draws members who came without a team into the open places ({"players": [ids]}):
    teams of a side's size, named after their players."""
    found = await _night(ask, running=True)
    if isinstance(found, Response):
        return found
    night, club = found
    if night["status"] != "open":
        return ask.no(N_("sign-up is over: the event has started"))
    store = nights_of(ask.server)
    names = {m["id"]: m["name"] for m in await ask.clubs.members(club["id"])}
    teams = await store.teams(night["id"])
    signed = {p for t in teams for p in t["players"]}
    players = _ids(ask.body.get("players"))
    if players is None or not 0 < len(players) <= 128 or not all(p in names and p not in signed for p in players):
        return ask.no(N_("players must be a list of members who have no team yet"))
    seats = directions(night["preset"])
    places = open_places(night["tables"], max(seats) + 1, {Seat(t["table"], t["direction"]) for t in teams})
    drawn: list[Drawn] = []
    for place, members in draw(players, places, seats.count(0), secrets.SystemRandom()):
        name = check_name(" & ".join(names[p] for p in members)[:TEAM_NAME], "team name", TEAM_NAME)
        if not await store.sign_up(night["id"], name, members, place):     # a name taken: the place's number
            name = f"{name[:32]} ({place.table}-{place.direction + 1})"
            if not await store.sign_up(night["id"], name, members, place):
                continue
        drawn.append({"team": name, "table": place.table, "direction": place.direction, "players": members})
    placed = {p for d in drawn for p in d["players"]}
    return JSONResponse({"teams": drawn, "undrawn": [p for p in players if p not in placed]})


async def _board(ask: _Ask) -> Response:
    found = await _night(ask)
    if isinstance(found, Response):
        return found
    night, _club = found
    raw = ask.request.path_params["board"]
    board = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 4 else 0    # not "²" or "٣": int() refuses
    if not 1 <= board <= night["boards"]:
        return ask.no(Meaning(N_("board must be 1 to {boards}"), {"boards": night["boards"]}), 404)
    store = nights_of(ask.server)
    progress = await store.progress(night["id"])
    assert progress is not None
    if not board_shown(progress, board):
        return ask.no(NOT_SHOWN, 403)
    done = {t: v for (t, b), v in (await store.finished(night["id"])).items() if b == board}
    comparisons = board_comparisons({(t, board): v["results"] for t, v in done.items()}, board)
    keys = {}
    for t in done:
        live = await ask.server.hub.get(done[t]["summary"]["code"])
        keys[t] = live.state.secret if live is not None else None
    names = {(r["table"], r["direction"]): r["name"] for r in await store.teams(night["id"])}
    rows = [{"table": t, **_summary(done[t]["summary"], keys[t]), "results": done[t]["results"],
             "comparison": [_score(c) for c in comparisons[t]],
             "teams": [names.get((t, d)) for d in range(len(done[t]["results"]))]} for t in sorted(done)]
    return JSONResponse({"board": board, "tables": rows,
                         "counted": progress.finished_everywhere(board)})


async def _start(ask: _Ask) -> Response:
    """Who runs the event starts it now (or again, after a start cut short): the tables are made (club tables,
    private, computers of the event's level in the seats no team took), each team seated in its direction's
    seats and board 1 dealt (:mod:`.running`); sign-up ends."""
    found = await _night(ask, running=True)
    if isinstance(found, Response):
        return found
    night, club = found
    if night["status"] == CLOSED or (night["status"] != "open" and len(
            await nights_of(ask.server).tables_of(night["id"])) >= night["tables"]):
        return ask.no(N_("the event has started already"))
    made = await _start_now(ask, night, club)
    if isinstance(made, Response):
        return made
    return JSONResponse({"status": RUNNING, "tables": made})


async def _control(ask: _Ask, message: ClientMessage, status: str | None) -> Response:
    found = await _night(ask, running=True)
    if isinstance(found, Response):
        return found
    night, _club = found
    if night["status"] not in (RUNNING, PAUSED):
        return ask.no(N_("the event is not running"))
    store = nights_of(ask.server)
    refusals = await at_every_table(ask.server, store, night, message)
    if status is not None:
        await store.set_status(night["id"], status)
    return JSONResponse({"status": status or night["status"], "refused": refusals})


async def _pause(ask: _Ask) -> Response:
    """Who runs the event pauses every table of it (no moves, no computer moves, clocks stop)."""
    return await _control(ask, Pause(), PAUSED)


async def _resume(ask: _Ask) -> Response:
    return await _control(ask, Resume(), RUNNING)


async def _replace(ask: _Ask) -> Response:
    """Who runs the event puts its computer in a member's seat ({"player": id}): at once if they are away, at
    the next deal if they are at the table (the table's rule); they may come back as the table allows."""
    found = await _night(ask, running=True)
    if isinstance(found, Response):
        return found
    night, _club = found
    player = ask.body.get("player")
    where = await seat_of(ask.server, nights_of(ask.server), night, player) if isinstance(player, str) else None
    if where is None:
        return ask.no(NOT_SEATED, 404)
    refusals = await send_as(ask.server.handle, where[0], night["owner"],
                             Replace(seat=where[1], bot=event_bot(night)))
    if refusals:
        return ask.no(refusals[0])
    return JSONResponse({"replaced": player, "seat": where[1]})


async def _close(ask: _Ask) -> Response:
    found = await _night(ask, running=True)
    if isinstance(found, Response):
        return found
    night, _club = found
    await close_event(nights_of(ask.server), night)
    return JSONResponse({"status": CLOSED})


def routes() -> list[BaseRoute]:
    return [Route("/api/clubs/{club}/nights", endpoint(_list, reads=True), methods=["GET"]),
            Route("/api/clubs/{club}/nights", endpoint(_create), methods=["POST"]),
            Route("/api/clubs/{club}/nights/makers", endpoint(_makers), methods=["POST"]),
            Route("/api/nights/{night}", endpoint(_view, reads=True)),
            Route("/api/nights/{night}/teams", endpoint(_sign_up), methods=["POST"]),
            Route("/api/nights/{night}/boards/{board}", endpoint(_board, reads=True)),
            Route("/api/nights/{night}/draw", endpoint(_draw), methods=["POST"]),
            Route("/api/nights/{night}/start", endpoint(_start), methods=["POST"]),
            Route("/api/nights/{night}/pause", endpoint(_pause), methods=["POST"]),
            Route("/api/nights/{night}/resume", endpoint(_resume), methods=["POST"]),
            Route("/api/nights/{night}/replace", endpoint(_replace), methods=["POST"]),
            Route("/api/nights/{night}/close", endpoint(_close), methods=["POST"])]


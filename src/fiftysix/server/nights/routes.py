"""Club nights over HTTP (JSON): making an event, signing up, the standings and the board pages.

Routes::

    GET  /api/clubs/{club}/nights          a member: the club's events
    POST /api/clubs/{club}/nights          the owner: the event form -> {"id"}
    GET  /api/nights/{night}               a member: the event, its teams, live (or final) standings
    POST /api/nights/{night}/teams         a member: {"name", "table", "direction", "partners"?} sign up a team
    GET  /api/nights/{night}/boards/{k}    a member: what each table did on board k, once it may be shown
    POST /api/nights/{night}/start         the owner: make the tables now -> {"tables": [{"table", "code", "url"}]}
    POST /api/nights/{night}/close         the owner: close (unfinished boards are dropped for everyone)

Every route goes through the club's checks (a foreign Origin refused, per-address and process limits, a stranger
answered as for no such club) and the no-early-view rule (:mod:`.visibility`): a board not finished at every
table is on no page and in no standings until the event is closed.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...bots.levels import levels_for
from ...core.meaning import N_, Meaning
from ..clubs.routes import NOT_OWNER, SECRET_MAX, _Ask, club_table, endpoint
from ..safejson import JSONResponse
from ..serving import Server, address_of, part, table_link
from .form import FormError, check_form
from .scoring import Seat, board_comparisons, standings
from .store import Nights
from .visibility import CLOSED, board_shown, shown_boards

NO_NIGHT = N_("no event of your clubs has that id: ask the club's owner for its link")
NOT_SHOWN = N_("this board is not finished at every table yet: its deals and results are shown when every "
               "table has finished it, or the event is closed")


def nights_of(server: Server) -> Nights:
    """The server's club nights (made on first use, on the server's database)."""
    return part(server, Nights, lambda: Nights(server.db.engine))


async def _night(ask: _Ask, owner: bool = False) -> tuple[dict[str, Any], dict[str, Any]] | Response:
    """The path's event and its club when the player is a member of the club (``owner``: its owner)."""
    night_id = ask.request.path_params["night"]
    address = address_of(ask.request)
    if await ask.server.lookups.refused(address):
        return ask.no(ask.server.lookups.refusal(), 429)
    night = await nights_of(ask.server).get(night_id) if len(night_id) <= SECRET_MAX else None
    club = await ask.clubs.get(night["club_id"]) if night is not None else None
    if night is None or club is None or not await ask.clubs.is_member(club["id"], ask.player.id):
        await ask.server.lookups.failed(address)
        return ask.no(NO_NIGHT, 404)
    if owner and club["owner"] != ask.player.id:
        return ask.no(NOT_OWNER, 403)
    return night, club


async def _list(ask: _Ask) -> Response:
    club = await ask.club()
    if isinstance(club, Response):
        return club
    return JSONResponse({"nights": await nights_of(ask.server).of_club(club["id"])})


async def _create(ask: _Ask) -> Response:
    club = await ask.club(owner=True)
    if isinstance(club, Response):
        return club
    try:
        form = check_form(ask.body, int(time.time()))
    except FormError as e:
        return ask.no(e.args[0])
    night_id = await nights_of(ask.server).create(club["id"], ask.player.id, form)
    return JSONResponse({"id": night_id, "url": f"/club#n={night_id}"})


def _score(value: Any) -> float:
    return round(float(value), 2)


async def _view(ask: _Ask) -> Response:
    found = await _night(ask)
    if isinstance(found, Response):
        return found
    night, club = found
    store = nights_of(ask.server)
    teams = await store.teams(night["id"])
    progress = await store.progress(night["id"])
    assert progress is not None
    shown = shown_boards(progress)
    done = await store.finished(night["id"])
    # only the shown boards' results reach the scoring: the standings cannot carry an unfinished board
    results = {k: v["results"] for k, v in done.items() if k[1] in shown}
    seats = {t["name"]: Seat(t["table"], t["direction"]) for t in teams}
    table = standings(results, night["tables"], night["boards"], seats)
    return JSONResponse({**night, "teams": teams, "boards_shown": shown, "is_owner": club["owner"] == ask.player.id,
                         "final": night["status"] == CLOSED,
                         "standings": [{"team": s.team, "score": _score(s.score), "boards": s.boards}
                                       for s in table]})


async def _sign_up(ask: _Ask) -> Response:
    found = await _night(ask)
    if isinstance(found, Response):
        return found
    night, club = found
    if night["status"] != "open":
        return ask.no(N_("sign-up is over: the event has started"))
    name, table, direction = ask.body.get("name"), ask.body.get("table"), ask.body.get("direction")
    partners = ask.body.get("partners") or []
    if not isinstance(name, str) or not 0 < len(name) <= 40:
        return ask.no(N_("a team needs a name of 1 to 40 characters"))
    if not isinstance(table, int) or not 1 <= table <= night["tables"] or not isinstance(direction, int) \
            or not 0 <= direction <= 7:
        return ask.no(Meaning(N_("table must be 1 to {tables} and direction 0 to 7"), {"tables": night["tables"]}))
    if not isinstance(partners, list) or len(partners) > 3 or not all(isinstance(p, str) for p in partners):
        return ask.no(N_("partners must be a list of up to 3 member ids"))
    for partner in partners:
        if not await ask.clubs.is_member(club["id"], partner):
            return ask.no(N_("partners must be a list of up to 3 member ids"))
    players = [ask.player.id, *[p for p in partners if p != ask.player.id]]
    if not await nights_of(ask.server).sign_up(night["id"], name, players, Seat(table, direction)):
        return ask.no(N_("that team name or place is taken, or one of you is in a team already"), 409)
    return JSONResponse({"team": name, "table": table, "direction": direction})


async def _board(ask: _Ask) -> Response:
    found = await _night(ask)
    if isinstance(found, Response):
        return found
    night, _club = found
    raw = ask.request.path_params["board"]
    board = int(raw) if raw.isdigit() and len(raw) < 4 else 0
    if not 1 <= board <= night["boards"]:
        return ask.no(Meaning(N_("board must be 1 to {boards}"), {"boards": night["boards"]}), 404)
    store = nights_of(ask.server)
    progress = await store.progress(night["id"])
    assert progress is not None
    if not board_shown(progress, board):
        return ask.no(NOT_SHOWN, 403)
    done = {t: v for (t, b), v in (await store.finished(night["id"])).items() if b == board}
    comparisons = board_comparisons({(t, board): v["results"] for t, v in done.items()}, board)
    rows = [{"table": t, **done[t]["summary"], "results": done[t]["results"],
             "comparison": [_score(c) for c in comparisons[t]]} for t in sorted(done)]
    return JSONResponse({"board": board, "tables": rows,
                         "counted": progress.finished_everywhere(board)})


async def _start(ask: _Ask) -> Response:
    """The owner starts the event now: its tables are made (club tables, private, computers of the event's level
    in the empty seats), each dealing board k as its k-th deal (:mod:`.guard`), and sign-up ends."""
    found = await _night(ask, owner=True)
    if isinstance(found, Response):
        return found
    night, club = found
    if night["status"] != "open":
        return ask.no(N_("the event has started already"))
    store = nights_of(ask.server)
    bot = levels_for(night["game"]).get(night["level"], "random")
    made = await store.tables_of(night["id"])     # a start refused half-way (a quota) goes on where it stopped
    for earlier in made:
        live = await ask.server.hub.get(earlier["code"])
        earlier["key"] = live.state.secret if live is not None else None
    for number in range(len(made) + 1, night["tables"] + 1):
        table = await club_table(ask, club["id"], {"preset": night["preset"], "fill": bot,
                                                   "name": f"{night['name']} {number}"})
        if isinstance(table, Response):
            return table
        await store.add_table(night["id"], number, table.code)
        made.append({"table": number, "code": table.code, "key": table.state.secret})
    await store.set_status(night["id"], "running")
    return JSONResponse({"status": "running", "tables": [
        {"table": t["table"], "code": t["code"], "url": table_link(t["code"], t["key"])}
        for t in made]})


async def _close(ask: _Ask) -> Response:
    found = await _night(ask, owner=True)
    if isinstance(found, Response):
        return found
    night, _club = found
    await nights_of(ask.server).set_status(night["id"], CLOSED)
    return JSONResponse({"status": CLOSED})


def routes() -> list[BaseRoute]:
    return [Route("/api/clubs/{club}/nights", endpoint(_list, reads=True), methods=["GET"]),
            Route("/api/clubs/{club}/nights", endpoint(_create), methods=["POST"]),
            Route("/api/nights/{night}", endpoint(_view, reads=True)),
            Route("/api/nights/{night}/teams", endpoint(_sign_up), methods=["POST"]),
            Route("/api/nights/{night}/boards/{board}", endpoint(_board, reads=True)),
            Route("/api/nights/{night}/start", endpoint(_start), methods=["POST"]),
            Route("/api/nights/{night}/close", endpoint(_close), methods=["POST"])]


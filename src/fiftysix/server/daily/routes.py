"""Today's deals over HTTP (JSON) and the page.

Routes::

    GET  /daily                               the page (linked from the start page)
    GET  /api/daily                           today's sets, the reader's progress and running standing in each
    POST /api/daily/start                     {"preset"}: the reader's table for the set (made once, a second start
                                              resumes it) -> {"code", "url", "resumed"}; or, when the process plays
                                              as many sets as it holds, {"queued": place, "wait": seconds|null} (202)
    GET  /api/daily/{preset}/boards/{k}       what the field bid and made on board k (once the reader finished it)
    GET  /api/daily/{preset}/ranking          the ranking over the boards the reader finished (all: the day's)

Every answer that holds another player's board goes through :func:`.rule.may_read`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from typing import TypedDict

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...core.meaning import N_, Meaning
from ..clubs.routes import _Ask, endpoint
from ..edge.limits import QuotaError
from ..edge.safejson import JSONResponse
from ..pages import html
from ..serving import table_link
from ..state import events as ev
from ..state.errors import TableError
from ..state.table import LOBBY
from ..state.typed_json import Received
from .guard import EVENT
from .part import Daily, daily_of
from .rule import may_read, readable_boards
from .scoring import board_comparisons, ranking
from .seeds import day_end
from .store import Claim, Played

NO_SET = N_("there is no such set today: choose one of the sets on the daily page")
NOT_YET_BOARD = N_("finish this board yourself first: the field's results of a board are shown to those who "
                   "have played it")


def _score(value: Fraction) -> float:
    return round(float(value), 2)


async def _today(ask: _Ask) -> Response:
    daily = daily_of(ask.server)
    await daily.close_past()
    day = daily.today()
    out = []
    for s in daily.sets:
        judged, played = await daily.day(day, s.preset)
        mine = await daily.store.get(day, s.preset, ask.player.id)
        counted = readable_boards(judged, ask.player.id)
        table = ranking({k: v["results"] for k, v in played.items()}, counted)
        place = next((i + 1 for i, p in enumerate(table) if p.player == ask.player.id), None)
        finished = sorted(judged.finished.get(ask.player.id, frozenset()))
        out.append({"preset": s.preset, "boards": s.boards, "finished": finished,
                    "started": mine is not None and mine["code"] is not None,
                    "standing": None if place is None else {
                        "place": place, "of": len(table), "score": _score(table[place - 1].score)},
                    "players": len({p for p, _ in played})})
    return JSONResponse({"day": day, "ends": day_end(day), "level": daily.level, "sets": out})


async def _start(ask: _Ask) -> Response:
    daily = daily_of(ask.server)
    preset = ask.body.get("preset")
    found = daily.set_of(preset) if isinstance(preset, str) else None
    if found is None:
        return ask.no(NO_SET, 404)
    await daily.close_past()       # the next day's first start rates the day before, if no read did
    day = daily.today()
    mine = await daily.store.get(day, found.preset, ask.player.id)
    if mine is None or mine["code"] is None or mine["code"] not in ask.server.hub.tables:
        waiting = await daily.ask(ask.player.id)
        if waiting is not None:
            return JSONResponse({"queued": waiting.place, "wait": waiting.wait}, status_code=202)
    claim, make = await daily.store.claim(day, found.preset, ask.player.id, found.boards, daily.level)
    if claim["code"] is None and not make:      # another start of this player is making it right now
        return JSONResponse({"queued": 1, "wait": 1.0}, status_code=202)
    try:
        code = claim["code"] or await _make(daily, ask, claim)
    except (TableError, QuotaError) as e:
        await daily.release(ask.player.id)
        return ask.no(str(e), 503)
    daily.codes[ask.player.id] = code
    table = await ask.server.hub.get(code)
    key = table.state.secret if table is not None else None
    return JSONResponse({"code": code, "url": table_link(code, key), "resumed": claim["code"] is not None})


async def _make(daily: Daily, ask: _Ask, claim: Claim) -> str:
    """The set's table: the player in seat 0, the level's computers in the others, board 1 dealt."""
    from ..nights.running import event_bot

    game = "55" if claim["preset"].startswith("55") else "56"
    bot = event_bot({"game": game, "level": claim["level"]})  # type: ignore[typeddict-item]
    table = await ask.server.hub.create(ask.player.id, ask.player.name, {
        "preset": claim["preset"], "fill": bot, "name": f"Today's deals {claim['preset']}", "public": False,
        "boards": claim["boards"]}, event=f"{EVENT}{claim['day']}:{claim['preset']}")
    if not await daily.store.set_code(claim, table.code):
        raise TableError("this set's table was made by another start: ask again")
    async with table.lock:
        if table.state.status == LOBBY:
            seed, _fixed = await table.next_seed()
            await table.commit(ev.Start(player=ask.player.id, seed=seed, dealer=0))
    table.expect_seated()
    return table.code


async def _preset_and_day(ask: _Ask) -> tuple[Daily, str, str] | Response:
    daily = daily_of(ask.server)
    preset = ask.request.path_params["preset"]
    if daily.set_of(preset) is None:
        return ask.no(NO_SET, 404)
    await daily.close_past()
    return daily, preset, daily.today()


async def _board(ask: _Ask) -> Response:
    found = await _preset_and_day(ask)
    if isinstance(found, Response):
        return found
    daily, preset, day = found
    raw = ask.request.path_params["board"]
    board = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 4 else 0
    judged, played = await daily.day(day, preset)
    if not 1 <= board <= judged.boards:
        return ask.no(Meaning(N_("board must be 1 to {boards}"), {"boards": judged.boards}), 404)
    if not may_read(judged, ask.player.id, None, board):
        return ask.no(NOT_YET_BOARD, 403)
    here = {p: v for (p, b), v in played.items() if b == board}
    compared = board_comparisons({(p, board): v["results"] for p, v in here.items()}, board)
    mine = here.get(ask.player.id)
    return JSONResponse({"board": board, "players": len(here), "field": _field(here.values()),
                         "mine": None if mine is None else {
                             "result": mine["results"][0], "comparison": _score(compared[ask.player.id]),
                             "review": f"/review?table={mine['code']}&deal={board}"}})


class FieldLine(TypedDict):
    """One line of what the field did on a board."""

    contract: Received | None       # as the deal stored it
    made: object
    result: int
    count: int


def _field(rows: Iterable[Played]) -> list[FieldLine]:
    """What the field bid and made on a board, most often first: each contract (as the deal stored it: value,
    trump, the team that took it, doubling), whether it was made, the seat 0 side's gain and how many tables."""
    counts: Counter[tuple[str, object, int]] = Counter()
    for r in rows:
        counts[(json.dumps(r["contract"], sort_keys=True), r["made"], r["results"][0])] += 1
    return [FieldLine(contract=json.loads(c), made=m, result=res, count=n) for (c, m, res), n in counts.most_common()]


async def _ranking(ask: _Ask) -> Response:
    found = await _preset_and_day(ask)
    if isinstance(found, Response):
        return found
    daily, preset, day = found
    judged, played = await daily.day(day, preset)
    counted = readable_boards(judged, ask.player.id)
    table = ranking({k: v["results"] for k, v in played.items()}, counted)
    return JSONResponse({"boards": counted, "ranking": [
        {"place": i + 1, "me": p.player == ask.player.id, "score": _score(p.score), "boards": p.boards}
        for i, p in enumerate(table)]})


async def _page(request: Request) -> Response:
    return html.answer(request, "daily")


def routes() -> list[BaseRoute]:
    return [
        Route("/daily", _page),
        Route("/api/daily", endpoint(_today, reads=True)),
        Route("/api/daily/start", endpoint(_start), methods=["POST"]),
        Route("/api/daily/{preset}/boards/{board}", endpoint(_board, reads=True)),
        Route("/api/daily/{preset}/ranking", endpoint(_ranking, reads=True)),
    ]

"""A person's history and profile over HTTP, and its page.

Routes::

    GET /history                        the page (your own; ``?p=ID`` someone you have played with)
    GET /api/players/me/history         your ratings, stats and finished matches (``?before=`` unix time)
    GET /api/players/{id}/history       the same of a person you have played a finished match with

Who may see a profile: the person, and people who have finished a match with them.  Anyone else gets the
same 404 as an id that does not exist, counted against the address like an unknown table code, so ids cannot
be probed.  A foreign ``Origin`` is refused even on these reads (a profile is personal), and each address,
and the whole process, may ask only so often.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...core.meaning import N_, Meaning
from ..edge.safejson import JSONResponse
from ..edge.tokens import COOKIE
from ..pages.html import page_route
from ..pages.route_guard import RouteGuard
from ..serving import address_of, refusal
from .queries import played_together, profile

PER_ADDRESS = (1.0, 20)     # profile reads a second per address on average, and at once
WHOLE = (200.0, 400)        # ... and for the whole process
GUARD = RouteGuard("history", PER_ADDRESS, WHOLE,
                   Meaning(N_("too many history requests from your address; try again in a minute")))


async def api_history(request: Request) -> Response:
    admitted = GUARD.admit(request)
    if isinstance(admitted, Response):
        return admitted
    server, lang = admitted
    viewer = server.signer().read(request.cookies.get(COOKIE))
    if viewer is None:
        return refusal(N_("choose your name first: your history is kept under your player on this device"), 401,
                       lang)
    target = request.path_params["player"]
    if target == "me":
        target = viewer.id
    address = address_of(request)
    if target != viewer.id:
        if await server.lookups.refused(address):
            return refusal(server.lookups.refusal(), 429, lang)
        if len(target) > 32 or "\x00" in target or not await played_together(server.db.engine, viewer.id, target):
            await server.lookups.failed(address)
            return refusal(N_("no one you have finished a match with has that player id"), 404, lang)
    try:
        before = int(request.query_params["before"]) if "before" in request.query_params else None
    except ValueError:
        return refusal(N_("before must be a whole number (unix seconds)"), 400, lang)
    if before is not None and not 0 <= before < 2**62:
        before = None
    return JSONResponse({**await profile(server.db.engine, target, before, server.withheld,
                                       server.pending_matches),
                         "you": target == viewer.id})


def routes() -> list[BaseRoute]:
    return [Route("/history", page_route("history")),
            Route("/api/players/{player}/history", api_history)]

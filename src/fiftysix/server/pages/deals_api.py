"""A table's finished deals over HTTP: its facts, pages of deal summaries, deal and match records to download,
and deal reviews (a table's deal, or a record sent by the page), computed in a worker pool
(:mod:`fiftysix.server.review`)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import TypedDict

from starlette.requests import Request
from starlette.responses import Response

from ...core.meaning import N_, Meaning, words_of
from ...i18n import localize, translate
from ..edge.downloads import DownloadBusy
from ..edge.lang import language_of
from ..edge.safejson import JSONResponse, encode
from ..review import PENDING, ReviewBusy, ReviewError, record_key
from ..serving import Reach, Server, address_of, refusal, serving, with_body
from ..state.table import deal_summary
from ..state.typed_json import Received
from ..table.live import LiveTable
from ..table.messages import table_info


async def api_table(request: Request) -> Response:
    server = serving(request)
    table = await server.readable(request)
    if isinstance(table, Response):
        return table
    async with table.lock:
        return JSONResponse({**table_info(table.state, table.presence), "deals": list(table.state.recent_deals)})


async def api_deals(request: Request) -> Response:
    server = serving(request)
    try:
        asked = int(request.query_params["before"]) if "before" in request.query_params else None
        limit = int(request.query_params.get("limit", 20))
    except ValueError:
        return refusal("before and limit must be whole numbers")
    if not 1 <= limit <= 100:
        return refusal("limit must be from 1 to 100")

    def before_of(table: LiveTable) -> int:     # no key beyond what a row can have
        return max(1, min(table.state.deals_count + 1 if asked is None else asked, table.state.deals_count + 1))

    table = await server.readable(request, lambda t: before_of(t) - 1)     # the page lists deals below before
    if isinstance(table, Response):
        return table
    before = before_of(table)
    starts = list(table.state.match_starts)
    rows = await server.db.deal_summaries(table.code, before, limit)
    deals = []
    for number, result in rows:
        match_no = sum(1 for first in starts if first <= number)
        deals.append(deal_summary(number, match_no, number - starts[match_no - 1] + 1, result))
    return JSONResponse({"deals": deals, "more": bool(rows) and rows[-1][0] > 1})


async def api_record(request: Request) -> Response:
    async def deal(table: LiveTable, number: int) -> tuple[Hashable, Loader]:
        async def load() -> object:
            return await serving(request).db.deal_record(table.code, number)
        return (table.code, "deal", number), load            # a finished deal's record never changes

    return await _download(request, "deal", deal, "has no finished deal {number}", _deal_reach(request))


async def api_match_record(request: Request) -> Response:
    async def match(table: LiveTable, number: int) -> tuple[Hashable, Loader]:
        span = table.state.match_deals(number)

        async def load() -> object:
            if span is None:
                return None
            return table.state.match_record(number, await serving(request).db.deal_records(table.code, *span))
        return (table.code, "match", number, span), load     # a match's record grows by a deal: its span is a key

    def reach(table: LiveTable) -> int | None:     # a match's record holds its deals: read through its last
        span = table.state.match_deals(request.path_params["number"])
        return None if span is None else span[1]

    return await _download(request, "match", match, "has no match {number} with a finished deal", reach)


Loader = Callable[[], Awaitable[object]]


def _deal_reach(request: Request) -> Reach:
    """A deal's record or review is read through that deal (its record holds the match's score before it)."""
    number: int = request.path_params["number"]
    return lambda _table: number


async def _numbered(request: Request, reach: Reach) -> tuple[Server, LiveTable, str, int] | Response:
    """For a route of a table's deal or match by number: the table (when the asker may read it as far as
    ``reach`` says, else the refusal), its code as asked and the number."""
    server = serving(request)
    table = await server.readable(request, reach)
    if isinstance(table, Response):
        return table
    return server, table, request.path_params["code"].upper(), request.path_params["number"]


async def _download(request: Request, kind: str, find: Callable[[LiveTable, int], Awaitable[tuple[Hashable, Loader]]],
                    missing: str, reach: Reach) -> Response:
    """A deal's or a match's record file: from the downloads' cache, else loaded (``None``: 404) and made."""
    found = await _numbered(request, reach)
    if isinstance(found, Response):
        return found
    server, table, code, number = found
    key, load = await find(table, number)
    record = None if server.downloads.cached(key) is not None else await load()
    if record is None and server.downloads.cached(key) is None:
        return refusal(f"table {code[:16]} " + missing.format(number=number), 404)
    return await _attachment(request, key, record, f"{code}-{kind}-{number}.json")


async def api_review(request: Request) -> Response:
    found = await _numbered(request, _deal_reach(request))
    if isinstance(found, Response):
        return found
    server, table, code, number = found
    if not 1 <= number <= table.state.deals_count:
        in_progress = number == table.state.deals_count + 1 and table.state.status == "playing"
        return refusal(f"deal {number} of table {code[:16]} is in progress: its review opens when it ends"
                      if in_progress else f"table {code[:16]} has no finished deal {number}",
                      409 if in_progress else 404)
    record = await server.db.deal_record(table.code, number)
    if record is None:
        return refusal(f"table {code[:16]} has no finished deal {number}", 404)
    return await _review(f"{table.code}:{number}", record, 0, _StoredDeal(code=table.code, number=number),
                         request)


@with_body
async def api_review_file(request: Request, body: Received) -> Response:
    record, index = body.get("record"), body.get("deal", 0)
    if not isinstance(record, dict) or not isinstance(index, int) or isinstance(index, bool):
        return refusal('send {"record": a deal or match record, "deal": the match\'s deal number from 0}')
    return await _review(record_key(record, index), record, index, _StoredDeal(), request)


class _StoredDeal(TypedDict, total=False):
    """Which stored deal a review is of (none: a dropped record's)."""

    code: str
    number: int


async def _review(key: str, record: object, index: int, extra: _StoredDeal, request: Request) -> Response:
    server = serving(request)
    reviews, lang, address = server.reviews, language_of(request), address_of(request)
    if not reviews.known(key):      # a new review costs a worker's CPU: a bucket per address
        if server.review_asks.empty(address):
            lim = server.settings.limits
            wait = max(1, round(60 / lim.reviews_per_minute)) if lim.reviews_per_minute > 0 else 60
            words = Meaning(N_("too many new reviews from your address (at most {burst} at once and {rate} a "
                               "minute); try again in {seconds} s"),
                            {"burst": lim.review_burst, "rate": f"{lim.reviews_per_minute:g}", "seconds": wait})
            return JSONResponse({"error": translate(words, lang)}, status_code=429,
                                headers={"Retry-After": str(wait)})
        server.review_asks.take(address)
    try:
        found = reviews.get(key, record, index)
        if found is None:
            await reviews.wait(key, server.settings.review_wait)
            found = reviews.get(key, record, index)
    except ReviewBusy as e:
        return JSONResponse({"error": translate(words_of(e), lang)}, status_code=503, headers={"Retry-After": "5"})
    except ReviewError as e:
        return refusal(words_of(e), 422, lang)
    if found is None:
        return JSONResponse({"pending": True, "message": translate(PENDING, lang)},
                            status_code=202, headers={"Retry-After": "2"})
    # a review is large (every trick's marks): translated and encoded off the event loop
    body = await asyncio.to_thread(lambda: encode(localize({**found, **extra}, lang)))
    return Response(body, media_type="application/json")


async def _attachment(request: Request, key: Hashable, record: object, filename: str) -> Response:
    """A record as a file to download (indented JSON), on the server's budget (:mod:`..edge.downloads`)."""
    try:
        text = await serving(request).downloads.text(key, record)
    except DownloadBusy as e:
        return JSONResponse({"error": translate(words_of(e), language_of(request))}, status_code=503,
                            headers={"Retry-After": "1"})
    return Response(text, media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})

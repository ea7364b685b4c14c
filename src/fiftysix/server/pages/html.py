"""The site's pages, each put together once from the frame every page shares and the page's own file.

``static/frame.html`` holds what every page's ``<head>`` holds (charset, viewport, referrer policy, icons, the
app manifest, the theme colour, both style sheets) and the ``<html>``/``<body>`` around the page; its
``<!--head-->`` line takes the page's own head elements (at least its ``<title>``) and its ``<!--body-->`` line
the rest of the page's file.  A ``<!--home-->`` in a page is the start page's link (``static/home.html``).  The
page's file stays plain HTML where the i18n step (``tools/i18n.py``) reads its words.

Each page answers with an ``ETag`` (a hash of its bytes) and ``304 Not Modified`` to a matching
``If-None-Match``; ``/static/NAME.html`` answers the same page (the service worker keeps ``/static/table.html``
as the table's shell without a network).
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

STATIC = Path(__file__).resolve().parent.parent / "static"
PAGES = ("index", "table", "history", "account", "club", "daily", "review", "offline", "notfound")
HEAD_ELEMENTS = ("<title", "<meta", "<link")


@dataclass(frozen=True)
class Page:
    """A page as the browser gets it."""

    body: bytes
    etag: str


def compose(frame: str, own: str, home: str) -> str:
    """The page from the shared frame and the page's own file: its leading ``<title>``, ``<meta>`` and
    ``<link>`` lines go into the head, the rest into the body.

    :raises ValueError: when the page's file does not start with its ``<title>``.
    """
    lines = own.strip("\n").split("\n")
    split = next((i for i, line in enumerate(lines) if not line.startswith(HEAD_ELEMENTS)), len(lines))
    head, body = lines[:split], lines[split:]
    if not any(line.startswith("<title>") for line in head):
        raise ValueError("a page's file starts with its <title>")
    page = frame.replace("<!--head-->", "\n".join(head)).replace("<!--body-->", "\n".join(body))
    return page.replace("<!--home-->", home.strip())


@cache
def pages() -> dict[str, Page]:
    """Every page, put together at the first call (the server's start) and kept in memory."""
    frame = (STATIC / "frame.html").read_text(encoding="utf-8")
    home = (STATIC / "home.html").read_text(encoding="utf-8")
    out = {}
    for name in PAGES:
        body = compose(frame, (STATIC / f"{name}.html").read_text(encoding="utf-8"), home).encode()
        out[name] = Page(body, '"' + hashlib.sha256(body).hexdigest()[:20] + '"')
    return out


def answer(request: Request, name: str, status_code: int = 200) -> Response:
    """The page ``name``; a browser that holds it already (``If-None-Match``) gets ``304`` and no body."""
    page = pages()[name]
    headers = {"etag": page.etag}
    tags = _tags(request.headers.get("if-none-match", ""))
    if status_code == 200 and (page.etag in tags or "*" in tags):
        return Response(status_code=304, headers=headers)
    return Response(page.body, status_code=status_code, media_type="text/html", headers=headers)


def _tags(if_none_match: str) -> set[str]:
    """The entity tags a browser sends (weak ones compared as strong: the page's bytes are its tag)."""
    return {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}


def page_route(name: str) -> Callable[[Request], Awaitable[Response]]:
    """The endpoint that answers the page ``name``."""
    async def endpoint(request: Request) -> Response:
        return answer(request, name)
    return endpoint


async def static_page(request: Request) -> Response:
    """``/static/NAME.html``: the page put together, never its file (a frame or a part is no page)."""
    name = request.path_params["name"]
    if name not in PAGES:
        return PlainTextResponse("Not Found", status_code=404)
    return answer(request, name)


def routes() -> list[Route]:
    """The routes to place before ``/static``'s mount."""
    return [Route("/static/{name}.html", static_page)]

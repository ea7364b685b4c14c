"""The installable app: the web app manifest, the service worker (served from the root so that its scope is
the whole site) and the page it shows without a network.  The worker's cache is named after the package
version and a hash of the static files, so a new release replaces the old cache."""

from __future__ import annotations

import hashlib
import json
from functools import cache

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from .html import PAGES, STATIC, page_route


@cache
def static_version() -> str:
    """A short hash of every static file: the service worker's cache name changes with any of them."""
    digest = hashlib.sha256()
    for path in sorted(STATIC.rglob("*")):
        if path.is_file() and path.name != "sw.js":
            digest.update(path.relative_to(STATIC).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def precached() -> list[str]:
    """The URLs the worker stores at install: the pages' shells, scripts, styles, catalogues and icons (an
    HTML file is a page's shell only as the page put together: the frame and its parts are no page)."""
    urls = ["/", "/offline"]
    for path in sorted(STATIC.rglob("*")):
        shell = path.suffix == ".html" and path.stem in PAGES and path.stem not in {"index", "offline"}
        asset = path.suffix in {".js", ".css", ".json", ".png", ".svg"} and path.name != "sw.js"
        if path.is_file() and (shell or asset):
            urls.append("/static/" + path.relative_to(STATIC).as_posix())
    return urls


async def service_worker(_request: Request) -> Response:
    body = (STATIC / "sw.js").read_text(encoding="utf-8")
    body = body.replace("__VERSION__", static_version()).replace('"__PRECACHE__"', _json_list(precached()))
    return Response(body, media_type="text/javascript",
                    headers={"cache-control": "no-cache", "service-worker-allowed": "/"})


def _json_list(items: list[str]) -> str:
    return json.dumps(items)


async def manifest(_request: Request) -> Response:
    return FileResponse(STATIC / "manifest.webmanifest", media_type="application/manifest+json")


def routes() -> list[Route]:
    return [Route("/sw.js", service_worker), Route("/manifest.webmanifest", manifest),
            Route("/offline", page_route("offline"))]

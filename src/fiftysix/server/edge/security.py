"""The app's edge, as one ASGI middleware: who may change state, what a request body may be, and the
headers every response carries.

- **Cross-site**: a state-changing request (any method but GET, HEAD, OPTIONS) and a websocket handshake
  from a browser must come from this site's own origin (``Origin``'s host equals ``Host``; https may
  stand for http, behind a TLS proxy, not the other way round) or one of
  :attr:`Edge.allowed_origins`; without ``Origin``, a ``Sec-Fetch-Site`` other than ``same-origin``/``none``
  is refused too.  A request with neither header is not from a browser page (bots, curl, bench/load.py),
  so it cannot ride on a visitor's cookie, and passes.  Refused: 403, or a websocket closed with code 4403
  and the reason.
- **JSON only**: a state-changing request must say ``Content-Type: application/json`` (else 415), so a
  plain HTML form or a ``text/plain`` fetch from elsewhere cannot reach the API at all.
- **Bodies**: refused with 413 on a ``Content-Length`` over :attr:`Edge.max_body` (any method) before any
  byte is read,
  and a streamed (chunked) body is counted as it comes and refused as soon as it passes the limit, so at
  most the limit and one chunk are ever held.
- **Headers** on every response: a Content-Security-Policy without inline script or style, no framing,
  ``nosniff``, ``Referrer-Policy: same-origin``.
- **Tokens**: a player cookie older than :data:`~.tokens.REFRESH_AFTER` is renewed on the response
  (sliding expiry); cookies are ``Secure`` when the request came over https (``scope["scheme"]``, which
  uvicorn takes from ``X-Forwarded-Proto`` only with ``--proxy-headers``) or when configured so.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from http.cookies import SimpleCookie
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .safejson import JSONResponse
from .tokens import COOKIE, REFRESH_AFTER, Tokens

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
MAX_BODY = 16384

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


def origin_of(url: str) -> str:
    """``url``'s origin as a browser sends it in ``Origin``: ``scheme://host[:port]``, lower case.

    :raises ValueError: for anything but an http(s) URL with a host and no path, query or fragment.
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/") \
            or parts.query or parts.fragment or "@" in parts.netloc:
        raise ValueError(f"an allowed origin is scheme://host[:port], like https://cards.example.org, not {url!r}")
    return f"{parts.scheme}://{parts.netloc}".lower()


def cross_site(headers: Headers, allowed: frozenset[str], scheme: str = "http") -> str | None:
    """Why a browser request is refused as cross-site, or ``None`` when it may go on.

    The own origin is the one whose host (and port) is the request's ``Host``.  Its scheme may be https on a
    request that came in as http (a TLS proxy in front, without ``--proxy-headers``), never the other way
    round: an http page (which anyone on the path can rewrite) may not act on the https site.
    """
    origin = headers.get("origin")
    if origin is not None:
        origin = origin.lower()
        if origin in allowed:
            return None
        parts = urlsplit(origin)
        if (parts.scheme == "https" or (parts.scheme == "http" and scheme in ("http", "ws"))) \
                and parts.netloc and parts.netloc == headers.get("host", "").lower():
            return None
        return (f"requests from the origin {origin[:80]} are not allowed here (a cross-site request); "
                "the server's own pages and its configured origins are")
    site = headers.get("sec-fetch-site")
    if site is not None and site.lower() not in ("same-origin", "none"):
        return f"a {site[:20]} request is not allowed here; the server's own pages are"
    return None


def is_json(content_type: str | None) -> bool:
    return content_type is not None and content_type.split(";")[0].strip().lower() == "application/json"


def cookie_header(token: str, secure: bool, max_age: int) -> tuple[bytes, bytes]:
    """The ``Set-Cookie`` header for a player token: http-only, SameSite=Lax, Secure when asked."""
    response = Response()
    response.set_cookie(COOKIE, token, max_age=max_age, httponly=True, samesite="lax", secure=secure)
    return response.raw_headers[-1]


class Edge:
    """The ASGI middleware described at the top of this module."""

    def __init__(self, app: ASGIApp, allowed_origins: tuple[str, ...] = (), max_body: int = MAX_BODY,
                 secure_cookies: bool = False, tokens: Callable[[], Tokens | None] = lambda: None,
                 clock: Callable[[], float] = time.time) -> None:
        self.app = app
        self.allowed_origins = frozenset(origin_of(o) for o in allowed_origins)
        self.max_body = max_body
        self.secure_cookies = secure_cookies
        self.tokens = tokens
        self.clock = clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            refusal = cross_site(Headers(scope=scope), self.allowed_origins, scope.get("scheme", "ws"))
            if refusal is not None:
                await _refuse_websocket(receive, send, refusal)
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        send = self._decorate(scope, headers, send)
        if _declared_over(headers, self.max_body):      # on any method: no one sends a GET a large body
            await _answer(scope, receive, send, 413, f"request too large (at most {self.max_body} bytes)",
                          close=True)
            return
        if scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        refusal = cross_site(headers, self.allowed_origins, scope.get("scheme", "http"))
        if refusal is not None:
            await _answer(scope, receive, send, 403, refusal)
            return
        if not is_json(headers.get("content-type")):
            await _answer(scope, receive, send, 415, "a request that changes something must be JSON "
                          "(Content-Type: application/json)")
            return
        try:
            body = await self._read_body(receive)
        except _ClientGone:
            return
        if body is None:
            await _answer(scope, receive, send, 413, f"request too large (at most {self.max_body} bytes)",
                          close=True)
            return
        await self.app(scope, _replay(body, receive), send)

    async def _read_body(self, receive: Receive) -> bytes | None:
        """The whole body, or ``None`` once it passes the limit while it is read.

        :raises _ClientGone: when the client disconnects before the body is complete.
        """
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                raise _ClientGone
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    def _decorate(self, scope: Scope, headers: Headers, send: Send) -> Send:
        """``send`` adding the security headers, Secure to our cookie over https, and a renewed token."""
        secure = self.secure_cookies or scope.get("scheme") == "https"
        renewed = self._renewed_token(headers)

        async def decorated(message: Message) -> None:
            if message["type"] == "http.response.start":
                raw: list[tuple[bytes, bytes]] = list(message.get("headers", []))
                present = {name.lower() for name, _ in raw}
                raw += [(name, value) for name, value in SECURITY_HEADERS if name not in present]
                ours = [i for i, (name, value) in enumerate(raw)
                        if name.lower() == b"set-cookie" and value.startswith(COOKIE.encode() + b"=")]
                if secure:
                    for i in ours:
                        if b"; secure" not in raw[i][1].lower():
                            raw[i] = (raw[i][0], raw[i][1] + b"; Secure")
                if renewed is not None and not ours:
                    tokens = self.tokens()
                    assert tokens is not None
                    raw.append(cookie_header(renewed, secure, tokens.max_age))
                message = {**message, "headers": raw}
            await send(message)

        return decorated

    def _renewed_token(self, headers: Headers) -> str | None:
        """A fresh token for a valid player cookie older than a day (sliding expiry), else ``None``."""
        tokens = self.tokens()
        raw = headers.get("cookie")
        if tokens is None or raw is None or COOKIE not in raw:
            return None
        cookie = SimpleCookie()
        try:
            cookie.load(raw)
        except Exception:   # a malformed Cookie header: nothing to renew
            return None
        morsel = cookie.get(COOKIE)
        player = tokens.read(morsel.value) if morsel is not None else None
        if player is None or self.clock() - player.issued < REFRESH_AFTER:
            return None
        return tokens.issue(player.name, player.id, player.session)[1]


def _declared_over(headers: Headers, limit: int) -> bool:
    """Whether the request declares a body over ``limit`` bytes (or an unreadable length)."""
    declared = headers.get("content-length")
    return declared is not None and (not (declared.isascii() and declared.isdigit()) or int(declared) > limit)


class _ClientGone(Exception):
    """The client disconnected while its request body was being read: nobody to answer."""


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the already-read body once, then waits on the real one (for a disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _answer(scope: Scope, receive: Receive, send: Send, status: int, message: str,
                  close: bool = False) -> None:
    headers = {"connection": "close"} if close else None
    await JSONResponse({"error": message}, status_code=status, headers=headers)(scope, receive, send)


async def _refuse_websocket(receive: Receive, send: Send, reason: str) -> None:
    """Accept, then close at once with code 4403 and the reason (a browser page can read a close reason,
    not the body of a refused handshake)."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": 4403,
                "reason": reason.encode()[:120].decode(errors="ignore")})     # a close reason: 123 bytes at most

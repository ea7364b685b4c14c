"""What the web server's routes share: its settings, the :class:`Server` (the database, the tables, the token
signer, the limits) and the helpers every endpoint uses (the client's address, a refusal, a JSON body)."""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.websockets import WebSocket

if TYPE_CHECKING:     # (SQLAlchemy is imported when the database opens: the quick start)
    from sqlalchemy.ext.asyncio import AsyncConnection

from ..core.meaning import N_, Meaning
from ..i18n import translate
from .edge.access import PRIVATE, WRONG_KEY, Lookups, admission
from .edge.downloads import Downloads
from .edge.lang import language_of
from .edge.limits import Buckets, Limits, socket_cap
from .edge.safejson import BadJSON, JSONResponse
from .edge.safejson import loads as json_loads
from .edge.security import MAX_BODY
from .edge.share import QRCodes
from .edge.tokens import COOKIE, MAX_AGE, Player, Tokens
from .review import Reviews
from .state.typed_json import Received
from .storage.db import Database
from .table.hub import Hub
from .table.live import LiveTable, Timing
from .table.protocol import Handler, handle_message

log = logging.getLogger("fiftysix.server")


@dataclass
class Settings:
    db_url: str = "sqlite+aiosqlite:///fiftysix.db"
    timing: Timing = field(default_factory=Timing)
    secret: str | None = None          # default: made once and kept in the database
    secure_cookie: bool = False        # always Secure cookies (else only over https)
    allowed_origins: tuple[str, ...] = ()   # other sites whose pages may use this server (see security.py)
    max_body: int = MAX_BODY
    token_max_age: int = MAX_AGE       # seconds a player token is good for after it was issued
    limits: Limits = field(default_factory=Limits)
    public_url: str | None = None      # the address friends use (fiftysix serve --public-url)
    listen_host: str | None = None     # the address listened on (for the share link when it is all interfaces)
    review_workers: int = 1            # processes computing deal reviews (server/review.py) ...
    review_queue: int = 8              # ... and reviews waiting or running at once (more: 503, ask again)
    review_wait: float = 5.0           # seconds a review request waits before answering 202 (ask again)
    review_from_trick: int = 1         # the first trick a review marks (the first ones cost the solver the most)
    redis_url: str | None = None       # one of many processes (server/cluster; PostgreSQL only)

    @property
    def cookies_secure(self) -> bool:
        """Whether the player cookie is always ``Secure``: asked for (``secure_cookie``), or the address friends
        use is https (``public_url``): their browsers reach the server over https, whatever scheme the proxy in
        front passes on (without ``--proxy-headers`` uvicorn sees http)."""
        return self.secure_cookie or (self.public_url or "").lower().startswith("https://")


T = TypeVar("T")

Gate = Callable[[str, str | None, int | None], Awaitable[str | None]]
"""The server's read gate: (table code, reader, through) -> why not, or ``None`` (see :meth:`Server.gate`)."""
Reach = Callable[[LiveTable], int | None]
"""How far into a table a read goes: its finished deals 1..k, or ``None``: the table as it is now."""


class Server:
    """What the routes share: the database, the tables and the token signer."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.db = Database(settings.db_url)
        self.hub = Hub(self.db, settings.timing, settings.limits)
        self.lookups = Lookups(settings.limits)
        self.handle: Handler = handle_message
        self.tell: Callable[[str, int], None] = lambda _player, _generation: None    # other processes
        self.tell_revoked: Callable[[str, str], None] = lambda _player, _session: None    # ... of a device
        self.tell_forget: Callable[[str], None] = lambda _player: None      # ... of a deleted account
        # who may read a table beyond its admission: ``None`` yes, else why not (clubs/guard.py, nights/guard.py)
        self.watch_gate: Gate | None = None
        # which of these table codes' finished matches are withheld from history and club pages for now (a
        # running club night's tables: server/nights); None: none are
        self.withheld: Callable[[list[str]], Awaitable[set[str]]] | None = None
        # the ids of the finished matches ``withheld`` may name, found without a person's matches (server/nights)
        self.pending_matches: Callable[[AsyncConnection], Awaitable[list[int]]] | None = None
        # the devices signed out since the given unix time (server/accounts sets it; read at startup)
        self.revoked_devices: Callable[[int], Awaitable[set[str]]] | None = None
        self.parts: dict[type, object] = {}     # what a module adds to the server, by its class (:func:`part`)
        if settings.redis_url:      # many processes: tables, limits and messages go through Redis
            from .cluster.relay import cluster_parts

            hub, self.lookups, self.handle = cluster_parts(self.db, settings.timing, settings.limits,
                                                           settings.redis_url)
            self.hub, self.tell = hub, hub.tell_signout
            hub.on_signout = lambda player, generation: hub.later(self.signed_out(player, generation, here=False))
            self.tell_revoked = hub.tell_revoked
            hub.on_revoke = lambda player, session: hub.later(self.device_out(player, session, here=False))
            self.tell_forget = hub.tell_forget
            hub.on_forget = lambda player: hub.later(self.forget(player, here=False))
        self.tokens: Tokens | None = None
        # player id -> its open websockets, each with the token's player (device, generation) it is signed in as
        # (by hello's token or the cookie): a sign-out closes exactly the sockets of what it signed out
        self.sockets: dict[str, dict[WebSocket, Player]] = {}
        self.reviews = Reviews(settings.review_workers, settings.review_queue, from_trick=settings.review_from_trick)
        lim = settings.limits
        self.qr = QRCodes(lim)
        self.downloads = Downloads(lim.downloads_running)     # record files: cached, a few made at once
        self.review_asks = Buckets(lim.reviews_per_minute / 60, lim.review_burst)   # new reviews per address
        self.open_sockets = 0           # websockets of this process (at most socket_cap)
        self.socket_cap = lim.sockets or 1 << 30    # set at startup, from the file descriptors uvicorn was given

    async def find(self, code: str, address: str) -> LiveTable | tuple[int, str]:
        """A table by code, or the status and message to answer: 404, or 429 once the address failed too many
        lookups (then the database is not asked)."""
        if await self.lookups.refused(address):
            return 429, self.lookups.refusal()
        table = await self.hub.get(code)
        if table is None:
            await self.lookups.failed(address)
            return 404, f"no table {code[:16]!r} here"
        return table

    async def signed_out(self, player_id: str, generation: int, here: bool = True) -> None:
        """Refuse ``player_id``'s older tokens and close the websockets signed in with them (``here``: this process
        was asked; with many processes the others are told)."""
        assert self.tokens is not None
        self.tokens.signed_out(player_id, generation)
        if here:
            self.tell(player_id, generation)
        await self._close_signed_out(player_id, "signed out everywhere")

    async def device_out(self, player_id: str, session: str, here: bool = True) -> None:
        """Refuse the tokens of device ``session`` (server/accounts) and close every websocket signed in as that
        device, by its cookie or by hello's token (``here``: this process was asked; the others are told)."""
        assert self.tokens is not None
        self.tokens.revoked.add(session)
        if here:
            self.tell_revoked(player_id, session)
        await self._close_signed_out(player_id, "signed out")

    async def forget(self, player_id: str, here: bool = True) -> None:
        """A deleted account (its names already taken out of the stored logs): every table this process writes
        that knows ``player_id`` is read again from its log and shown afresh to its viewers (replicas follow their
        writer); ``here``: this process was asked, the others are told."""
        if here:
            self.tell_forget(player_id)
        for table in list(self.hub.tables.values()):
            if player_id in table.state.players and getattr(table, "writer", True):
                async with table.lock:
                    await table.reload()

    def signed_in(self, ws: WebSocket, player: Player | None, was: Player | None = None) -> None:
        """Remember that ``ws`` is signed in as ``player`` now (``None``: as nobody, or closed) instead of ``was``."""
        if was is not None and (held := self.sockets.get(was.id)) is not None:
            held.pop(ws, None)
            if not held:
                del self.sockets[was.id]
        if player is not None:
            self.sockets.setdefault(player.id, {})[ws] = player

    async def _close_signed_out(self, player_id: str, reason: str) -> None:
        """Close (4401) every websocket of ``player_id`` whose device or generation is signed out now."""
        tokens = self.signer()
        gone = [ws for ws, player in self.sockets.get(player_id, {}).items() if not tokens.still_in(player)]
        for ws in gone:
            with contextlib.suppress(Exception):
                await ws.close(code=4401, reason=reason)

    async def gate(self, code: str, player: str | None, through: int | None = None) -> str | None:
        """Why ``player`` may not read table ``code``'s deals 1..``through`` (``None``: the table as it is now),
        or ``None`` when they may: every read of a table, HTTP or socket, asks this one gate."""
        return None if self.watch_gate is None else await self.watch_gate(code, player, through)

    async def admit(self, request: Request, table: LiveTable, reach: Reach | None = None) -> Response | None:
        """``None`` when the request may see this table (as far as ``reach`` says: by default as it is now); else
        the answer (403, counted when the key is wrong)."""
        assert self.tokens is not None
        player = self.tokens.read(request.cookies.get(COOKIE))
        verdict = admission(table.state, player.id if player is not None else None, request.query_params.get("k"))
        if verdict == "in":
            why = await self.gate(table.code, player.id if player else None, None if reach is None else reach(table))
            return None if why is None else JSONResponse({"error": why, "code": table.code}, status_code=403)
        if verdict == "wrong":
            await self.lookups.failed(address_of(request))
        return JSONResponse({"error": WRONG_KEY if verdict == "wrong" else PRIVATE, "code": table.code,
                             "private": True}, status_code=403)

    async def readable(self, request: Request, reach: Reach | None = None) -> LiveTable | Response:
        """The table of the path's ``code`` if this request may read it (as far as ``reach`` says); else the
        answer to send (:meth:`find`, then :meth:`admit`)."""
        table = await self.find(request.path_params["code"], address_of(request))
        if isinstance(table, tuple):
            return refusal(table[1], table[0])
        refused = await self.admit(request, table, reach)
        return table if refused is None else refused

    async def startup(self) -> None:
        self.socket_cap = socket_cap(self.settings.limits)
        await self.db.migrate()
        self.tokens = Tokens(self.settings.secret or await self.db.secret(), await self.db.generations(),
                             self.settings.token_max_age)
        # signed-out devices within a token's lifetime (server/accounts tells which): their tokens are refused
        if self.revoked_devices is not None:
            self.tokens.revoked = await self.revoked_devices(int(time.time()) - self.settings.token_max_age)
        resumed = await self.hub.resume_all()
        log.info("fiftysix server ready: %d tables resumed from %s", resumed, self.settings.db_url)

    async def shutdown(self) -> None:
        self.reviews.close()
        await self.hub.stop()
        await self.db.close()

    def signer(self) -> Tokens:
        """The token signer (made at startup, from the database's key)."""
        assert self.tokens is not None, "the server has not started"
        return self.tokens


def table_link(code: str, key: str | None) -> str:
    """A table page's link; a private table's secret rides in the fragment (never sent to a server)."""
    return f"/t/{code}" + (f"#k={key}" if key else "")


def part(server: Server, kind: type[T], make: Callable[[], T]) -> T:
    """The server's one ``kind`` (clubs, club nights, asks to see a hand), made by ``make`` on first use."""
    found = server.parts.get(kind)
    if found is None:
        found = server.parts[kind] = make()
    assert isinstance(found, kind)
    return found


def serving(conn: HTTPConnection) -> Server:
    """The :class:`Server` of a request's or a websocket's app."""
    server: Server = conn.app.state.server
    return server


def address_of(scope: Request | WebSocket) -> str:
    """The client's address for the limits (behind a proxy, uvicorn's ``--forwarded-allow-ips`` makes it the
    real one); for IPv6 its /64 network, since one machine commonly has a whole /64 to pick from."""
    host = scope.client.host if scope.client is not None else "unknown"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if ip.version == 6 and ip.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip.ipv4_mapped or ip) if ip.version == 6 else str(ip)


def with_body(handler: Callable[[Request, Received], Awaitable[Response]],
               ) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint that reads the request's JSON object and passes it on (or answers 400 naming the fault)."""
    async def endpoint(request: Request) -> Response:
        body = await json_body(request)
        return body if isinstance(body, Response) else await handler(request, body)
    return endpoint


async def json_body(request: Request) -> Received | Response:
    raw = await request.body()    # the Edge middleware has already refused a body over the limit
    try:
        body = json_loads(raw or b"{}")
    except BadJSON as e:
        return refusal(Meaning(N_("the request body must be JSON: {why}"), {"why": str(e)}),
                       lang=language_of(request))
    if not isinstance(body, dict):
        return refusal(N_("the request body must be a JSON object"), lang=language_of(request))
    return body


def refusal(message: str, status: int = 400, lang: str = "en") -> Response:
    """A refusal; in the request's language ``lang`` when the message is a catalogue's (server/edge/lang.py)."""
    return JSONResponse({"error": translate(message, lang)}, status_code=status)


def set_cookie(response: Response, token: str, max_age: int) -> None:
    # Secure is added by the Edge middleware when the request came over https or it is configured so
    response.set_cookie(COOKIE, token, max_age=max_age, httponly=True, samesite="lax")

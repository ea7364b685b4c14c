"""``fiftysix serve``: run the web server (Starlette on uvicorn) for playing in the browser."""

from __future__ import annotations

import argparse
import gc
import os
import re
from typing import TextIO

DEFAULT_DB = "sqlite+aiosqlite:///fiftysix.db"
DRIVERS = {"sqlite": "sqlite+aiosqlite", "sqlite+aiosqlite": "sqlite+aiosqlite",
           "postgresql": "postgresql+asyncpg", "postgres": "postgresql+asyncpg",
           "postgresql+asyncpg": "postgresql+asyncpg"}
"""The schemes ``--db`` accepts and the async driver's each stands for (the server runs on asyncio)."""
DB_FORMS = ("a SQLite file (fiftysix.db or sqlite:///fiftysix.db) or a PostgreSQL URL "
            "(postgresql://user:password@host/dbname)")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")


def db_url(value: str) -> str:
    """``--db``'s value as the SQLAlchemy async URL the server opens: a bare path is a SQLite file
    (``sqlite+aiosqlite:///PATH``), ``sqlite://`` gets the aiosqlite driver and ``postgresql://`` (or
    ``postgres://``) the asyncpg one; the async forms pass as they are.

    :raises argparse.ArgumentTypeError: one sentence naming the accepted forms, for anything else.
    """
    text = value.strip()
    scheme, sep, rest = text.partition("://")
    if not sep:
        named = _SCHEME.match(text)
        if not text or (named is not None and len(named.group(1)) > 1):    # "C:\x.db" is a path, "mysql:x" not
            raise argparse.ArgumentTypeError(_not_a_db(value))
        return _sqlite_file(text, value)
    driver = DRIVERS.get(scheme.lower())
    if driver is None or not rest or (driver.startswith("sqlite") and not rest.startswith("/")):
        raise argparse.ArgumentTypeError(_not_a_db(value))
    url = f"{driver}://{rest}"
    try:
        from sqlalchemy.engine import make_url
    except ImportError:     # no server packages: run_serve says so
        return url
    try:
        database = make_url(url).database
    except Exception:       # sqlalchemy.exc.ArgumentError, or a ValueError for a port that is no number
        raise argparse.ArgumentTypeError(_not_a_db(value)) from None
    if driver.startswith("sqlite") and database and database != ":memory:" and not database.startswith("file:"):
        _sqlite_file(database, value)
    return url


def _sqlite_file(path: str, value: str) -> str:
    """The URL of the SQLite file ``path`` (given as ``value``), whose folder must exist."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"the folder {folder} of {value[:80]!r} does not exist; expected "
                                         f"{DB_FORMS}")
    return f"{DRIVERS['sqlite']}:///{path}"


def port(value: str) -> int:
    """``--port``'s value: a TCP port, 1 to 65535 (uvicorn would wrap 70000 round to 4464)."""
    text = value.strip()
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= 65535):
        raise argparse.ArgumentTypeError(f"a port is a whole number from 1 to 65535, not {value[:40]!r}")
    return int(text)


def _not_a_db(value: str) -> str:
    """The refusal of a ``--db`` value (a URL's password not repeated)."""
    scheme = value.partition("://")[0] if "://" in value else ""
    shown = f"a {scheme[:40]}:// URL" if "@" in value and scheme else repr(value[:80])
    return f"expected {DB_FORMS}, not {shown}"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help="play with friends in the browser: run the web server",
                       description="Run the web server. Open the printed address, create a table and send the "
                                   "link to friends; computer players fill the empty seats.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default %(default)s: this computer only; 0.0.0.0 or :: lets friends "
                        "on the same network in, and the share link then uses this machine's network address)")
    p.add_argument("--public-url", metavar="URL",
                   help="the address friends use to reach this server (a proxy, tunnel or name), like "
                        "https://cards.example.org: share links and QR codes use it")
    p.add_argument("--port", type=port, default=8056, help="port, 1 to 65535 (default %(default)s)")
    p.add_argument("--db", default=DEFAULT_DB, type=db_url, metavar="DB",
                   help="the database: a SQLite file (fiftysix.db, or sqlite:///fiftysix.db) or PostgreSQL "
                        "(postgresql://user:password@host/dbname); the async drivers aiosqlite and asyncpg are "
                        "chosen for you (default %(default)s)")
    p.add_argument("--redis", default=None, metavar="URL",
                   help="run as one of many equal processes sharing a PostgreSQL --db through Redis, e.g. "
                        "redis://127.0.0.1:6379/0 (docs/deploy.md; needs pip install 'fiftysix[scale]')")
    p.add_argument("--bot-delay", type=float, default=0.8,
                   help="seconds a computer player waits before it moves (default %(default)s)")
    p.add_argument("--log-level", default="info", help="uvicorn log level (default %(default)s)")
    p.add_argument("--limit", action="append", default=[], metavar="NAME=NUMBER",
                   help="change one of the server's limits (quotas, failed lookups; see docs/server.md), e.g. "
                        "--limit tables_per_hour_address=1000; may be given more than once")
    edge = p.add_argument_group("the edge (docs/server.md, Threat model)")
    edge.add_argument("--allow-origin", action="append", default=[], metavar="URL",
                      help="another site whose pages may use this server, like https://cards.example.org "
                           "(repeatable; the server's own origin is always allowed)")
    edge.add_argument("--secure-cookies", action="store_true",
                      help="mark the player cookie Secure even on plain http (behind a TLS proxy; an https "
                           "--public-url does it too)")
    edge.add_argument("--proxy-headers", action="store_true",
                      help="trust X-Forwarded-Proto/-For from --forwarded-allow-ips (https from the proxy makes "
                           "cookies Secure); those addresses are not counted per address")
    edge.add_argument("--forwarded-allow-ips", default="127.0.0.1", metavar="IPS",
                      help="comma-separated proxy addresses trusted with --proxy-headers (default %(default)s)")
    edge.add_argument("--header-timeout", type=float, default=10.0, metavar="S",
                      help="seconds a request's headers may take (default %(default)s; 0: no limit)")
    edge.add_argument("--body-timeout", type=float, default=20.0, metavar="S",
                      help="seconds a request's body may take after its headers (default %(default)s; 0: no limit)")
    edge.add_argument("--max-connections-per-address", type=int, default=64, metavar="N",
                      help="open connections from one IPv4 address or IPv6 /64 (default %(default)s; 0: no limit)")
    edge.add_argument("--max-connections", type=int, default=0, metavar="N",
                      help="open connections in all (default 0: the file descriptors less a reserve)")
    edge.add_argument("--hello-timeout", type=float, default=10.0, metavar="S",
                      help="seconds a new websocket may take to say hello, then closed 4408 (default %(default)s; "
                           "0: no limit)")
    edge.add_argument("--send-timeout", type=float, default=10.0, metavar="S",
                      help="seconds a client may leave the server's data unread, then cut off (default "
                           "%(default)s; 0: no limit)")


def run_serve(args: argparse.Namespace, err: TextIO) -> int:
    try:
        import uvicorn

        from ..server import Settings, Timing, create_app
        from ..server.edge.listen import EdgeLimits, server_config
        from ..server.edge.security import origin_of
        from ..server.edge.share import ALL_INTERFACES, check_public_url, lan_address
    except ImportError as e:
        err.write(f"fiftysix serve: the server needs its extra packages: pip install 'fiftysix[server]' ({e})\n")
        return 2
    # A server holds many long-lived objects (tables, deals, logs): collecting the young generation less
    # often keeps the full collections, and their pauses, rare (bench/load.py: p99 halved).
    gc.set_threshold(100_000, 50, 1000)
    from ..server.edge.limits import Limits, limits_from

    try:
        quotas = limits_from(args.limit, Limits())
        origins = tuple(origin_of(url) for url in args.allow_origin)
        public_url = check_public_url(args.public_url) if args.public_url else None
    except ValueError as e:
        err.write(f"fiftysix serve: {e}\n")
        return 2
    if args.redis is not None:
        if not args.db.startswith("postgresql"):
            err.write("fiftysix serve: --redis needs a PostgreSQL --db (postgresql+asyncpg://...): the processes "
                      f"share its log and leases; not {args.db.split(':')[0]}\n")
            return 2
        try:
            import redis  # noqa: F401
        except ImportError:
            err.write("fiftysix serve: --redis needs the redis package: pip install 'fiftysix[scale]'\n")
            return 2
    unreachable = _database_refusal(args.db)
    if unreachable is not None:
        err.write(f"fiftysix serve: the database of --db does not answer: {unreachable}\n")
        return 2
    timing = Timing(bot_delay=args.bot_delay, hello_timeout=args.hello_timeout, send_timeout=args.send_timeout)
    settings = Settings(db_url=args.db, redis_url=args.redis, timing=timing,
                        allowed_origins=origins, secure_cookie=args.secure_cookies, limits=quotas,
                        public_url=public_url, listen_host=args.host)
    trusted = tuple(ip.strip() for ip in args.forwarded_allow_ips.split(",") if ip.strip())
    limits = EdgeLimits(header_timeout=args.header_timeout, body_timeout=args.body_timeout,
                        per_address=args.max_connections_per_address,
                        connections=args.max_connections, send_timeout=args.send_timeout,
                        exempt=trusted if args.proxy_headers else ())
    config = server_config(create_app(settings), limits, host=args.host, port=args.port, log_level=args.log_level,
                           ws_max_size=1 << 20, proxy_headers=args.proxy_headers,
                           forwarded_allow_ips=args.forwarded_allow_ips)
    local = "127.0.0.1" if args.host in ALL_INTERFACES else args.host
    err.write(f"fiftysix: open http://{local}:{args.port}/ in a browser (database {_shown(args.db)})\n")
    if public_url or args.host in ALL_INTERFACES:
        err.write(f"fiftysix: friends join at {public_url or f'http://{lan_address()}:{args.port}'}/\n")
    uvicorn.Server(config).run()
    return 0


def _database_refusal(url: str) -> str | None:
    """Why the database at ``url`` cannot be opened (a wrong host, port, password or name: one line), or ``None``
    when it answers; asked before the server starts, so a mistyped ``--db`` is a sentence, not a traceback."""
    import asyncio

    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    async def ask() -> None:
        engine = create_async_engine(url)
        try:
            async with engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
        finally:
            await engine.dispose()

    try:
        asyncio.run(asyncio.wait_for(ask(), 30))
    except Exception as e:      # whatever the driver raises: OSError, asyncpg's, sqlite3's, a timeout
        return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else 'no answer in 30 s'}"[:300]
    return None


def _shown(url: str) -> str:
    """``url`` without its password, to print."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)

"""``fiftysix serve``: run the web server (Starlette on uvicorn) for playing in the browser."""

from __future__ import annotations

import argparse
import gc
from typing import TextIO

DEFAULT_DB = "sqlite+aiosqlite:///fiftysix.db"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help="play with friends in the browser: run the web server",
                       description="Run the web server. Open the printed address, create a table and send the "
                                   "link to friends; computer players fill the empty seats.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default %(default)s)")
    p.add_argument("--port", type=int, default=8056, help="port (default %(default)s)")
    p.add_argument("--db", default=DEFAULT_DB,
                   help="SQLAlchemy async database URL (default %(default)s; PostgreSQL: "
                        "postgresql+asyncpg://user:password@host/dbname)")
    p.add_argument("--bot-delay", type=float, default=0.8,
                   help="seconds a computer player waits before it moves (default %(default)s)")
    p.add_argument("--log-level", default="info", help="uvicorn log level (default %(default)s)")
    p.add_argument("--limit", action="append", default=[], metavar="NAME=NUMBER",
                   help="change one of the server's limits (quotas, failed lookups; see docs/server.md), e.g. "
                        "--limit tables_per_hour_address=1000; may be given more than once")


def run_serve(args: argparse.Namespace, err: TextIO) -> int:
    try:
        import uvicorn

        from ..server import Settings, Timing, create_app
    except ImportError as e:
        err.write(f"fiftysix serve: the server needs its extra packages: pip install 'fiftysix[server]' ({e})\n")
        return 2
    # A server holds many long-lived objects (tables, deals, logs): collecting the young generation less
    # often keeps the full collections, and their pauses, rare (bench/load.py: p99 halved).
    gc.set_threshold(100_000, 50, 1000)
    from ..server.limits import Limits, limits_from

    try:
        limits = limits_from(args.limit, Limits())
    except ValueError as e:
        err.write(f"fiftysix serve: {e}\n")
        return 2
    settings = Settings(db_url=args.db, timing=Timing(bot_delay=args.bot_delay), limits=limits)
    err.write(f"fiftysix: open http://{args.host}:{args.port}/ in a browser (database {args.db})\n")
    uvicorn.run(create_app(settings), host=args.host, port=args.port, log_level=args.log_level,
                ws_max_size=1 << 20)
    return 0

"""CPU time per table event inside one server process, without websockets or HTTP.

``--tables`` tables of computer players (the host stands up, so bots play every seat) in one hub on a fresh
SQLite file, each with one watching connection whose queue is emptied as a client would read it.  Runs for
``--seconds`` and prints the CPU time (``time.process_time``, both threads) per stored event.  Comparing it with
``bench/load.py`` separates the cost of the tables (rules, bots, views, messages, database) from the cost of the
websockets.  Runs against another source tree too (``PYTHONPATH=OLD/src``; trees before the quotas have no
``Limits``):

    .venv/bin/python bench/table_cpu.py --tables 50 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import tempfile
import time
from pathlib import Path
from typing import Any

from fiftysix.server.storage.db import Database
from fiftysix.server.table.hub import Hub
from fiftysix.server.table.live import Connection, Timing


def make_hub(db: Database, timing: Timing) -> Hub:
    try:
        from fiftysix.server.edge.limits import Limits
    except ImportError:      # an older tree: no quotas
        return Hub(db, timing)
    many = 10**6
    limits = Limits(tables_per_hour=many, tables_per_hour_address=many, open_tables=many, open_tables_address=many)
    for name in ("tables_per_hour_all", "open_tables_all"):     # the whole server's quotas (issue 26)
        if hasattr(limits, name):
            setattr(limits, name, many)
    return Hub(db, timing, limits)


async def run(tables: int, seconds: float, bot: str) -> tuple[int, float]:
    folder = Path(tempfile.mkdtemp())
    db = Database(f"sqlite+aiosqlite:///{folder / 'cpu.db'}")
    await db.migrate()
    hub = make_hub(db, Timing(bot_delay=0.02, next_delay=0.02))
    takes_address = "address" in inspect.signature(hub.create).parameters
    live: list[tuple[Any, Connection]] = []
    for i in range(tables):
        form = {"preset": "56-4", "fill": bot, "grace": 3600, "options": {"tables": 999}, "public": True}
        table = await (hub.create(f"p{i}", "Host", form, "127.0.0.1") if takes_address
                       else hub.create(f"p{i}", "Host", form))
        watcher = Connection(None)
        await table.connect(watcher, None)
        await table.submit({"kind": "stand", "player": f"p{i}"})
        await table.submit({"kind": "start", "player": f"p{i}", "seed": i, "dealer": 0})
        live.append((table, watcher))
    before = sum(t.state.version for t, _ in live)
    cpu, wall = time.process_time(), time.monotonic()
    while time.monotonic() - wall < seconds:
        await asyncio.sleep(0.05)
        for _table, watcher in live:
            while not watcher.queue.empty():
                watcher.queue.get_nowait()
    cpu = time.process_time() - cpu
    events = sum(t.state.version for t, _ in live) - before
    await hub.stop()
    await db.close()
    return events, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--bot", default="rules", help="the computer players (default %(default)s)")
    args = parser.parse_args()
    events, cpu = asyncio.run(run(args.tables, min(args.seconds, 600.0), args.bot))
    print(f"{events} events in {cpu:.1f} s of CPU: {cpu * 1000 / max(events, 1):.3f} ms per event")


if __name__ == "__main__":
    main()

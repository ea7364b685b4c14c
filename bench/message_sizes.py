"""Bytes per ``event`` message per client, by the table's deal number: one table of fast bots (in-process,
bot delay 0, SQLite in a temporary directory) plays ``--deals`` deals of 56-4 while a spectator and the
seated host (covered by a bot) watch.  Prints, for deal 1, 2, 10, 50, 100, ... the mean and largest event
message (compact JSON, as sent) for each of the two clients.  Works with older source trees too
(``PYTHONPATH=/tmp/old/src``), to compare.

    PYTHONPATH=src .venv/bin/python bench/message_sizes.py --deals 100
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from fiftysix.server.storage.db import Database
from fiftysix.server.table.hub import Hub
from fiftysix.server.table.live import Connection, Timing


def deal_number(table: dict[str, Any]) -> int:
    count = table.get("deals_count")
    return (count if isinstance(count, int) else len(table.get("deals") or [])) + 1


async def run(deals: int) -> dict[str, dict[int, tuple[float, int]]]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite+aiosqlite:///{Path(tmp) / 'm.db'}")
        await db.migrate()
        hub = Hub(db, Timing(bot_delay=0, next_delay=0))
        table = await hub.create("p-host", "Host", {"preset": "56-4", "fill": "random", "grace": 0,
                                                    "options": {"tables": 999}})
        clients = {"spectator": Connection(None), "host": Connection("p-host")}
        await table.connect(clients["spectator"], None)
        await table.submit({"kind": "start", "player": "p-host", "seed": 7, "dealer": 0})
        sizes: dict[str, dict[int, list[int]]] = {k: {} for k in clients}
        deadline = time.monotonic() + 600

        def drain() -> None:
            for name, conn in clients.items():
                while not conn.queue.empty():
                    msg = conn.queue.get_nowait()
                    if msg is not None and msg["type"] == "event":
                        n = deal_number(msg["table"])
                        sizes[name].setdefault(n, []).append(len(json.dumps(msg, separators=(",", ":"))))

        while time.monotonic() < deadline and len(sizes["spectator"]) <= deals:
            await asyncio.sleep(0.002)
            drain()
            # the host watches as a seated person whose seat a bot covers: connected as a second
            # connection only for reading, so the table still goes on by itself
            if clients["host"] not in table.conns and table.state.status == "playing":
                table.conns.add(clients["host"])
        await hub.stop()
        await db.close()
    return {name: {n: (statistics.fmean(v), max(v)) for n, v in by.items()} for name, by in sizes.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100)
    args = parser.parse_args()
    result = asyncio.run(run(min(args.deals, 500)))
    marks = sorted({1, 2, 10, 50, 100, args.deals} & set(result["spectator"]))
    for name, by in result.items():
        print(name + ": " + "; ".join(f"deal {n}: mean {by[n][0]:.0f} B, max {by[n][1]} B" for n in marks if n in by))
    return 0


if __name__ == "__main__":
    sys.exit(main())

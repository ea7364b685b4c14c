"""Load test of the web server: many bot clients over real websockets on 127.0.0.1.

Starts ``fiftysix serve`` on a free local port with a fresh SQLite file (pinned to one core with
``taskset`` when available), creates ``--tables`` tables, and at each one a client plays seat 0 as a
person would (random legal moves after ``--think`` seconds) while the server's bots play the other
seats after ``--bot-delay`` seconds.  Runs for ``--duration`` seconds (both bounded), then stops everything.

Reports: tables served, moves per second (every move, bots included), and the p50/p99 latency from a
client sending its move to the client receiving the broadcast of that move (after a warm-up in which all
tables start at once, reported apart), and the share of one core the server used.

``--servers N`` runs N equal processes instead (``serve --redis``, docs/deploy.md) on a throwaway PostgreSQL
cluster and a throwaway redis-server (tests/helpers): each table is created at one process and its client
connects to a random one (no sticky sessions, so (N-1)/N of the clients' moves are forwarded to the writer).
It adds the CPU per move of all server processes and of Redis; ``--servers 1 --no-redis`` is one process
on the same PostgreSQL without Redis, the baseline for the cost of going through Redis.

    .venv/bin/python bench/load.py --tables 500 --duration 60
    .venv/bin/python bench/load.py --servers 3 --tables 300 --duration 30
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx  # the maintained successor of httpx (same API), which starlette.testclient also uses
from websockets.asyncio.client import connect

MAX_TABLES = 2000
MAX_DURATION = 600.0


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)       # after the warm-up
    warmup: list[float] = field(default_factory=list)          # while all tables start at once
    moves: int = 0                   # every move broadcast at the tables (seen by their clients)
    tables_moving: set[str] = field(default_factory=set)
    errors: int = 0
    deals: int = 0
    event_bytes: int = 0             # bytes of the `event` messages the clients received ...
    events: int = 0                  # ... and how many
    by_deal: dict[int, list[int]] = field(default_factory=dict)   # table's deal number -> [bytes, events]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, db: Path | str, bot_delay: float, one_core: bool, core: int = 0,
                 src: Path | None = None, log: Any = subprocess.PIPE, redis: str | None = None,
                 ) -> subprocess.Popen[bytes]:
    """``fiftysix serve`` in a new process (``db``: a SQLite file or a database URL; ``src``: import fiftysix
    from that source tree instead; ``log``: where its stderr goes, a file for long runs so a full pipe never
    blocks it; ``redis``: one of many processes)."""
    url = db if isinstance(db, str) else f"sqlite+aiosqlite:///{db}"
    cmd = [sys.executable, "-c", "import sys; from fiftysix.cli.main import main; sys.exit(main())",
           "serve", "--host", "127.0.0.1", "--port", str(port), "--db", url,
           "--bot-delay", str(bot_delay), "--log-level", "warning"]
    if redis is not None:
        cmd += ["--redis", redis]
    server = (src or Path(__file__).resolve().parents[1] / "src") / "fiftysix" / "server"
    edge = server / "edge" if (server / "edge").is_dir() else server    # older trees keep the edge's files flat
    if (edge / "listen.py").exists():     # a tree with the edge's connection cap (older ones lack the flag)
        cmd += ["--max-connections-per-address", "0"]   # every client is on 127.0.0.1
    if (edge / "limits.py").exists():     # every table comes from this one address: raise its quotas
        cmd += ["--limit", f"tables_per_hour_address={MAX_TABLES}", "--limit", f"open_tables_address={MAX_TABLES}"]
        if "tables_per_hour_all" in (edge / "limits.py").read_text():     # the whole server's (issue 26)
            cmd += ["--limit", f"tables_per_hour_all={MAX_TABLES}", "--limit", f"open_tables_all={MAX_TABLES}"]
    if one_core and shutil.which("taskset"):
        cmd = ["taskset", "-c", str(core), *cmd]
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log, env=env)


def deal_number(table: dict[str, Any]) -> int:
    """The table's finished deals + 1 (older servers send every finished deal, newer ones the count)."""
    count = table.get("deals_count")
    return (count if isinstance(count, int) else len(table.get("deals") or [])) + 1


async def wait_ready(url: str, deadline: float) -> None:
    async with httpx.AsyncClient() as http:
        while time.monotonic() < deadline:
            try:
                if (await http.get(url + "/api/catalogue")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError("the server did not start")


async def make_table(http: httpx.AsyncClient, url: str, preset: str, n: int) -> tuple[str, str]:
    http.cookies.clear()
    token = (await http.post(url + "/api/player", json={"name": f"load{n}"})).json()["token"]
    r = await http.post(url + "/api/tables", json={"token": token, "preset": preset, "fill": "random",
                                                   "options": {"tables": 999} if preset.startswith("56") else {}})
    assert r.status_code == 200, r.text
    return r.json()["code"], token       # the host is a member: no link secret needed


async def play_table(url: str, code: str, token: str, think: float, warm: float, stop: float, stats: Stats,
                     rng: random.Random) -> None:
    ws_url = url.replace("http://", "ws://") + f"/ws/{code}"
    async with connect(ws_url, max_size=1 << 22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await ws.send(json.dumps({"type": "start"}))
        sent_at: float | None = None
        last_version = 0
        while time.monotonic() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop - time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(raw)
            kind = msg.get("type")
            if kind == "event":
                size = len(raw)
                stats.event_bytes += size
                stats.events += 1
                bucket = stats.by_deal.setdefault(deal_number(msg["table"]), [0, 0])
                bucket[0] += size
                bucket[1] += 1
            if kind == "error":
                stats.errors += 1
                sent_at = None
                continue
            if kind not in ("state", "event") or msg["version"] <= last_version:
                continue
            last_version = msg["version"]
            event = msg.get("event") or {}
            if event.get("kind") == "move":
                stats.moves += 1
                stats.tables_moving.add(code)
                if event.get("seat") == 0 and sent_at is not None:
                    into = stats.latencies if time.monotonic() >= warm else stats.warmup
                    into.append(time.perf_counter() - sent_at)
                    sent_at = None
            status = msg["table"]["status"]
            if status == "deal_over":
                stats.deals += 1
                await ws.send(json.dumps({"type": "next"}))
            elif status == "match_over":
                await ws.send(json.dumps({"type": "rematch"}))
            view = msg.get("view") or {}
            legal = view.get("legal")
            if legal and status == "playing":
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": rng.choice(legal)}))


def cpu_seconds(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@contextlib.contextmanager
def services(servers: int, redis: bool) -> Iterator[tuple[str | None, str | None]]:
    """``(database URL, Redis URL)``: nothing for one SQLite process; else a throwaway PostgreSQL cluster
    (and redis-server) from tests/helpers."""
    if servers == 0:
        yield None, None
        return
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from helpers import pg
    from helpers import redis as redis_helper

    bin_dir = pg.find_bin()
    binary = redis_helper.find_server()
    if bin_dir is None or (redis and binary is None):
        raise SystemExit("--servers needs PostgreSQL (initdb, pg_ctl) and redis-server installed")
    with pg.cluster(bin_dir) as cluster, contextlib.ExitStack() as stack:
        db = cluster.create_database("load")
        yield db, stack.enter_context(redis_helper.server(binary)) if redis and binary is not None else None


def redis_cpu(url: str | None) -> float | None:
    if url is None:
        return None
    import redis as redis_client

    info = redis_client.Redis.from_url(url).info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tables = min(args.tables, MAX_TABLES)
    duration = min(args.duration, MAX_DURATION)
    count = max(1, args.servers)
    ports = [free_port() for _ in range(count)]
    urls = [f"http://127.0.0.1:{port}" for port in ports]
    with tempfile.TemporaryDirectory() as tmp, services(args.servers, not args.no_redis) as (db, redis):
        logs = [Path(tmp) / f"serve-{port}.log" for port in ports]
        servers = []
        for port, log in zip(ports, logs, strict=True):
            with log.open("wb") as out:
                servers.append(start_server(port, db or Path(tmp) / "load.db", args.bot_delay,
                                            not args.any_core and args.servers == 0, log=out, redis=redis))
        try:
            for url in urls:
                await wait_ready(url, time.monotonic() + 60)
            rng = random.Random(args.seed)
            async with httpx.AsyncClient(timeout=30) as http:
                made = [await make_table(http, urls[i % count], args.preset, i) for i in range(tables)]
            # the client's process: any one, the table's writer (where it was created) or another one
            at = [{"any": rng.randrange(count), "writer": i % count, "other": (i + 1) % count}[args.placement]
                  for i in range(len(made))]
            stats = Stats()
            cpu0, redis0, t0 = [cpu_seconds(s.pid) for s in servers], redis_cpu(redis), time.monotonic()
            stop = t0 + duration
            warm = t0 + min(args.warmup, duration / 2)
            await asyncio.gather(*(play_table(urls[i], code, token, args.think, warm, stop, stats,
                                              random.Random(rng.random()))
                                   for (code, token), i in zip(made, at, strict=True)), return_exceptions=False)
            elapsed = time.monotonic() - t0
            cpu1, redis1 = [cpu_seconds(s.pid) for s in servers], redis_cpu(redis)
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                try:
                    server.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    server.kill()
            text = "".join(log.read_text(errors="replace") for log in logs)
            takeovers = text.count("took it over")
    lat = stats.latencies
    cpu = (sum(b - a for a, b in zip(cpu0, cpu1, strict=True))   # type: ignore[operator]
           if None not in cpu0 and None not in cpu1 else None)
    redis_seconds = redis1 - redis0 if redis0 is not None and redis1 is not None else None
    return {
        "servers": args.servers,
        "placement": args.placement,
        "redis": redis is not None,
        "tables": tables,
        "tables_served": len(stats.tables_moving),
        "seconds": round(elapsed, 1),
        "moves": stats.moves,
        "moves_per_s": round(stats.moves / elapsed, 1),
        "deals_finished": stats.deals,
        "client_moves_timed": len(lat),
        "latency_ms_p50": round(percentile(lat, 0.50) * 1000, 2),
        "latency_ms_p99": round(percentile(lat, 0.99) * 1000, 2),
        "latency_ms_mean": round(statistics.fmean(lat) * 1000, 2) if lat else None,
        "warmup_latency_ms_p99": round(percentile(stats.warmup, 0.99) * 1000, 2),
        "server_cpu_share": round(cpu / elapsed, 2) if cpu is not None else None,
        "server_cpu_ms_per_move": round(cpu * 1000 / stats.moves, 3) if cpu is not None and stats.moves else None,
        "redis_cpu_ms_per_move": (round(redis_seconds * 1000 / stats.moves, 3)
                                  if redis_seconds is not None and stats.moves else None),
        "errors": stats.errors,
        "takeovers": takeovers,     # tables whose writer changed during the run (a lease not renewed in time)
        "settings": {"preset": args.preset, "think": args.think, "bot_delay": args.bot_delay,
                     "one_core": not args.any_core and args.servers == 0 and shutil.which("taskset") is not None},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help=f"tables, one client each (at most {MAX_TABLES})")
    parser.add_argument("--duration", type=float, default=30, help=f"seconds of play (at most {MAX_DURATION:.0f})")
    parser.add_argument("--think", type=float, default=1.0, help="a client's mean thinking time per move (s)")
    parser.add_argument("--bot-delay", type=float, default=0.8, help="the server bots' delay per move (s)")
    parser.add_argument("--warmup", type=float, default=5, help="seconds at the start (every table starting at "
                        "once) whose latencies are reported apart")
    parser.add_argument("--preset", default="56-4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--any-core", action="store_true", help="do not pin the server to one core")
    parser.add_argument("--servers", type=int, default=0, choices=range(0, 9), metavar="N",
                        help="N processes on PostgreSQL and Redis (serve --redis; 0: one process on SQLite, the "
                             "default); they are not pinned to cores")
    parser.add_argument("--placement", choices=("any", "writer", "other"), default="any",
                        help="with --servers: which process each client connects to (default: any one)")
    parser.add_argument("--no-redis", action="store_true", help="with --servers 1: one process on PostgreSQL "
                        "without Redis (the baseline for Redis's cost)")
    args = parser.parse_args()
    if args.no_redis and args.servers != 1:
        parser.error("--no-redis goes with --servers 1 only")
    if not args.any_core and args.servers == 0 and hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > 1:
        os.sched_setaffinity(0, {1})      # the clients on the other core than the server
    report = asyncio.run(run(args))
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

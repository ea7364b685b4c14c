"""Soak test of the web server: many busy tables for a long time, sampled every 10 s.

Starts ``fiftysix serve`` on 127.0.0.1 with a fresh SQLite file (pinned to one core with ``taskset``),
and at each of ``--tables`` tables one client plays seat 0 (``bench/load.py``'s client) while the server's
bots play the others.  Every ``--every`` seconds it samples the server's resident memory (``VmRSS`` of
``/proc/PID/status``), the load average, moves, the latency of the clients' moves (p50/p99 of that
interval) and the bytes of ``event`` messages per client.  At the end it writes a CSV and a plot
(matplotlib) and prints the slope of memory after the warm-up (MB per minute, a least-squares line), the
spread of memory after the warm-up (±% of its mean), the overall p99, and bytes per event per client at
deal 1, 2, ... (the table's deal number, so growth with the table's age shows).

    .venv/bin/python bench/soak.py --tables 300 --minutes 30 --out /tmp/soak
    .venv/bin/python bench/soak.py --src /tmp/old/src ...     # measure another source tree's server
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx

sys.path.insert(0, str(Path(__file__).parent))
from load import Stats, cpu_seconds, free_port, make_table, percentile, play_table, start_server, wait_ready  # noqa: E402

MAX_MINUTES = 240.0


def rss_mb(pid: int) -> float | None:
    """The resident memory of a process, in MB (``None`` once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def slope(points: list[tuple[float, float]]) -> float:
    """The least-squares slope of ``(x, y)`` points (0 for fewer than two)."""
    if len(points) < 2:
        return 0.0
    xs, ys = zip(*points, strict=True)
    return statistics.linear_regression(xs, ys).slope


async def sample(server_pid: int, stats: Stats, t0: float, stop: float, every: float,
                 rows: list[dict[str, Any]]) -> None:
    seen_lat = seen_moves = seen_bytes = seen_events = 0
    seen_cpu = cpu_seconds(server_pid) or 0.0
    while time.monotonic() < stop:
        await asyncio.sleep(min(every, max(0.0, stop - time.monotonic())))
        lat = stats.latencies[seen_lat:]
        events = stats.events - seen_events
        cpu = cpu_seconds(server_pid)
        moves = stats.moves - seen_moves
        row = {
            "minute": round((time.monotonic() - t0) / 60, 3),
            "rss_mb": rss_mb(server_pid),
            "moves": moves,
            # the server's CPU per client move: comparable between trees even on a busy machine
            "cpu_ms_per_move": round(1000 * (cpu - seen_cpu) / moves, 3) if cpu is not None and moves else None,
            "p50_ms": round(percentile(lat, 0.5) * 1000, 2) if lat else None,
            "p99_ms": round(percentile(lat, 0.99) * 1000, 2) if lat else None,
            "bytes_per_event": round((stats.event_bytes - seen_bytes) / events) if events else None,
            "deals": stats.deals,
            "load1": round(os.getloadavg()[0], 2),
            "errors": stats.errors,
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
        seen_lat, seen_moves = len(stats.latencies), stats.moves
        seen_bytes, seen_events = stats.event_bytes, stats.events
        seen_cpu = cpu if cpu is not None else seen_cpu


def write_outputs(out: Path, rows: list[dict[str, Any]], warmup: float, title: str) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.with_suffix(".csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(2, 1, sharex=True, figsize=(8, 6))
    ax1.plot([r["minute"] for r in rows], [r["rss_mb"] for r in rows], marker=".")
    ax1.axvline(warmup, color="grey", linestyle=":")
    ax1.set_ylabel("server RSS (MB)")
    ax1.set_title(title)
    ax2.plot([r["minute"] for r in rows], [r["p99_ms"] for r in rows], marker=".", label="p99")
    ax2.plot([r["minute"] for r in rows], [r["p50_ms"] for r in rows], marker=".", label="p50")
    ax2.set_ylabel("move latency (ms)")
    ax2.set_xlabel("minutes")
    ax2.legend()
    fig.tight_layout()
    fig.savefig(out.with_suffix(".png"), dpi=100)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    minutes = min(args.minutes, MAX_MINUTES)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp, (Path(tmp) / "server.log").open("wb") as server_log:
        server = start_server(port, Path(tmp) / "soak.db", args.bot_delay, True, core=args.server_core,
                              src=args.src, log=server_log)
        try:
            await wait_ready(url, time.monotonic() + 60)
            async with httpx.AsyncClient(timeout=60) as http:
                codes = [await make_table(http, url, args.preset, i) for i in range(args.tables)]
            stats = Stats()
            rng = random.Random(args.seed)
            t0 = time.monotonic()
            stop = t0 + minutes * 60
            players = [play_table(url, code, token, args.think, t0, stop, stats, random.Random(rng.random()))
                       for code, token in codes]
            await asyncio.gather(sample(server.pid, stats, t0, stop, args.every, rows), *players)
        finally:
            server.terminate()
            server.wait(timeout=30)
    warm = [r for r in rows if r["minute"] >= args.warmup and r["rss_mb"] is not None]
    mem = [r["rss_mb"] for r in warm]
    mean = statistics.fmean(mem) if mem else float("nan")
    by_deal = {n: round(b / e) for n, (b, e) in sorted(stats.by_deal.items()) if e}
    report = {
        "tables": args.tables, "minutes": minutes, "warmup_minutes": args.warmup,
        "rss_mb_first": rows[0]["rss_mb"] if rows else None, "rss_mb_last": rows[-1]["rss_mb"] if rows else None,
        "rss_slope_mb_per_min_after_warmup": round(slope([(r["minute"], r["rss_mb"]) for r in warm]), 3),
        # a heap that fills to a plateau has a positive slope over the whole run but none at its end
        "rss_slope_mb_per_min_last_third": round(slope([(r["minute"], r["rss_mb"]) for r in rows
                                                        if r["minute"] >= minutes * 2 / 3]), 3),
        "rss_spread_pct_after_warmup": (round(100 * max(abs(m - mean) for m in mem) / mean, 1) if mem else None),
        "latency_ms_p50": round(percentile(stats.latencies, 0.5) * 1000, 2),
        "latency_ms_p99": round(percentile(stats.latencies, 0.99) * 1000, 2),
        "moves_per_s": round(stats.moves / (minutes * 60), 1),
        "cpu_ms_per_move_after_warmup": (round(statistics.median(c for r in warm if (c := r["cpu_ms_per_move"])), 3)
                                         if any(r["cpu_ms_per_move"] for r in warm) else None),
        "deals_finished": stats.deals, "errors": stats.errors,
        "bytes_per_event_per_client_by_deal": {n: by_deal[n] for n in by_deal if n in (1, 2, 10, 50, 100)
                                               or n == max(by_deal)},
        "load_average": list(os.getloadavg()),
        "settings": {"preset": args.preset, "think": args.think, "bot_delay": args.bot_delay,
                     "server_core": args.server_core, "src": str(args.src) if args.src else None},
    }
    if rows:
        write_outputs(args.out, rows, args.warmup, f"{args.tables} tables, {args.src or 'this tree'}")
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=300, help="busy tables, one client each")
    parser.add_argument("--minutes", type=float, default=30, help=f"how long (at most {MAX_MINUTES:.0f})")
    parser.add_argument("--warmup", type=float, default=5, help="minutes left out of the memory slope")
    parser.add_argument("--every", type=float, default=10, help="seconds between samples")
    parser.add_argument("--think", type=float, default=0.4, help="a client's mean thinking time per move (s)")
    parser.add_argument("--bot-delay", type=float, default=0.3, help="the server bots' delay per move (s)")
    parser.add_argument("--preset", default="56-4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server-core", type=int, default=1, help="the core the server is pinned to")
    parser.add_argument("--src", type=Path, help="run the server from this source tree (e.g. an older commit)")
    parser.add_argument("--out", type=Path, default=Path("soak"), help="CSV and PNG path, without suffix")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > 1:
        os.sched_setaffinity(0, {1 - args.server_core if args.server_core in (0, 1) else 0})
    report = asyncio.run(run(args))
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

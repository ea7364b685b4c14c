"""How long ``fiftysix serve`` takes from its launch to its first page (issue 59, "a quick start").

Each run is a cold start: a new process on a free loopback port, timed from the launch to the first ``200`` of
``GET /`` (polled every 10 ms), then stopped.  The SQLite file is in a temporary directory: ``--db kept`` (the
default, a restart) makes it with one untimed start first and every timed run starts on it; ``--db new`` gives
each run a new file (the migrations run in each).  ``--src`` is the checkout's ``src`` to serve from
(``PYTHONPATH``); given twice, the two versions' runs take turns (one sitting, the same load for both):

    git archive db1073e src | tar -x -C /tmp/before
    .venv/bin/python bench/startup.py --src /tmp/before/src --src src --runs 5
    .venv/bin/python bench/startup.py --src /tmp/before/src --src src --runs 5 --db new

Prints one JSON line per ``--src``: each run's seconds, their median, min and max, and the load average before
and after all runs; with ``--then PATH`` (``/api/catalogue``: it names the computer players, so it waits for the
bots), the seconds from the launch to that page too, asked right after the first.  A run that has no page
within ``--timeout`` seconds fails the bench.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def first_page(port: int, server: subprocess.Popen[bytes], deadline: float, path: str = "/") -> None:
    """Wait for the first ``200`` of ``GET path`` (until ``deadline``; a server that exits fails at once)."""
    url = f"http://127.0.0.1:{port}{path}"
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited with {server.returncode} before its first page")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    answer.read()
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.01)
    raise TimeoutError(f"no page from {url} within the time allowed")


def cold_start(src: Path, db: Path, timeout: float, then: str | None = None) -> tuple[float, float | None]:
    """Seconds from launching ``fiftysix serve`` on the SQLite file ``db`` to its first page, on a new port, and
    to the ``200`` of ``GET then`` asked right after it (``None`` without ``then``)."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, "-m", "fiftysix", "serve", "--port", str(port), "--db", f"sqlite+aiosqlite:///{db}"]
    start = time.monotonic()
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        first_page(port, server, start + timeout)
        first = time.monotonic() - start
        if then is None:
            return first, None
        first_page(port, server, start + timeout, then)
        return first, time.monotonic() - start
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--src", action="append", help="the checkout's src to serve from (default src; repeatable)")
    ap.add_argument("--runs", type=int, default=5, help="cold starts to time (default 5)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds a run may take to its first page")
    ap.add_argument("--db", choices=("kept", "new"), default="kept",
                    help="kept: every run on one file, made by an untimed start first (a restart); new: a new file "
                         "each run")
    ap.add_argument("--then", default=None, help="a page asked right after the first, timed from the launch too")
    args = ap.parse_args()
    srcs = [Path(s).resolve() for s in args.src or ["src"]]
    load_before = os.getloadavg()
    times: list[list[float]] = [[] for _ in srcs]
    thens: list[list[float]] = [[] for _ in srcs]
    with tempfile.TemporaryDirectory() as tmp:
        kept = [Path(tmp, f"kept{k}.db") for k in range(len(srcs))]
        if args.db == "kept":      # each version's file made (migrated) by an untimed start
            for src, db in zip(srcs, kept, strict=True):
                cold_start(src, db, args.timeout)
        for i in range(args.runs):
            for k, src in enumerate(srcs):
                db = kept[k] if args.db == "kept" else Path(tmp, f"new{k}-{i}.db")
                first, then = cold_start(src, db, args.timeout, args.then)
                times[k].append(first)
                if then is not None:
                    thens[k].append(then)
    load_after = os.getloadavg()
    for src, runs, later in zip(srcs, times, thens, strict=True):
        out: dict[str, object] = {"src": str(src), "db": args.db, "runs": [round(t, 3) for t in runs],
                                  "median_s": round(statistics.median(runs), 3), "min_s": round(min(runs), 3),
                                  "max_s": round(max(runs), 3)}
        if later:
            out.update({"then": args.then, "then_runs": [round(t, 3) for t in later],
                        "then_median_s": round(statistics.median(later), 3)})
        out.update({"load_before": [round(x, 2) for x in load_before], "load_after": [round(x, 2) for x in load_after]})
        print(json.dumps(out))


if __name__ == "__main__":
    main()

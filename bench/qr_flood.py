"""A share-QR flood against ``fiftysix serve`` and what it does to other requests (issue 26).

Starts ``fiftysix serve`` from ``--src`` (a checkout's ``src``, to compare two versions), measures the p50 and p95
of ``GET /static/table.css`` from 127.0.0.9 while idle, then while ``--addresses`` client addresses (127.0.1.2,
...) each ask ``POST /api/share`` for a new link ``--rate`` times a second; prints the answers' statuses.

    .venv/bin/python bench/qr_flood.py --src src --addresses 4
    .venv/bin/python bench/qr_flood.py --src src --addresses 4 -- --limit qr_burst=1000000 --limit qr_per_minute=1e6
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
import threading
import time
from collections import Counter

CSS = b"GET /static/table.css HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"


def request(port: int, raw: bytes, source: str = "127.0.0.1") -> bytes:
    with socket.socket() as s:
        s.settimeout(10)
        s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(raw)
        out = b""
        while data := s.recv(65536):
            out += data
        return out


def latency(port: int, count: int = 60) -> tuple[float, float]:
    """p50 and p95 of a small static file, in ms."""
    times = []
    for _ in range(count):
        started = time.perf_counter()
        request(port, CSS, "127.0.0.9")
        times.append(time.perf_counter() - started)
        time.sleep(0.05)
    times.sort()
    return statistics.median(times) * 1000, times[int(len(times) * 0.95)] * 1000


def flood(port: int, address: str, rate: float, answers: Counter[str], stop: threading.Event) -> None:
    n = 0
    while not stop.is_set():
        body = json.dumps({"path": f"/t/F{address.rsplit('.', 1)[1]}X{n:06d}"}).encode()
        n += 1
        answer = request(port, b"POST /api/share HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Connection: close\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body,
                         address)
        answers[answer[9:12].decode()] += 1
        time.sleep(1 / rate)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--src", default="src", help="the fiftysix package's parent directory")
    p.add_argument("--addresses", type=int, default=1)
    p.add_argument("--rate", type=float, default=67.0, help="QR requests a second from each address")
    p.add_argument("serve", nargs="*", help="more fiftysix serve arguments (after --)")
    args = p.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    db = os.path.join(tempfile.mkdtemp(), "qr.db")
    serve = ["serve", "--port", str(port), "--db", f"sqlite+aiosqlite:///{db}", "--log-level", "warning",
             "--max-connections-per-address", "0", *args.serve]
    server = subprocess.Popen([sys.executable, "-c", f"import sys; from fiftysix.cli.main import main; "
                               f"sys.exit(main({serve!r}))"], env={**os.environ, "PYTHONPATH": args.src},
                              stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                request(port, CSS)
                break
            except OSError:
                time.sleep(0.2)
        print("idle  p50 {:.1f} ms, p95 {:.1f} ms".format(*latency(port)))
        answers: Counter[str] = Counter()
        stop = threading.Event()
        for i in range(args.addresses):
            threading.Thread(target=flood, args=(port, f"127.0.1.{i + 2}", args.rate, answers, stop),
                             daemon=True).start()
        time.sleep(0.5)
        print("flood p50 {:.1f} ms, p95 {:.1f} ms".format(*latency(port)), "answers", dict(answers))
        stop.set()
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()

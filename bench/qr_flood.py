"""A share-QR flood against ``fiftysix serve`` and what it does to other requests and tables (issues 26, 41).

Starts ``fiftysix serve`` from ``--src`` (a checkout's ``src``, to compare two versions), measures the p50 and p95
of ``GET /static/style.css`` from 127.0.0.9 and the p50 of another table's websocket ping while idle, then while
``--addresses`` client addresses (127.0.1.2, ...) each ask ``POST /api/share`` for a new link ``--rate`` times a
second; prints the answers' statuses, and last a JSON line of the figures.

    .venv/bin/python bench/qr_flood.py --src src --addresses 64 --rate 2
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

CSS = b"GET /static/style.css HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"


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


def pings(port: int, path: str, count: int = 80) -> float:
    """The p50 of a table's websocket ping, in ms (a ping every 50 ms)."""
    from websockets.sync.client import connect

    times = []
    with connect(f"ws://127.0.0.1:{port}{path}", max_size=None) as ws:
        ws.send(json.dumps({"type": "hello"}))
        for _ in range(count):
            started = time.perf_counter()
            ws.send('{"type": "ping"}')
            while json.loads(ws.recv(timeout=30))["type"] != "pong":
                pass
            times.append(time.perf_counter() - started)
            time.sleep(0.05)
    return statistics.median(times) * 1000


def post(port: int, path: str, body: dict[str, object]) -> dict[str, object]:
    data = json.dumps(body).encode()
    answer = request(port, (f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                            f"Connection: close\r\nContent-Length: {len(data)}\r\n\r\n").encode() + data, "127.0.0.9")
    return dict(json.loads(answer.partition(b"\r\n\r\n")[2]))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--src", default="src", help="the fiftysix package's parent directory")
    p.add_argument("--addresses", type=int, default=1)
    p.add_argument("--rate", type=float, default=67.0, help="QR requests a second from each address")
    p.add_argument("--seconds", type=float, default=3.0, help="seconds of flood before measuring under it")
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
    figures: dict[str, object] = {"addresses": args.addresses, "rate": args.rate}
    try:
        while True:
            try:
                request(port, CSS)
                break
            except OSError:
                time.sleep(0.2)
        token = post(port, "/api/player", {"name": "Canary"})["token"]
        table = post(port, "/api/tables", {"token": token})
        path = f"/ws/{table['code']}" + (f"?k={table['key']}" if table.get("key") else "")
        idle, idle_ping = latency(port), pings(port, path)
        print("idle  p50 {:.1f} ms, p95 {:.1f} ms".format(*idle), f"ping p50 {idle_ping:.2f} ms")
        answers: Counter[str] = Counter()
        stop = threading.Event()
        for i in range(args.addresses):
            threading.Thread(target=flood, args=(port, f"127.0.1.{i + 2}", args.rate, answers, stop),
                             daemon=True).start()
        time.sleep(args.seconds)
        flooded, flooded_ping = latency(port), pings(port, path)
        print("flood p50 {:.1f} ms, p95 {:.1f} ms".format(*flooded), f"ping p50 {flooded_ping:.2f} ms",
              "answers", dict(answers))
        stop.set()
        figures.update(idle_http_p50=round(idle[0], 2), idle_ping_p50=round(idle_ping, 3),
                       flood_http_p50=round(flooded[0], 2), flood_ping_p50=round(flooded_ping, 3),
                       answers=dict(answers), load=os.getloadavg()[0])
        print(json.dumps(figures))
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()

"""Clients that send but never read, and what they do to another table (issue 41).

Starts ``fiftysix serve`` from ``--src`` (a checkout's ``src``, to compare two versions) in a process of its own,
and a *canary* in another process: it hosts a table of six computer players (56-6), watches it, asks ``ping`` every
100 ms and counts the table's moves.  First ``--quiet`` seconds alone, then ``--seconds`` with ``--flooders``
clients (each from its own address, 127.0.3.x, each at its own table) that say hello and then ask for full states
as fast as the socket takes them, never reading a byte; a flooder that is cut off connects again at once.

    .venv/bin/python bench/stall_probe.py --src src --flooders 12 --seconds 40

Prints one JSON line: the canary's ping p50/p99/max (ms) and moves a second, alone and flooded, how often the
flooders were cut off, and the load average.
"""

from __future__ import annotations

import argparse
import base64
import json
import multiprocessing
import os
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def post(port: int, path: str, body: dict[str, Any], source: str = "127.0.0.1") -> dict[str, Any]:
    """A JSON POST from ``source`` (a raw socket: urllib cannot choose the source address)."""
    data = json.dumps(body).encode()
    with socket.socket() as s:
        s.settimeout(20)
        s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        s.sendall((f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                   f"Connection: close\r\nContent-Length: {len(data)}\r\n\r\n").encode() + data)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    head, _, payload = out.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(f"{path}: {head[:200]!r}")
    return dict(json.loads(payload))


def new_table(port: int, source: str = "127.0.0.1", name: str = "Asha") -> tuple[str, str]:
    """A new table's websocket path (with its secret) and its host's token."""
    token = post(port, "/api/player", {"name": name}, source)["token"]
    table = post(port, "/api/tables", {"token": token}, source)
    return f"/ws/{table['code']}" + (f"?k={table['key']}" if table.get("key") else ""), token


def frame(text: str) -> bytes:
    """A masked text frame, as a client sends it."""
    data, mask = text.encode(), os.urandom(4)
    size = bytes([0x80 | len(data)]) if len(data) < 126 else bytes([0x80 | 126]) + struct.pack(">H", len(data))
    return b"\x81" + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


# -- the canary (its own process) -----------------------------------------------------------------------------

def canary(port: int, seconds: float, out: Path) -> None:
    """Host an all-computer table, watch it and ping it every 100 ms for ``seconds``; write the samples."""
    from websockets.sync.client import connect

    path, token = new_table(port)
    pings: list[tuple[float, float]] = []      # (when, round trip in seconds)
    moves: list[float] = []                    # when each move's event came
    with connect(f"ws://127.0.0.1:{port}{path}", additional_headers={"Cookie": f"fiftysix_player={token}"},
                 max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        ws.send('{"type": "stand"}')          # the host watches: computers in every seat of 56-6
        for seat in range(6):
            ws.send(json.dumps({"type": "bot", "seat": seat, "bot": "random"}))
        ws.send(json.dumps({"type": "start"}))
        end = time.monotonic() + seconds
        nudged = 0.0
        while time.monotonic() < end:
            sent = time.monotonic()
            if sent - nudged > 1:       # the next deal (or match) at once: the table keeps moving
                nudged = sent
                ws.send('{"type": "next"}')
                ws.send('{"type": "rematch"}')
            ws.send('{"type": "ping"}')
            while True:
                message = json.loads(ws.recv(timeout=30))
                if message.get("type") == "event":
                    moves.append(time.monotonic())
                if message.get("type") == "pong":
                    pings.append((sent, time.monotonic() - sent))
                    break
            pause = sent + 0.1 - time.monotonic()
            while pause > 0:
                try:
                    message = json.loads(ws.recv(timeout=pause))
                except TimeoutError:
                    break
                if message.get("type") == "event":
                    moves.append(time.monotonic())
                pause = sent + 0.1 - time.monotonic()
    out.write_text(json.dumps({"pings": pings, "moves": moves}))


# -- the flooders (this process) -------------------------------------------------------------------------------

class Flooders:
    """``count`` clients that ask for states and never read; each connects again when cut off."""

    def __init__(self, port: int, count: int) -> None:
        self.port = port
        self.paths = [new_table(port, f"127.0.3.{2 + n}", f"F{n}")[0] for n in range(count)]
        self.stop = threading.Event()
        self.cut = 0
        self.sent = 0
        self.thread = threading.Thread(target=self.run, daemon=True)

    def connect(self, n: int) -> socket.socket:
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)    # a small window: the server's buffers fill soon
        s.bind((f"127.0.3.{2 + n}", 0))
        s.connect(("127.0.0.1", self.port))
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall(f"GET {self.paths[n]} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
        s.settimeout(10)
        head = b""
        while b"\r\n\r\n" not in head:      # the upgrade's answer first: frames sent with the request are lost
            chunk = s.recv(4096)
            if not chunk:
                raise OSError("closed before the upgrade")
            head += chunk
        s.sendall(frame('{"type": "hello"}'))
        s.setblocking(False)
        return s

    def run(self) -> None:
        ask = frame('{"type": "state"}') * 50
        socks: list[socket.socket | None] = [None] * len(self.paths)
        while not self.stop.is_set():
            for n, s in enumerate(socks):
                try:
                    if s is None:
                        socks[n] = s = self.connect(n)
                    self.sent += s.send(ask) // len(frame('{"type": "state"}'))
                except BlockingIOError:
                    pass
                except OSError:         # cut off: connect again
                    self.cut += 1
                    if s is not None:
                        s.close()
                    socks[n] = None
            time.sleep(0.002)
        for s in socks:
            if s is not None:
                s.close()


def summary(samples: dict[str, Any], start: float, end: float) -> dict[str, float]:
    rtts = sorted(rtt for when, rtt in samples["pings"] if start <= when < end)
    moves = [t for t in samples["moves"] if start <= t < end]
    if not rtts:
        return {"pings": 0}
    return {"pings": len(rtts), "p50_ms": round(rtts[len(rtts) // 2] * 1000, 1),
            "p99_ms": round(rtts[min(len(rtts) - 1, int(len(rtts) * 0.99))] * 1000, 1),
            "max_ms": round(rtts[-1] * 1000, 1), "moves_per_s": move_rate(moves)}


def move_rate(moves: list[float]) -> float:
    """Moves a second while the table is playing: the pauses between deals (over a second) are left out, so
    the rate does not depend on where the window cuts the deals."""
    gaps = [b - a for a, b in zip(moves, moves[1:], strict=False) if b - a < 1.0]
    return round(len(gaps) / sum(gaps), 2) if gaps else 0.0


def burn(stop: Any) -> None:
    """Keep one core busy (the machine's load, as a busy server's neighbours make it)."""
    while not stop.is_set():
        sum(range(10_000))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--canary":
        canary(int(sys.argv[2]), float(sys.argv[3]), Path(sys.argv[4]))
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", default="src", help="the checkout's src to serve from")
    ap.add_argument("--flooders", type=int, default=12)
    ap.add_argument("--seconds", type=float, default=40.0, help="seconds of flood")
    ap.add_argument("--quiet", type=float, default=15.0, help="seconds alone first")
    ap.add_argument("--bot-delay", type=float, default=0.1)
    ap.add_argument("--burn", type=int, default=0, help="processes keeping a core busy meanwhile (load)")
    args, serve_args = ap.parse_known_args()
    port = free_port()
    # the server's log goes to $PROBE_LOG when asked (at $PROBE_LEVEL)
    with tempfile.TemporaryDirectory() as tmp, Path(os.environ.get("PROBE_LOG", os.devnull)).open("w") as log:
        env = {**os.environ, "PYTHONPATH": str(Path(args.src).resolve())}
        server = subprocess.Popen([sys.executable, "-m", "fiftysix", "serve", "--port", str(port),
                                   "--log-level", os.environ.get("PROBE_LEVEL", "warning"),
                                   "--db", f"sqlite+aiosqlite:///{tmp}/probe.db", "--bot-delay", str(args.bot_delay),
                                   *serve_args], env=env, stderr=log)
        try:
            deadline = time.monotonic() + 120     # a loaded machine (load 20+) took over 30 s to start it
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/static/extras.css", timeout=2).read()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
            flooders = Flooders(port, args.flooders)
            stop_burning = multiprocessing.Event()
            burners = [multiprocessing.Process(target=burn, args=(stop_burning,), daemon=True)
                       for _ in range(args.burn)]
            for b in burners:
                b.start()
            out = Path(tmp) / "canary.json"
            total = args.quiet + args.seconds
            bird = subprocess.Popen([sys.executable, __file__, "--canary", str(port), str(total), str(out)], env=env)
            started = time.monotonic()
            time.sleep(args.quiet)
            flooders.thread.start()
            bird.wait(timeout=total + 120)
            flooders.stop.set()
            flooders.thread.join()
            stop_burning.set()
            for b in burners:
                b.join()
            samples = json.loads(out.read_text())
        finally:
            server.terminate()
            server.wait(timeout=20)
    # the canary's clock and this one are both CLOCK_MONOTONIC: the flood began quiet seconds after it started
    first = min(when for when, _ in samples["pings"])
    alone = summary(samples, first + 3, first + args.quiet - 0.5)      # after the first deal's start-up
    flooded = summary(samples, first + args.quiet, first + total)
    print(json.dumps({"flooders": args.flooders, "seconds": args.seconds, "alone": alone, "flooded": flooded,
                      "cut_off": flooders.cut, "asked": flooders.sent, "load": os.getloadavg()[0],
                      "elapsed_s": round(time.monotonic() - started, 1)}))


if __name__ == "__main__":
    main()

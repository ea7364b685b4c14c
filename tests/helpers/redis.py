"""A throwaway ``redis-server`` for the cluster tests: on 127.0.0.1, a free port, no persistence, in a
temporary directory; stopped (SIGTERM, then SIGKILL) and removed at the end.  Every wait is bounded."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

START_TIMEOUT = 15      # seconds for the server to answer PING


def find_server() -> Path | None:
    """The ``redis-server`` binary (PATH, then Debian's place), or ``None`` when it is not installed."""
    found = shutil.which("redis-server") or ("/usr/bin/redis-server" if Path("/usr/bin/redis-server").is_file()
                                             else None)
    return Path(found) if found else None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pong(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(64).startswith(b"+PONG")
    except OSError:
        return False


@contextlib.contextmanager
def server(binary: Path) -> Iterator[str]:
    """Start a Redis server; yield its URL (database 0)."""
    root = Path(tempfile.mkdtemp(prefix="fiftysix-redis-"))
    proc: subprocess.Popen[bytes] | None = None
    try:
        for attempt in range(5):    # the free port may be taken between finding it and listening on it
            port = _free_port()
            proc = subprocess.Popen([str(binary), "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                     "--appendonly", "no", "--dir", str(root), "--loglevel", "warning",
                                     "--logfile", str(root / "log")],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=root)
            deadline = time.monotonic() + START_TIMEOUT
            while proc.poll() is None and not _pong(port) and time.monotonic() < deadline:
                time.sleep(0.05)
            if proc.poll() is None and _pong(port):
                break
            _stop(proc)
            if attempt == 4:
                log = (root / "log").read_text(errors="replace") if (root / "log").exists() else ""
                raise RuntimeError(f"redis-server did not start:\n{log}")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        if proc is not None:
            _stop(proc)
        shutil.rmtree(root, ignore_errors=True)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)

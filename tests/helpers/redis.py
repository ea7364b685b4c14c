"""A throwaway ``redis-server`` for the cluster tests: on 127.0.0.1, a free port, no persistence, in a
temporary directory; stopped (SIGTERM, then SIGKILL) and removed at the end; an outage test may stop it and
start it again on the same port.  Every wait is bounded."""

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


class Server:
    """One ``redis-server`` on a loopback port, in its own folder; :meth:`stop` and :meth:`start` take it down
    and bring it back on the same port (empty: it keeps nothing, as a Redis without persistence restarts)."""

    def __init__(self, binary: Path) -> None:
        self.binary = binary
        self.root = Path(tempfile.mkdtemp(prefix="fiftysix-redis-"))
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _launch(self) -> bool:
        self.proc = subprocess.Popen([str(self.binary), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no", "--dir", str(self.root), "--loglevel", "warning",
                                      "--logfile", str(self.root / "log")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.root)
        deadline = time.monotonic() + START_TIMEOUT
        while self.proc.poll() is None and not _pong(self.port) and time.monotonic() < deadline:
            time.sleep(0.05)
        if self.proc.poll() is None and _pong(self.port):
            return True
        _stop(self.proc)
        return False

    def start(self) -> None:
        """Start it: on a free port the first time, on the same port after :meth:`stop`.

        :raises RuntimeError: when it does not answer PING within :data:`START_TIMEOUT` seconds.
        """
        again = self.port != 0
        for _ in range(1 if again else 5):     # a free port may be taken before it listens on it
            if not again:
                self.port = _free_port()
            if self._launch():
                return
        log = (self.root / "log").read_text(errors="replace") if (self.root / "log").exists() else ""
        raise RuntimeError(f"redis-server did not start on port {self.port}:\n{log}")

    def stop(self, crash: bool = True) -> None:
        """Take it down: SIGKILL (a crash: clients see their connections reset) or, with ``crash=False``, SIGTERM."""
        if self.proc is None:
            return
        if crash and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        _stop(self.proc)
        self.proc = None

    def close(self) -> None:
        self.stop(crash=False)
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def server(binary: Path) -> Iterator[Server]:
    """Start a Redis server; yield it (its :attr:`Server.url` names database 0); stopped and removed at the end."""
    s = Server(binary)
    try:
        s.start()
        yield s
    finally:
        s.close()


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)

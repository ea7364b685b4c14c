"""A throwaway PostgreSQL cluster for the server tests: ``initdb`` into a temporary directory, ``pg_ctl``
start on 127.0.0.1 (a free port, and a unix socket in that directory), a fresh database per test, and
``pg_ctl stop`` plus removal at the end.

The binaries are looked up on ``PATH`` and in ``/usr/lib/postgresql/<version>/bin`` (Debian's place);
``PG_BIN`` names a directory to use instead.  PostgreSQL refuses to run as root, so as root the cluster
belongs to and runs as the ``postgres`` system user (or ``nobody`` when there is none).  Every wait is
bounded in time.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

START_TIMEOUT = 30      # seconds for initdb, and for pg_ctl start/stop
SUPERUSER = "postgres"


def find_bin() -> Path | None:
    """The directory holding initdb, pg_ctl, postgres and psql, or ``None`` when PostgreSQL is not installed."""
    candidates: list[Path] = []
    if os.environ.get("PG_BIN"):
        candidates.append(Path(os.environ["PG_BIN"]))
    found = shutil.which("pg_ctl")
    if found:
        candidates.append(Path(found).resolve().parent)
    debian = Path("/usr/lib/postgresql")
    if debian.is_dir():
        versions = [p for p in debian.iterdir() if p.name.split(".")[0].isdigit()]
        versions.sort(key=lambda p: [int(x) for x in p.name.split(".") if x.isdigit()], reverse=True)
        candidates += [p / "bin" for p in versions]
    for folder in candidates:
        if all((folder / name).is_file() and os.access(folder / name, os.X_OK)
               for name in ("initdb", "pg_ctl", "postgres", "psql")):
            return folder
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run_as() -> dict[str, Any]:
    """subprocess arguments that drop root to an unprivileged user (nothing when not root)."""
    if os.geteuid() != 0:
        return {}
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            user = pwd.getpwnam(name)
            return {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
    raise RuntimeError("running as root and there is neither a postgres nor a nobody user to run PostgreSQL as")


@dataclass
class Cluster:
    bin: Path
    root: Path
    port: int
    options: str = ""
    as_user: dict[str, Any] = field(default_factory=dict)

    def _pg_ctl(self, *args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([str(self.bin / "pg_ctl"), *args, "-D", str(self.root / "data"), "-w",
                               "-t", str(START_TIMEOUT)], capture_output=True, timeout=START_TIMEOUT + 10,
                              cwd=self.root, **self.as_user)

    def stop(self) -> None:
        """Stop the server at once, as a crash would (``-m immediate``: no checkpoint, connections cut)."""
        done = self._pg_ctl("stop", "-m", "immediate")
        if done.returncode != 0:
            raise RuntimeError(f"pg_ctl stop failed: {done.stderr.decode(errors='replace')}")

    def start(self, settings: str = "") -> None:
        """Start it again on the same port and data (after :meth:`stop`); ``settings``: more ``-c name=value``
        options, after (so over) the session's own (``ALTER SYSTEM`` cannot change what a command line sets)."""
        done = self._pg_ctl("start", "-l", str(self.root / "log"), "-o", f"{self.options} {settings}".strip())
        if done.returncode != 0:
            raise RuntimeError(f"pg_ctl start failed: {done.stderr.decode(errors='replace')}")

    def url(self, dbname: str) -> str:
        return f"postgresql+asyncpg://{SUPERUSER}@127.0.0.1:{self.port}/{dbname}"

    def sql(self, statement: str) -> None:
        """Run one statement in the ``postgres`` database (over the unix socket in the cluster's folder)."""
        subprocess.run([str(self.bin / "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", str(self.root),
                        "-p", str(self.port), "-U", SUPERUSER, "-d", "postgres", "-c", statement],
                       check=True, capture_output=True, timeout=START_TIMEOUT)

    def create_database(self, name: str) -> str:
        """A new empty database; its SQLAlchemy URL."""
        self.sql(f'CREATE DATABASE "{name}"')
        return self.url(name)


@contextlib.contextmanager
def cluster(bin_dir: Path) -> Iterator[Cluster]:
    """Start a cluster in a new temporary directory; stop it and remove the directory afterwards."""
    as_user = _run_as()
    root = Path(tempfile.mkdtemp(prefix="fiftysix-pg-"))
    try:
        if as_user:
            os.chown(root, as_user["user"], as_user["group"])
        data = root / "data"
        subprocess.run([str(bin_dir / "initdb"), "-D", str(data), "-U", SUPERUSER, "--auth=trust",
                        "--encoding=UTF8", "--no-locale", "--no-sync"],
                       check=True, capture_output=True, timeout=START_TIMEOUT, cwd=root, **as_user)
        for attempt in range(5):   # the free port may be taken between finding it and listening on it
            port = _free_port()
            options = (f"-c listen_addresses=127.0.0.1 -p {port} -k {root} -c fsync=off "
                       "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
            started = subprocess.run([str(bin_dir / "pg_ctl"), "start", "-D", str(data), "-w",
                                      "-t", str(START_TIMEOUT), "-l", str(root / "log"), "-o", options],
                                     capture_output=True, timeout=START_TIMEOUT + 10, cwd=root, **as_user)
            if started.returncode == 0:
                break
            if attempt == 4:
                log = (root / "log").read_text(errors="replace") if (root / "log").exists() else ""
                raise RuntimeError(f"pg_ctl start failed: {started.stderr.decode(errors='replace')}\n{log}")
        try:
            yield Cluster(bin_dir, root, port, options, as_user)
        finally:
            subprocess.run([str(bin_dir / "pg_ctl"), "stop", "-D", str(data), "-m", "immediate", "-w",
                            "-t", str(START_TIMEOUT)],
                           capture_output=True, timeout=START_TIMEOUT + 10, cwd=root, **as_user)
    finally:
        shutil.rmtree(root, ignore_errors=True)

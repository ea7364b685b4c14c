"""The review pool's workers end with the server: at a clean stop even in the middle of a review, and when the
server is killed with ``kill -9`` (a worker left behind would keep a core busy for minutes with nobody to read it)."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fiftysix.server.review import Reviews

ROOT = Path(__file__).resolve().parents[2]


def gone(pid: int, seconds: float = 10.0) -> bool:
    """Whether process ``pid`` has ended (or is a zombie nobody reaped yet) within ``seconds``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.1)
    return False


def test_closing_the_reviews_stops_a_worker_in_the_middle_of_a_review() -> None:
    async def main() -> int:
        reviews = Reviews(workers=1)
        before = {p.pid for p in multiprocessing.active_children()}
        busy = reviews._executor().submit(time.sleep, 120)      # a review that would take two minutes
        await asyncio.sleep(0)
        for _ in range(100):
            workers = {p.pid for p in multiprocessing.active_children()} - before
            if workers and busy.running():
                break
            await asyncio.sleep(0.1)
        assert busy.running() and len(workers) == 1, workers
        reviews.close()
        return workers.pop()

    worker = asyncio.run(main())
    assert gone(worker), f"the review worker {worker} still runs after close()"
    multiprocessing.active_children()       # reap it


SERVER = """
import asyncio, multiprocessing, sys, time
from fiftysix.server.review import Reviews

async def main():
    reviews = Reviews(workers=1)
    busy = reviews._executor().submit(time.sleep, 120)
    while not busy.running():
        await asyncio.sleep(0.05)
    print(*[p.pid for p in multiprocessing.active_children() if p.name != 'resource_tracker'], flush=True)
    await asyncio.sleep(120)

asyncio.run(main())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
def test_a_server_killed_with_kill_9_leaves_no_review_worker_behind() -> None:
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE, text=True, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    try:
        assert server.stdout is not None
        workers = [int(pid) for pid in server.stdout.readline().split()]
        assert len(workers) == 1, workers
        assert not gone(workers[0], 0.5)          # computing
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        assert gone(workers[0]), f"the review worker {workers[0]} outlived its server"
    finally:
        server.kill()
        for pid in workers if "workers" in locals() else []:
            if not gone(pid, 0):
                os.kill(pid, signal.SIGKILL)

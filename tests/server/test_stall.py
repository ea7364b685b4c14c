"""Clients that send but never read must not stall other tables (issue 41).

Runs bench/stall_probe.py as it is documented: ``fiftysix serve`` in a process of its own, a canary in another
(an all-computer table it pings every 100 ms), 12 clients that ask for full states and never read, for 40 s, with
two more processes keeping the cores busy (the load at which the stall showed: a ping took 10.5 s, the canary's
table moved at a quarter of its rate).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the flooders use 127.0.3.x source addresses")
@pytest.mark.serial      # a time budget: run alone (make test)
def test_twelve_clients_that_never_read_leave_another_tables_pings_and_moves_alone() -> None:
    probe = subprocess.run([sys.executable, str(ROOT / "bench" / "stall_probe.py"), "--src", str(ROOT / "src"),
                            "--flooders", "12", "--seconds", "40", "--quiet", "12", "--burn", "2"],
                           capture_output=True, text=True, timeout=240, check=True)
    figures = json.loads(probe.stdout.strip().splitlines()[-1])
    alone, flooded = figures["alone"], figures["flooded"]
    assert figures["asked"] > 100_000, figures          # the flooders did flood
    assert flooded["pings"] >= 300, figures             # a ping every 100 ms got its pong all along
    # Before the fix: p50 494 ms, max 10.5 s, moves 9.9 -> 2.6 a second. The bounds leave room for a busy CI
    # machine's scheduling (one run on record: p99 38 ms, max 296 ms) and still fail on the old behaviour.
    assert flooded["p50_ms"] <= 50, figures
    assert flooded["p99_ms"] <= 250, figures
    assert flooded["max_ms"] <= 2_000, figures
    assert flooded["moves_per_s"] >= 0.8 * alone["moves_per_s"], figures

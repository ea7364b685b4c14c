"""The arena on a local Ray cluster of one node gives the same result as one process for the same seed."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ray")

from fiftysix.arena import ArenaConfig, run_arena, summarize  # noqa: E402
from helpers.paths import SRC  # noqa: E402

pytestmark = pytest.mark.slow

RAY = shutil.which("ray") or str(Path(sys.executable).with_name("ray"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_head(env: dict[str, str]) -> int:
    """``ray start --head`` on 127.0.0.1 with one CPU, on a free port (returned)."""
    port = free_port()
    start = subprocess.run([RAY, "start", "--head", "--port", str(port), "--node-ip-address", "127.0.0.1",
                            "--num-cpus", "1", "--include-dashboard=false", "--disable-usage-stats"],
                           env=env, capture_output=True, text=True, timeout=180)
    assert start.returncode == 0, start.stderr[-2000:]
    return port


@pytest.fixture(scope="module")
def cluster():
    """``ray start --head`` on the loopback address with one CPU; ``ray stop`` afterwards."""
    env = {**os.environ, "PYTHONPATH": str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "RAY_USAGE_STATS_ENABLED": "0",
           # a cluster on 127.0.0.1 of this test alone: no token (else a token left in ~/.ray by an earlier
           # ray.init decides whether the cluster and this client use one)
           "RAY_AUTH_MODE": "disabled",
           "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}   # Ray's switch that keeps every service on 127.0.0.1
    port = start_head(env)
    try:
        yield f"127.0.0.1:{port}", env
    finally:
        subprocess.run([RAY, "stop"], env=env, capture_output=True, timeout=120)


@pytest.mark.parametrize("preset", ["56-4", "55"])
def test_an_arena_on_ray_matches_one_process(cluster, tmp_path: Path, preset: str) -> None:
    address, env = cluster
    json_path = tmp_path / "ray.json"
    run = subprocess.run([sys.executable, "-m", "fiftysix.cli.main", "arena", "--rules", preset, "--bot", "random",
                          "--bot", "rules", "--deals", "9", "--seed", "4", "--ray", address, "--json", str(json_path)],
                         env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    on_ray = json.loads(json_path.read_text(encoding="utf-8"))
    config = ArenaConfig(preset, ("random", "rules"), deals=9, seed=4)
    result, elapsed = run_arena(config)
    here = summarize(config, result, elapsed)
    assert on_ray["per_deal"] == here["per_deal"]
    for a, b in zip(on_ray["bots"], here["bots"], strict=True):
        assert (a["mean_score"], a["mean_points"], a["declared"], a["made"]) == \
               (b["mean_score"], b["mean_points"], b["declared"], b["made"])
        assert a["paired_difference"] == b["paired_difference"]
        assert a["time_ms"]["decisions"] == b["time_ms"]["decisions"]
    assert "9/9" in run.stderr      # the progress bar went through every deal
    assert on_ray["ray"] == address and f"on the Ray cluster {address}" in run.stdout


def test_an_unreachable_cluster_is_a_clear_error() -> None:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(SRC), "RAY_USAGE_STATS_ENABLED": "0"}
    run = subprocess.run([sys.executable, "-m", "fiftysix.cli.main", "arena", "--rules", "56-4", "--bot", "random",
                          "--bot", "rules", "--deals", "2", "--ray", f"127.0.0.1:{port}", "--quiet"],
                         env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 2
    assert f"cannot join the Ray cluster at '127.0.0.1:{port}'" in run.stderr

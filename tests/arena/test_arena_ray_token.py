"""A real Ray head that asks for a token (Ray 2.59+, ``RAY_AUTH_MODE=token``): the arena says so in one sentence
with the fix, instead of Ray's retry lines and "Failed to connect" (issue 46)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

import pytest

pytest.importorskip("ray")

from test_arena_ray import RAY, start_head  # noqa: E402

from helpers.paths import SRC  # noqa: E402

pytestmark = pytest.mark.slow


def test_a_head_that_wants_a_token_is_named_in_one_sentence_with_the_fix(tmp_path: os.PathLike[str]) -> None:
    base = {**os.environ, "PYTHONPATH": str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""),
            "RAY_USAGE_STATS_ENABLED": "0", "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "HOME": str(tmp_path)}
    for key in ("RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH", "RAY_AUTH_MODE"):
        base.pop(key, None)
    head = {**base, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32)}
    port = start_head(head)
    try:
        run = subprocess.run([sys.executable, "-m", "fiftysix.cli.main", "arena", "--rules", "56-4", "--bot", "random",
                              "--bot", "rules", "--deals", "2", "--quiet", "--ray", f"127.0.0.1:{port}"],
                             env=base, capture_output=True, text=True, timeout=300)
    finally:
        subprocess.run([RAY, "stop"], env=head, capture_output=True, timeout=120)
    assert run.returncode == 2, run.stderr[-2000:]
    said = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(said) == 1, said[:5]
    assert "asks for Ray's authentication token" in said[0] and "RAY_AUTH_TOKEN" in said[0]
    assert "ray get-auth-token" in said[0]

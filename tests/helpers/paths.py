"""Where the repository's parts are, for tests that start a program or read a file of the repository."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The repository (the worktree) the tests run from."""
SRC = ROOT / "src"
"""The package sources, for ``PYTHONPATH`` of a program a test starts."""

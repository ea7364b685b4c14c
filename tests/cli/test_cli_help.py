"""The command line's help names every bot of the registry and each game's levels (issue 45 item 8)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from fiftysix.bots import BOTS
from fiftysix.bots.levels import levels_for


def registered(command: str) -> set[str]:
    """The package's bots a command's help must name (the unlisted cardplay wrapper: the arena's only)."""
    return {name for name, _game, make in BOTS.entries() if make.__module__.startswith("fiftysix.")
            and (name not in BOTS.unlisted or command == "arena")}


@pytest.mark.parametrize("command", ["bot", "deal", "arena"])
def test_help_names_every_registered_bot_and_the_levels(command: str) -> None:
    out = subprocess.run([sys.executable, "-m", "fiftysix", command, "--help"], capture_output=True, text=True,
                         check=True, env={"COLUMNS": "100", "PATH": ""}).stdout
    words = set(" ".join(out.split()).replace(",", " ").replace("(", " ").replace(")", " ").split())
    missing = registered(command) - words
    assert missing == set(), f"`fiftysix {command} --help` does not name {missing}"
    for game in ("56", "55"):
        for level, bot in levels_for(game).items():
            assert level in words and bot in words, (game, level, bot)

"""Every registered bot makes the same decisions, move by move, as when the golden file was written: the
guard of refactoring that must not change play (issue 29).

Each bot plays fixed arena deals of 56-4, 56-6 and 55 (4 players) against ``rules``, once from each team's
seats (the arena's two seatings, its deal and bot seeds), at settings that depend on no clock (``time_limit``
off) and are quick. Each deal's moves, every seat's, are kept as a short hash in ``same_play.json``.

To write the file again (only when a change of play is meant, and say so in the commit):
``PYTHONPATH=src:tests .venv/bin/python -m bots.test_same_play``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from fiftysix.arena.duplicate import bot_seed, deal_seed, resolve_rules
from fiftysix.bots.protocol import bot_from_spec
from fiftysix.views import view

GOLDEN = Path(__file__).with_name("same_play.json")
SEED = 29
OPPONENT = "rules"

# One spec per registered bot (the registry's names, each at settings without a clock), and the games it plays.
NO_CLOCK = "fast=true,time_limit=none"
BOTS = {
    "random": ("56", "55"),
    "rules": ("56", "55"),
    f"pimc,{NO_CLOCK}": ("56", "55"),
    f"sage,{NO_CLOCK}": ("56", "55"),
    f"kermit,{NO_CLOCK}": ("56",),
    f"reader,{NO_CLOCK}": ("56",),
    "ismcts,iterations=12,calls=rules": ("56", "55"),
    "ismcts,iterations=6,calls=search": ("56",),
}
PRESETS = {"56": ("56-4", "56-6"), "55": ("55",)}
DEALS = 2          # deal indices 0 .. DEALS-1 of the arena run of SEED
QUICK_DEALS = 4    # for the bots that do not search, which take no time


def cases() -> list[tuple[str, str, int]]:
    return [(spec, preset, index) for spec, games_ in BOTS.items() for game in games_
            for preset in PRESETS[game] for index in range(QUICK_DEALS if spec in ("random", "rules") else DEALS)]


def play(spec: str, preset: str, index: int, team: int) -> list[str]:
    """The moves of deal ``index``, ``spec`` at the seats of ``team`` and ``rules`` at the others."""
    game, rules = resolve_rules(preset)
    seed = deal_seed(SEED, index)
    deal = game.new_deal(rules, seed=seed)
    bots = [bot_from_spec(spec if rules.team_of[s] == team else OPPONENT, bot_seed(seed, s), game.name)
            for s in range(rules.players)]
    observers = [s for s, b in enumerate(bots) if hasattr(b, "observe")]
    moves = []
    while not deal.is_over:
        seat = deal.to_move
        move = bots[seat].choose(view(deal, seat))
        deal.push(move)
        moves.append(str(move))
        for s in observers:
            bots[s].observe(view(deal, s))   # type: ignore[attr-defined]
    return moves


def fingerprint(spec: str, preset: str, index: int) -> str:
    digest = hashlib.sha256()
    for team in (0, 1):
        digest.update(" ".join(play(spec, preset, index, team)).encode() + b"\n")
    return digest.hexdigest()[:16]


def key(spec: str, preset: str, index: int) -> str:
    return f"{spec} {preset} deal {index}"


@pytest.fixture(scope="module")
def golden() -> dict[str, str]:
    data: dict[str, str] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


def test_the_golden_file_covers_every_registered_bot(golden: dict[str, str]) -> None:
    from fiftysix.bots import BOTS as REGISTRY

    # the package's own bots (other tests may register bots of their own); an unlisted wrapper (cardplay: rules'
    # calls, another bot's cards) decides nothing of its own: tests/bots/test_cardplay.py holds it to its two bots
    names = {n for n, _game, make in REGISTRY.entries() if make.__module__.startswith("fiftysix.")
             and n not in REGISTRY.unlisted}
    assert names <= {spec.split(",")[0] for spec in BOTS}
    assert set(golden) == {key(*case) for case in cases()}


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "preset", "index"), cases())
def test_same_decisions_as_the_golden_file(golden: dict[str, str], spec: str, preset: str, index: int) -> None:
    assert fingerprint(spec, preset, index) == golden[key(spec, preset, index)]


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps({key(*case): fingerprint(*case) for case in cases()}, indent=1) + "\n",
                      encoding="utf-8")
    print(f"wrote {GOLDEN}", file=sys.stderr)

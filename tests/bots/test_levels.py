"""Levels (beginner, club, expert): each is a bot the server offers and a table can be filled with."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from fiftysix.bots import make_bot
from fiftysix.server.table.hub import bot_names, catalogue, creation_event


@pytest.mark.parametrize("game,preset", [("56", "56-6"), ("55", "55")])
def test_every_level_is_an_offered_bot(game: str, preset: str) -> None:
    levels = catalogue()[game]["levels"]
    assert set(levels) == {"beginner", "club", "expert"}
    for bot in levels.values():
        assert bot in bot_names(game)
        make_bot(bot, seed=1, game=game)
        event = creation_event("host", "Host", {"preset": preset, "fill": bot})
        assert event.fill == bot


@pytest.mark.parametrize("game", ["56", "55"])
def test_each_level_above_the_first_has_its_measured_figure_in_the_catalogue(game: str) -> None:
    """The host's picker shows each level's measured strength: a figure per level but the yardstick, each
    compared with a level the game has, from a run of real pairs, its mean inside its interval."""
    from fiftysix.bots.levels import FIGURES

    entry = catalogue()[game]
    figures = entry["level_figures"]
    assert set(figures) == {"club", "expert"}
    for level, f in figures.items():
        assert f == asdict(FIGURES[game][level])
        assert f["over"] in entry["levels"] and f["over"] != level
        assert f["pairs"] >= 300, (level, f)
        assert f["low"] <= f["value"] <= f["high"]
        assert f["kind"] in ("rating", "difference")
        if f["kind"] == "rating":       # a share of deal pairs won, in percent
            assert f["low"] > 0 and f["high"] < 100
        assert all(p in entry["presets"] for p in f["preset"].split(","))

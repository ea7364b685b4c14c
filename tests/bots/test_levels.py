"""Levels (beginner, club, expert): each is a bot the server offers and a table can be filled with."""

from __future__ import annotations

import pytest

from fiftysix.bots import make_bot
from fiftysix.server.hub import bot_names, catalogue, creation_event


@pytest.mark.parametrize("game,preset", [("56", "56-6"), ("55", "55")])
def test_every_level_is_an_offered_bot(game: str, preset: str) -> None:
    levels = catalogue()[game]["levels"]
    assert set(levels) == {"beginner", "club", "expert"}
    for bot in levels.values():
        assert bot in bot_names(game)
        make_bot(bot, seed=1, game=game)
        event = creation_event("host", "Host", {"preset": preset, "fill": bot})
        assert event["fill"] == bot

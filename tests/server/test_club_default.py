"""Computer players are chosen by level: the club player unless the host names another (issue 45 item 2)."""

from __future__ import annotations

import pytest

from fiftysix.bots.levels import club_bot, levels_for
from fiftysix.server.state.table import TableState
from fiftysix.server.table.hub import creation_event
from fiftysix.server.table.messages import Presence, table_info


@pytest.mark.parametrize("game", ["56", "55"])
def test_the_club_bot_is_the_club_level_and_never_random(game: str) -> None:
    assert club_bot(game) == levels_for(game)["club"]
    assert club_bot(game) != "random"


@pytest.mark.parametrize("preset", ["56-4", "56-6", "55"])
def test_a_table_without_fill_offers_the_club_player_and_names_it_by_level(preset: str) -> None:
    state = TableState("X")
    state.apply_event(creation_event("p-host", "Host", {"preset": preset, "fill": None}))
    info = table_info(state, Presence())
    assert info["add_bot"] == club_bot(state.game.name)
    state.apply({"kind": "bot", "player": "p-host", "seat": 1, "bot": info["add_bot"]})
    seat = table_info(state, Presence())["seats"][1]
    assert seat["kind"] == "bot" and seat["level"] == "club"


def test_a_person_who_stands_mid_deal_at_a_table_without_fill_leaves_the_club_player() -> None:
    state = TableState("X")
    state.apply_event(creation_event("p-host", "Host", {"preset": "56-4", "fill": None}))
    state.apply({"kind": "join", "player": "p-ben", "name": "Ben"})
    state.apply({"kind": "sit", "player": "p-ben", "seat": 1})
    for seat in (2, 3):
        state.apply({"kind": "bot", "player": "p-host", "seat": seat, "bot": club_bot("56")})
    state.apply({"kind": "start", "player": "p-host", "seed": 5, "dealer": 0})
    state.apply({"kind": "stand", "player": "p-ben"})
    assert state.seats[1].bot == club_bot("56")

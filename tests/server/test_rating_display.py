"""One rating figure (issue 57 item 1): the server's ``display`` is never negative, the same for a person in
their history, their club's leaderboard and the lobby, and a match's shown change adds up."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("openskill")

from test_history_api import T1, T2, new_player, signed_in, store_match  # noqa: E402

from fiftysix.server.matches import rating  # noqa: E402
from helpers.server import client, create  # noqa: E402


@given(mu=st.floats(-1e6, 1e6), sigma=st.floats(0.0, 1e3))
def test_the_display_figure_is_never_negative(mu: float, sigma: float) -> None:
    figure = rating.display(mu)
    assert isinstance(figure, int) and figure >= 0
    assert rating.display(rating.MODEL.mu) == 1500      # a new player, as on chess sites


def test_one_figure_on_the_history_leaderboard_and_lobby_and_changes_add_up(db: str) -> None:
    with client(db) as c:
        a, token_a = new_player(c, "Asha")
        b, _ = new_player(c, "Biju")
        ch, _ = new_player(c, "Chitra")
        names = {a: "Asha", b: "Biju", ch: "Chitra"}
        store_match(db, "QWER", [a, b, ch, None], names, T1, (24, 0), regulars=(b,))
        store_match(db, "ASDF", [a, b, None, None], names, T2, (20, 4))
        signed_in(c, token_a)
        history = c.get("/api/players/me/history").json()
        mine = history["ratings"]["56"]
        assert mine["display"] >= 0 and mine["provisional"]
        newest, first = history["matches"]
        for m in (newest, first):
            shown = m["rating"]
            assert shown["display_change"] == shown["display_after"] - shown["display_before"]
            assert shown["display_before"] == rating.display(shown["before"][0])
        assert first["rating"]["display_before"] == 1500 and first["rating"]["display_change"] > 0
        assert newest["rating"]["display_before"] == first["rating"]["display_after"]
        assert newest["rating"]["display_after"] == mine["display"]
        club = c.post("/api/clubs", json={"name": "Thrissur 56"}).json()
        board = c.get(f"/api/clubs/{club['id']}/leaderboard?family=56").json()["members"]
        assert [m["rating"] for m in board if m["id"] == a] == [mine["display"]]
        code = create(c, token_a, preset="56-4", public=True, fill=None)
        c.cookies.clear()
        listed = [t for t in c.get("/api/lobby").json()["tables"] if t["code"] == code]
        assert [t["host_rating"]["display"] for t in listed] == [mine["display"]]


def test_a_computer_is_named_by_its_level_in_the_history() -> None:
    from fiftysix.bots.levels import levels_for
    from fiftysix.server.matches.queries import _level

    for game in ("56", "55"):
        for level, bot in levels_for(game).items():
            assert _level(game, bot) == level
    assert _level("56", "random") is None       # a bot of no level: the page names the program

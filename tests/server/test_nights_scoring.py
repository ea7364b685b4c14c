"""Club nights' scoring by comparison (issue 44): the worked example of docs/spec/club-nights.md and properties."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from fiftysix.server.nights.scoring import Seat, compare, finished_everywhere, places, standings


def test_the_worked_example_of_the_design_note() -> None:
    # 56-6, three tables, board 1: 40 made (+2), 40 failed (-3), 48 by the other side failed (+4).
    board = {1: (2, -2), 2: (-3, 3), 3: (4, -4)}
    got = compare(board)
    assert got == {1: (Fraction(1), Fraction(-1)), 2: (Fraction(-4), Fraction(4)), 3: (Fraction(3), Fraction(-3))}


def test_standings_count_only_boards_finished_everywhere_and_rank_ties_by_name() -> None:
    teams = {"Asha": Seat(1, 0), "Babu": Seat(2, 0), "Chinnu": Seat(3, 0)}
    results = {(1, 1): (2, -2), (2, 1): (-3, 3), (3, 1): (4, -4),
               (1, 2): (9, -9), (2, 2): (-9, 9)}          # board 2 is still in play at table 3
    table = standings(results, 3, 2, teams)
    assert [(s.team, s.score, s.boards) for s in table] == [
        ("Chinnu", Fraction(3), 1), ("Asha", Fraction(1), 1), ("Babu", Fraction(-4), 1)]
    results[(3, 2)] = (0, 0)
    table = standings(results, 3, 2, teams)
    assert [(s.team, s.score) for s in table] == [("Asha", 10), ("Chinnu", 3), ("Babu", -13)]
    assert places(standings({}, 3, 2, teams)) == [0, 0, 0]
    assert [s.team for s in standings({}, 3, 2, teams)] == ["Asha", "Babu", "Chinnu"]


Event = tuple[int, int, dict[tuple[int, int], list[int]]]
RESULT = st.lists(st.integers(-20, 20), min_size=2, max_size=2)


@st.composite
def events(draw: st.DrawFn) -> Event:
    tables, boards = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    results = {}
    for t in range(1, tables + 1):
        for b in range(1, boards + 1):
            if draw(st.booleans()):
                results[(t, b)] = draw(RESULT)
    return tables, boards, results


@given(st.dictionaries(st.integers(1, 9), RESULT, min_size=1))
def test_the_comparisons_of_a_board_sum_to_zero_in_every_direction(board: dict[int, list[int]]) -> None:
    got = compare(board)
    for d in range(2):
        assert sum(row[d] for row in got.values()) == 0


@given(st.lists(RESULT, min_size=1, max_size=8), st.randoms())
def test_permuting_the_tables_permutes_their_comparisons(rows: list[list[int]], rnd: object) -> None:
    order = list(range(len(rows)))
    rnd.shuffle(order)  # type: ignore[attr-defined]
    plain = compare(dict(enumerate(rows)))
    moved = compare({order[i]: rows[i] for i in range(len(rows))})
    assert all(moved[order[i]] == plain[i] for i in range(len(rows)))


@given(events(), st.data())
def test_a_board_unfinished_anywhere_never_moves_the_live_standings(event: Event, data: st.DataObject) -> None:
    tables, boards, results = event
    teams = {f"T{t}-{d}": Seat(t, d) for t in range(1, tables + 1) for d in range(2)}
    before = standings(results, tables, boards, teams)
    done = set(finished_everywhere(results, tables, boards))
    # change, add or remove any result of a board that some table has not finished
    open_boards = [b for b in range(1, boards + 1) if b not in done]
    if not open_boards:
        return
    board = data.draw(st.sampled_from(open_boards))
    missing = [t for t in range(1, tables + 1) if (t, board) not in results]
    changed = dict(results)
    for t in range(1, tables + 1):
        if t != missing[0]:
            changed[(t, board)] = data.draw(RESULT)
    assert standings(changed, tables, boards, teams) == before
    # and once that board is finished everywhere, the scores still sum to zero
    changed[(missing[0], board)] = data.draw(RESULT)
    assert sum(s.score for s in standings(changed, tables, boards, teams)) == 0


@given(st.lists(st.text(alphabet="abcdefgh", min_size=1, max_size=3), max_size=40), st.integers(1, 6),
       st.integers(1, 4), st.integers(1, 4), st.integers(0, 2**32))
def test_a_draw_puts_each_player_in_one_team_of_a_sides_size_in_an_open_place(
        players: list[str], tables: int, directions: int, per_team: int, seed: int) -> None:
    import random

    from fiftysix.server.nights.draw import draw, open_places

    taken = {Seat(1, 0)} if tables > 1 else set()
    places = open_places(tables, directions, taken)
    teams = draw(players, places, per_team, random.Random(seed))
    drawn = [p for _, members in teams for p in members]
    assert len(drawn) == len(set(drawn)) and set(drawn) <= set(players)
    assert all(0 < len(members) <= per_team for _, members in teams)
    assert [place for place, _ in teams] == places[:len(teams)]          # open places, in order, none twice
    assert not taken & {place for place, _ in teams}
    # everyone is drawn while there is room; a short team only at the end
    assert len(drawn) == min(len(set(players)), len(places) * per_team)
    assert all(len(members) == per_team for _, members in teams[:-1])

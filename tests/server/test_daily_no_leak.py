"""Today's deals (issue 58) over every route, as properties over random days: nothing of board k as another played
it (contract, result, hands, their table) reaches a reader before the reader finished board k (the daily page, a
board's page, the ranking, every read of another's table and its socket); one set per player per day, a second
start resumes it, and a board is stored and scored once.

Each example is a day of its own (the daily part's clock moved a day on), so claims do not carry over."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_clubs import who
from test_nights_no_leak import Reader, fresh_limits, read_as, socket_read, table_routes

from fiftysix.server.daily.part import daily_of
from fiftysix.server.daily.seeds import DAY
from fiftysix.server.matches.capture import MatchEnd
from fiftysix.server.matches.store import deal_row, record_match, write_deals
from helpers.daily import finish_deal_for_history, store_board
from helpers.server import client

BOARDS = 3
PLAYERS = ("Anu", "Biju", "Cheru")
DAYS = itertools.count(1)
MIDDAY = 1_800_000_000 // DAY * DAY + DAY // 2


@pytest.fixture
def daily_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FIFTYSIX_DAILY", f"56-4:{BOARDS}")
    monkeypatch.setenv("FIFTYSIX_DAILY_LEVEL", "beginner")


def secret(day: int, player: str, board: int) -> str:
    return f"SECRET-{day}-{player}-{board}"


def gain(player: str, board: int) -> int:
    return (len(player) * 7 + ord(player[0]) + board * 3) % 9 - 4


def new_day(c: Any) -> int:
    k = next(DAYS)
    daily_of(c.app.state.server).clock = lambda: MIDDAY + k * DAY
    return k


def start(c: Any, reader: Reader) -> dict[str, Any]:
    read_as(c, reader)
    r = c.post("/api/daily/start", json={"preset": "56-4"})
    assert r.status_code == 200, r.text
    return dict(r.json())


def expected_ranking(done: dict[str, int], counted: list[int]) -> list[tuple[int, float]]:
    """Comparison with the field restated by hand (the oracle): per counted board, each player's gain minus the
    average gain of those who finished it; sorted best first."""
    score: dict[str, Fraction] = {}
    for b in counted:
        played = [p for p in PLAYERS if done.get(p, 0) >= b]
        average = Fraction(sum(gain(p, b) for p in played), len(played))
        for p in played:
            score[p] = score.get(p, Fraction(0)) + gain(p, b) - average
    return sorted(((i, round(float(s), 2)) for i, s in enumerate(score.values())), key=lambda x: -x[1])


SHARED = 1_700_000_000
"""When the players' one table match together finished (:func:`together`)."""


async def _shared_match(server: Any, people: list[str]) -> None:
    end = MatchEnd("SHARED/1", "SHARED", 1, "56", "56-4", 1, 1, (0, 1, 0, 1), (0, 1), (24, 0), (12, 12), SHARED)
    async with server.db.engine.begin() as conn:
        await write_deals(conn, [deal_row("SHARED", 1, 1, {
            "match_no": 1, "people": list(people), "bots": [None] * 4, "played": [0, 1, 2, 3], "declarer": 0,
            "form": "number-suit", "made": True, "standings": [24, 0]})])
        assert await record_match(conn, end)


def together(c: Any, readers: dict[str, Reader]) -> str:
    """The players and Dev finished a table match together (so each may read the others' history) and are the
    members of one club (its leaderboard and recent matches); the club's id."""
    people = [readers[n] for n in (*PLAYERS, "Dev")]
    c.portal.call(_shared_match, c.app.state.server, [r.player for r in people])
    read_as(c, people[0])
    made = c.post("/api/clubs", json={"name": "Daily readers"}).json()
    for r in people[1:]:
        read_as(c, r)
        assert c.post("/api/clubs/join", json={"invite": made["invite"]}).status_code == 200
    return str(made["id"])


def people_pages(c: Any, club: str, readers: dict[str, Reader], reader: Reader, codes: list[str]) -> str:
    """Every player's history (matches, stats, partners, ratings), the club's page and leaderboard and the lobby:
    none holds anything of a daily table (daily boards are no table games: daily.md), so nothing of a daily board
    reaches a reader there, finished or not."""
    served = c.get("/api/lobby").text
    for owner in (*PLAYERS, "Dev"):
        history = c.get(f"/api/players/{readers[owner].player}/history")
        assert history.status_code == (200 if reader.player is not None else 401), history.text
        served += history.text
        if reader.player is not None:
            seen = history.json()
            assert [m["table"] for m in seen["matches"]] == ["SHARED"], (reader.name, owner, seen["matches"])
            assert {g: (s["matches"], s["deals"], s["declared"]) for g, s in seen["stats"].items()} == {
                "56": (1, 1, int(owner == PLAYERS[0]))}, (reader.name, owner, seen["stats"])
    if reader.player is not None:
        page = c.get(f"/api/clubs/{club}")
        board = c.get(f"/api/clubs/{club}/leaderboard", params={"family": "56"})
        assert board.status_code == 200, board.text
        assert {m["last_played"] for m in board.json()["members"]} == {SHARED}, board.text
        served += page.text + board.text
    assert not any(code in served for code in codes), (reader.name, served)
    return served


def check_day(c: Any, readers: dict[str, Reader], done: dict[str, int], club: str | None = None) -> None:
    """Each player in ``done`` starts the day's set and finishes its first ``done[p]`` boards (its table writing
    what a finished deal writes for history, its match ending at the last); then every reader probes every read,
    and what each was served holds a board of another only where the reader finished it."""
    fresh_limits(c)
    day = new_day(c)
    server = c.app.state.server
    tables = {}
    for p, n in done.items():
        made = start(c, readers[p])
        again = start(c, readers[p])            # a second start resumes: the same table
        assert again["code"] == made["code"] and again["resumed"]
        tables[p] = (made["code"], made["url"].split("#k=")[1])
        for b in range(1, n + 1):
            assert c.portal.call(store_board, server, made["code"], b, [gain(p, b), -gain(p, b)], secret(day, p, b))
            assert not c.portal.call(store_board, server, made["code"], b, [9, -9], "again")   # stored once
            c.portal.call(finish_deal_for_history, server, made["code"], b, [gain(p, b), -gain(p, b)],
                          secret(day, p, b), b == n)
    for reader in readers.values():
        fresh_limits(c)
        read_as(c, reader)
        mine = done.get(reader.name, 0)
        served = c.get("/api/daily").text
        if club is not None:
            served += people_pages(c, club, readers, reader, [code for code, _ in tables.values()])
        for b in range(1, BOARDS + 1):
            page = c.get(f"/api/daily/56-4/boards/{b}")
            assert (page.status_code == 200) == (reader.player is not None and b <= mine), (reader.name, b, page.text)
            served += page.text
            if page.status_code == 200:
                assert page.json()["players"] == sum(n >= b for n in done.values())
        ranked = c.get("/api/daily/56-4/ranking")
        if reader.player is not None:
            counted = list(range(1, mine + 1))
            assert ranked.json()["boards"] == counted
            assert [r["score"] for r in ranked.json()["ranking"]] == [s for _, s in expected_ranking(done, counted)]
        served += ranked.text
        for owner, (code, key) in tables.items():
            for path, through in table_routes(code, BOARDS):
                read = c.get(path, params={"k": key})
                own = reader.name == owner
                allowed = own or (through is not None and through <= min(mine, done[owner]))
                assert (read.status_code != 403) == allowed, (path, reader.name, owner, read.text)
                served += read.text
            served += socket_read(c, code, key, reader, reader.name == owner)
        for p, n in done.items():
            for b in range(1, n + 1):
                may = reader.name == p or (reader.player is not None and b <= mine)
                assert (secret(day, p, b) in served) <= may, (reader.name, p, b)
                if reader.player is not None and b <= mine:
                    assert secret(day, p, b) in served      # the board's page shows what the field bid


PROGRESS = st.dictionaries(st.sampled_from(PLAYERS), st.integers(0, BOARDS), min_size=1)


def test_no_route_serves_a_board_of_another_before_the_reader_finished_it(tmp_path: Path, daily_env: None) -> None:
    with client(tmp_path / "t.db") as c:
        readers = {n: Reader(n, *who(c, n), True) for n in (*PLAYERS, "Dev")}     # Dev never plays
        readers["signed out"] = Reader("signed out", None, None, False)
        club = together(c, readers)

        @settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        @given(PROGRESS)
        def check(done: dict[str, int]) -> None:
            check_day(c, readers, done, club)
        check()


@given(st.lists(st.tuples(st.sampled_from(PLAYERS), st.sampled_from(["start", "board"])), max_size=12))
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
def test_a_set_is_played_once_and_each_board_scored_once(tmp_path: Path, daily_env: None,
                                                          steps: list[tuple[str, str]]) -> None:
    """Random starts and finished boards, in any order and repeated: one table per player and day, a board stored
    once at it, the ranking counting each (player, board) once."""
    with client(tmp_path / f"twice{next(DAYS)}.db") as c:
        new_day(c)
        server = c.app.state.server
        readers = {n: Reader(n, *who(c, n), True) for n in PLAYERS}
        codes: dict[str, set[str]] = {}
        done: dict[str, int] = {}
        for p, step in steps:
            if step == "start" or p not in codes:
                codes.setdefault(p, set()).add(start(c, readers[p])["code"])
            if step == "board" and done.get(p, 0) < BOARDS:
                b = done.get(p, 0) + 1
                for _ in range(2):      # the last move's write comes twice (a retry): stored once
                    c.portal.call(store_board, server, next(iter(codes[p])), b, [gain(p, b), -gain(p, b)], "x")
                done[p] = b
        assert all(len(found) == 1 for found in codes.values()), codes
        judged, played = c.portal.call(daily_of(server).day, daily_of(server).today(), "56-4")
        ids = {readers[p].player: p for p in PLAYERS}
        assert sorted((ids[p], b) for p, b in played) == sorted((p, b) for p, n in done.items()
                                                                for b in range(1, n + 1))
        assert all(judged.finished[readers[p].player] == frozenset(range(1, n + 1)) for p, n in done.items() if n)
        for p, n in done.items():
            read_as(c, readers[p])
            view = c.get("/api/daily").json()["sets"][0]
            assert view["finished"] == list(range(1, n + 1))
            assert [r["score"] for r in c.get("/api/daily/56-4/ranking").json()["ranking"]] == [
                s for _, s in expected_ranking(done, list(range(1, n + 1)))]

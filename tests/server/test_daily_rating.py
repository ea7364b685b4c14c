"""The day's own rating (issue 58, item 5): when a day is over, each set's ranking of the people who finished every
board feeds the "daily" rating of its family through the library's update, each person a team of one placed by
their day score (ties share a place), exactly once however many closers and restarts; those who did not finish
are not rated; table and club ratings are untouched.  The oracle restates the scoring by hand."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openskill")
pytest.importorskip("sqlalchemy")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from openskill.models import ThurstoneMostellerFull  # noqa: E402
from sqlalchemy import select  # noqa: E402

from fiftysix.server.daily.closing import close_past, family, rate_set, rated  # noqa: E402
from fiftysix.server.daily.scoring import day_places  # noqa: E402
from fiftysix.server.daily.store import DailyStore  # noqa: E402
from fiftysix.server.matches import rating  # noqa: E402
from fiftysix.server.matches.schema import ratings  # noqa: E402
from fiftysix.server.storage.db import Database, deals  # noqa: E402
from helpers import pg  # noqa: E402

DAY, PRESET = "2027-01-04", "56-4"
TODAY = "2027-01-05"
TABLE = {"mu": 27.5, "sigma": 4.0, "matches": 12}     # a table rating of family 56 that must not move


def oracle_places(results: dict[str, list[int]], boards: int) -> dict[str, int]:
    """By hand: each board, a finisher's gain minus the average of everyone who played it; the sum over all the
    boards for those who played them all; places 0 best, equal sums sharing one."""
    score: dict[str, Fraction] = {}
    for b in range(boards):
        field = [p for p, r in results.items() if len(r) > b]
        if not field:
            continue
        average = Fraction(sum(results[p][b] for p in field), len(field))
        for p in field:
            score[p] = score.get(p, Fraction(0)) + results[p][b] - average
    done = {p: s for p, s in score.items() if len(results[p]) == boards}
    distinct = sorted(set(done.values()), reverse=True)
    return {p: distinct.index(s) for p, s in done.items()}


def expected(results: dict[str, list[int]], boards: int) -> dict[str, tuple[float, float]]:
    """The library's own update over the finishers (each from a new rating), or nothing for fewer than two."""
    places = oracle_places(results, boards)
    people = sorted(places)
    if len(people) < 2:
        return {}
    model = ThurstoneMostellerFull()
    new = model.rate([[model.rating()] for _ in people], ranks=[float(places[p]) for p in people])
    return {p: (float(r[0].mu), float(r[0].sigma)) for p, r in zip(people, new, strict=True)}


FIELDS = st.integers(1, 3).flatmap(lambda boards: st.tuples(st.just(boards), st.dictionaries(
    st.sampled_from([f"p{i}" for i in range(7)]),
    st.integers(0, boards).flatmap(lambda n: st.lists(st.integers(-4, 4), min_size=n, max_size=n)),
    min_size=1, max_size=7)))


@given(FIELDS)
def test_the_days_places_are_the_finishers_by_score_with_ties_sharing(case: tuple[int, dict[str, list[int]]]) -> None:
    boards, results = case
    field = {(p, b + 1): [r[b], -r[b]] for p, r in results.items() for b in range(len(r))}
    assert day_places(field, boards) == oracle_places(results, boards)


async def seed(url: str, results: dict[str, list[int]], boards: int) -> Database:
    """A database with the day's claims and stored boards, and a table rating of family 56 for everyone."""
    db = Database(url)
    await db.migrate()
    store = DailyStore(db.engine)
    async with db.engine.begin() as conn:
        await conn.execute(ratings.insert(), [{"player_id": p, "family": "56", "last_match": "T/1", **TABLE}
                                              for p in results])
    for i, (p, r) in enumerate(sorted(results.items())):
        claim, _ = await store.claim(DAY, PRESET, p, boards, "club")
        await store.set_code(claim, f"D{i:05d}")
        async with db.engine.begin() as conn:
            for b, gain in enumerate(r, 1):
                await conn.execute(deals.insert().values(table_code=f"D{i:05d}", number=b, record={},
                                                         result={"score": [gain, -gain], "contract": None}))
    return db


async def rows(db: Database) -> tuple[dict[tuple[str, str], tuple[float, float, int]], list[Any]]:
    async with db.engine.connect() as conn:
        found = {(r.player_id, r.family): (float(r.mu), float(r.sigma), int(r.matches))
                 for r in await conn.execute(select(ratings))}
        marks = list(await conn.execute(select(rated)))
    return found, marks


def check(found: dict[tuple[str, str], tuple[float, float, int]], marks: list[Any],
          results: dict[str, list[int]], boards: int) -> None:
    want = expected(results, boards)
    assert len(marks) == 1 and marks[0].players == len(want)        # rated once, and how many it rated
    daily = {p: v for (p, f), v in found.items() if f == family(PRESET) and v[2] > 0}
    assert set(daily) == set(want)           # only those who finished every board (and a field of two or more)
    for p, (mu, sigma) in want.items():
        assert daily[p] == (pytest.approx(mu), pytest.approx(sigma), 1)     # applied once
    for p in results:       # the table rating of family 56 is untouched
        assert found[(p, "56")] == (TABLE["mu"], TABLE["sigma"], TABLE["matches"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(FIELDS, st.lists(st.sampled_from(["close", "past", "restart"]), min_size=1, max_size=5))
def test_a_day_is_rated_once_by_the_librarys_update_however_often_it_is_closed(
        case: tuple[int, dict[str, list[int]]], closers: list[str]) -> None:
    """Random fields (sizes, scores, some stopping early) closed any number of times, by the set (``close``), by
    the lazy look at past days (``past``) and after a restart (a new connection pool): the ratings are the
    library's update of the finishers once."""
    boards, results = case

    async def run(folder: str) -> None:
        url = f"sqlite+aiosqlite:///{folder}/t.db"
        db = await seed(url, results, boards)
        done = 0
        for closer in closers:
            if closer == "restart":
                await db.close()
                db = Database(url)
                done += await close_past(db.engine, TODAY)
            elif closer == "past":
                done += await close_past(db.engine, TODAY)
            else:
                done += await rate_set(db.engine, DAY, PRESET, boards)
        assert done == 1
        assert await close_past(db.engine, DAY) == 0      # the day itself is not past on that day
        found, marks = await rows(db)
        await db.close()
        check(found, marks, results, boards)
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(folder))


CLOSER = """
import asyncio, sys
from fiftysix.server.daily.closing import rate_set
from fiftysix.server.storage.db import Database
async def main():
    db = Database(sys.argv[1])
    print(int(await rate_set(db.engine, sys.argv[2], sys.argv[3], int(sys.argv[4]))))
    await db.close()
asyncio.run(main())
"""

PG_FIELD = {"a": [3, 1], "b": [-2, 0], "c": [3, 1], "d": [0, 4], "e": [1]}     # a and c tie; e stopped early


@pytest.mark.db
def test_two_processes_and_a_restart_rate_a_day_once_on_postgresql(pg_cluster: pg.Cluster) -> None:
    url = pg_cluster.create_database("dailyrating")
    asyncio.run(_seed_and_close(url))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(__file__).parents[2] / "src"),
                                                                      os.environ.get("PYTHONPATH")]))}
    args = [sys.executable, "-c", CLOSER, url, DAY, PRESET, "2"]
    procs = [subprocess.Popen(args, env=env, stdout=subprocess.PIPE, text=True) for _ in range(2)]   # at once
    outs = [p.communicate(timeout=120)[0].strip() for p in procs]
    again = subprocess.run(args, env=env, stdout=subprocess.PIPE, text=True, timeout=120, check=True)  # a restart
    assert all(p.returncode == 0 for p in procs)
    assert sorted(outs) == ["0", "1"] and again.stdout.strip() == "0"       # one of them rated it
    found, marks = asyncio.run(_rows(url))
    check(found, marks, PG_FIELD, 2)
    assert found[("a", family(PRESET))][0] == found[("c", family(PRESET))][0]    # a tie shares a place


async def _seed_and_close(url: str) -> None:
    db = await seed(url, PG_FIELD, 2)
    await db.close()


async def _rows(url: str) -> tuple[dict[tuple[str, str], tuple[float, float, int]], list[Any]]:
    db = Database(url)
    try:
        return await rows(db)
    finally:
        await db.close()


def test_families_have_their_own_daily_rating() -> None:
    assert family("56-4") == "daily-56" and family("55-3") == "daily-55"
    assert all(len(family(p)) <= 8 for p in ("56-6", "55-4"))      # ratings.family is 8 characters
    assert rating.display(rating.MODEL.mu) == 1500


def test_the_first_read_after_the_day_rates_it_and_the_history_shows_it(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the server: nothing is rated while the day runs; after it, the first read rates the day once (no
    timer), the history shows the day's rating beside the others with the page's figure and provisional mark, a
    player who stopped early has none, and a daily table deals no board after its day."""
    from test_clubs import who
    from test_nights_no_leak import Reader, read_as

    from fiftysix.server.daily.part import daily_of
    from fiftysix.server.daily.seeds import DAY as SECONDS_A_DAY
    from fiftysix.server.state.errors import NoMoreDeals
    from helpers.daily import store_board
    from helpers.server import client

    monkeypatch.setenv("FIFTYSIX_DAILY", "56-4:2")
    monkeypatch.setenv("FIFTYSIX_DAILY_LEVEL", "beginner")
    midday = 1_800_000_000 // SECONDS_A_DAY * SECONDS_A_DAY + SECONDS_A_DAY // 2
    gains = {"Anu": [3, 2], "Biju": [-1, 0], "Cheru": [2]}      # Cheru stops after board 1
    with client(tmp_path / "t.db") as c:
        server = c.app.state.server
        daily = daily_of(server)
        daily.clock = lambda: midday
        people = {n: Reader(n, *who(c, n), True) for n in gains}
        codes = {}
        for n, results in gains.items():
            read_as(c, people[n])
            codes[n] = c.post("/api/daily/start", json={"preset": "56-4"}).json()["code"]
            for b, g in enumerate(results, 1):
                assert c.portal.call(store_board, server, codes[n], b, [g, -g], "x")
        read_as(c, people["Anu"])
        assert c.get("/api/daily").status_code == 200
        assert c.get("/api/players/me/history").json()["ratings"] == {}     # the day is not over: nothing rated
        daily.clock = lambda: midday + SECONDS_A_DAY
        with pytest.raises(NoMoreDeals):        # the set closed at midnight: Cheru's board 2 is never dealt
            c.portal.call(server.hub.board_seed, codes["Cheru"], 2)
        for n in ("Anu", "Biju", "Anu"):         # the first read rates the day, the next ones change nothing
            read_as(c, people[n])
            assert c.get("/api/daily").status_code == 200
        shown = {}
        for n in gains:
            read_as(c, people[n])
            shown[n] = c.get("/api/players/me/history").json()["ratings"]
        assert set(shown["Anu"]) == set(shown["Biju"]) == {"daily-56"} and shown["Cheru"] == {}
        anu, biju = shown["Anu"]["daily-56"], shown["Biju"]["daily-56"]
        want = expected({"a": [3, 2], "b": [-1, 0], "c": [2]}, 2)
        assert (anu["mu"], biju["mu"]) == (round(want["a"][0], 2), round(want["b"][0], 2))
        assert anu["display"] == rating.display(want["a"][0]) > biju["display"]
        assert anu["matches"] == biju["matches"] == 1 and anu["provisional"] and biju["provisional"]
        html = c.get("/static/history.js").text
        assert "Today's deals" in html and "rated days: {n}" in html

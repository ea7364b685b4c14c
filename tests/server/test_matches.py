"""Finished matches and ratings (issue 43): what a match end stores, that ratings are the library's own
numbers, exactly once however often a match end arrives, and the migration from today's schema."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openskill")
pytest.importorskip("sqlalchemy")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from openskill.models import ThurstoneMostellerFull  # noqa: E402
from sqlalchemy import select  # noqa: E402

from fiftysix.server.edge.limits import Limits  # noqa: E402
from fiftysix.server.matches import rating  # noqa: E402
from fiftysix.server.matches.capture import MatchEnd, places  # noqa: E402
from fiftysix.server.matches.schema import match_players, matches, ratings  # noqa: E402
from fiftysix.server.matches.store import deal_row, record_match, write_deals  # noqa: E402
from fiftysix.server.matches.subscribe import subscribe  # noqa: E402
from fiftysix.server.state.events import decode  # noqa: E402
from fiftysix.server.state.table import MATCH_OVER  # noqa: E402
from fiftysix.server.storage.db import Database  # noqa: E402
from fiftysix.server.table.hub import Hub  # noqa: E402
from fiftysix.server.table.live import Connection, Timing  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


# -- the model: the library's own numbers ------------------------------------------------------------------
def test_places_put_the_winner_first_and_share_ties() -> None:
    assert places((0, 24), 1) == (1, 0)
    assert places((-170, -105, 55, 30), 2) == (3, 2, 0, 1)
    assert places((5, 5, 9), None) == (1, 1, 0)


def test_rate_is_the_librarys_thurstone_mosteller_update() -> None:
    model = ThurstoneMostellerFull()
    a, b = rating.Entry("a", 27.0, 5.0, 3), rating.Entry("b", 22.0, 7.5, 1)
    bot = rating.anchor("56", "rules")
    got = rating.rate([[a, bot], [b, rating.anchor("56", "pimc")]], [1, 0])
    want = model.rate([[model.rating(mu=27.0, sigma=5.0), model.rating(mu=bot.mu, sigma=bot.sigma)],
                       [model.rating(mu=22.0, sigma=7.5), model.rating(mu=25.0, sigma=1.0)]], ranks=[1, 0])
    assert got == [[(r.mu, r.sigma) for r in team] for team in want]
    assert got[0][0][0] < 27.0 < got[1][0][0] + 5    # the loser went down, the winner up
    assert got[1][0][0] > 22.0


def test_anchors_are_one_per_level_and_unknown_bots_are_beginners() -> None:
    assert rating.anchor("56", "rules").mu == rating.ANCHORS["beginner"]
    assert rating.anchor("56", "pimc").mu == rating.ANCHORS["club"]
    assert rating.anchor("56", "sage,fast=true").mu == rating.ANCHORS["expert"]
    assert rating.anchor("55", "random").mu == rating.ANCHORS["beginner"]
    assert rating.anchor("56", "nobody").mu == rating.ANCHORS["beginner"]


def test_a_team_is_rated_only_against_teams_that_judge_it() -> None:
    alt, me = rating.new_entry("alt"), rating.new_entry("me")
    old = rating.Entry("old", 25, 3, rating.PROVISIONAL)
    bot = rating.anchor("56", "rules")
    assert rating.judged([[me], [alt]], 0) == []
    assert rating.judged([[me, bot], [alt, bot]], 0) == []          # a computer beside a new account: no judge
    assert rating.judged([[me, bot], [bot, bot]], 0) == [0, 1]
    assert rating.judged([[alt, bot], [old, bot]], 0) == [0, 1] and rating.judged([[alt, bot], [old, bot]], 1) == []
    assert rating.judged([[me], [alt], [old]], 1) == [1, 2]         # three teams: against the one that judges
    assert rating.judged([[bot, bot], [old]], 0) == []              # computers alone are not rated


# -- the store: a made-up match --------------------------------------------------------------------------
def facts(people: list[str | None], bots: list[str | None], standings: list[int], declarer: int | None = None,
          made: bool | None = None, form: str | None = None) -> dict[str, Any]:
    return {"match_no": 1, "people": people, "bots": bots, "played": list(range(len(people))),
            "declarer": declarer, "form": form, "made": made, "standings": standings}


END = MatchEnd("ABCD/1", "ABCD", 1, "56", "56-4", 1, 2, (0, 1, 0, 1), (1, 0), (0, 24), (12, 12), 1_700_000_000)
DEALS = [facts(["p1", "p2", None, None], [None, None, "rules", "pimc"], [9, 15], declarer=0, made=False,
               form="number-suit"),
         facts(["p1", "p2", None, None], [None, None, "rules", "pimc"], [0, 24], declarer=1, made=True,
               form="plus-suit")]


async def establish(db: Database, *people: str) -> None:
    """Make ``people`` regulars: established ratings at the library's starting values (so that a match between
    them rates both: :func:`rating.judged`)."""
    async with db.engine.begin() as conn:
        await conn.execute(ratings.insert(), [
            {"player_id": p, "family": "56", "mu": rating.MODEL.mu, "sigma": rating.MODEL.sigma,
             "matches": rating.PROVISIONAL, "last_match": ""} for p in people])


async def _fresh(url: str) -> Database:
    db = Database(url)
    await db.migrate()
    await establish(db, "p1", "p2")
    async with db.engine.begin() as conn:
        await write_deals(conn, [deal_row("ABCD", n, 1, f) for n, f in enumerate(DEALS, 1)])
    return db


async def _record(db: Database, end: MatchEnd = END) -> bool:
    async with db.engine.begin() as conn:
        return await record_match(conn, end)


async def _ratings(db: Database) -> dict[str, tuple[float, float, int]]:
    async with db.engine.connect() as conn:
        rows = await conn.execute(select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma, ratings.c.matches))
        return {r[0]: (float(r[1]), float(r[2]), int(r[3])) for r in rows}


def test_a_match_end_stores_stats_and_the_librarys_ratings(db: str) -> None:
    async def run() -> None:
        base = await _fresh(db)
        try:
            assert await _record(base)
            model = ThurstoneMostellerFull()
            want = model.rate([[model.rating(), model.rating(mu=18.0, sigma=1.0)],
                               [model.rating(), model.rating(mu=25.0, sigma=1.0)]], ranks=[1, 0])
            got = await _ratings(base)
            assert got["p1"] == (want[0][0].mu, want[0][0].sigma, rating.PROVISIONAL + 1)
            assert got["p2"] == (want[1][0].mu, want[1][0].sigma, rating.PROVISIONAL + 1)
            async with base.engine.connect() as conn:
                rows = {r.player_id: r for r in await conn.execute(select(match_players))}
                rated = (await conn.execute(select(matches.c.rated))).scalar_one()
            assert rated
            assert rows["p1"].rank == 1 and rows["p2"].rank == 0
            s1 = _obj(rows["p1"].stats)
            assert s1 == {"deals": 2, "declared": 1, "made": 0, "forms": {"number-suit": [1, 0]}, "gain": -12}
            assert _obj(rows["p2"].stats)["forms"] == {"plus-suit": [1, 1]}
        finally:
            await base.close()
    asyncio.run(run())


def test_a_match_of_computers_only_is_stored_and_rates_no_one(tmp_path: Path) -> None:
    async def run() -> None:
        base = Database(f"sqlite+aiosqlite:///{tmp_path / 'c.db'}")
        await base.migrate()
        try:
            async with base.engine.begin() as conn:
                await write_deals(conn, [deal_row("ABCD", 1, 1, facts([None] * 4, ["rules"] * 4, [0, 24]))])
                assert await record_match(conn, END)
            assert await _ratings(base) == {}
            async with base.engine.connect() as conn:
                assert (await conn.execute(select(matches.c.rated))).scalar_one() is False
        finally:
            await base.close()
    asyncio.run(run())


def _obj(value: Any) -> dict[str, Any]:
    import json
    return json.loads(value) if isinstance(value, str) else dict(value)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["same", "other"]), min_size=1, max_size=6))
def test_a_match_end_delivered_again_changes_ratings_once(deliveries: list[str]) -> None:
    """However many times the same match end arrives (a redelivery, a replay), interleaved with another match,
    the ratings are those of each match applied once."""
    other = MatchEnd("WXYZ/1", "ABCD", 1, "56", "56-4", 1, 2, (0, 1, 0, 1), (0, 1), (24, 0), (12, 12), 1)

    async def run(folder: str, order: list[str]) -> dict[str, tuple[float, float, int]]:
        base = await _fresh(f"sqlite+aiosqlite:///{folder}/r.db")
        try:
            for d in order:
                await _record(base, END if d == "same" else other)
            return await _ratings(base)
        finally:
            await base.close()

    once = [d for i, d in enumerate(deliveries) if d not in deliveries[:i]]
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        assert asyncio.run(run(a, deliveries)) == asyncio.run(run(b, once))


# -- a real table: the event that ends the match stores it -----------------------------------------------
async def play_match(url: str, preset: str = "56-4", bot: str = "random") -> tuple[Database, str]:
    db = Database(url)
    await db.migrate()
    await establish(db, "p1", "p2")
    hub = Hub(db, Timing(bot_delay=0, next_delay=0), Limits())
    subscribe(hub)          # history and ratings hear of every finished deal (as the server's app does)
    table = await hub.create("p1", "P1", {"preset": preset, "fill": bot, "grace": 0, "public": True})
    await table.submit(decode({"kind": "join", "player": "p2", "name": "P2"}))
    await table.submit(decode({"kind": "sit", "player": "p2", "seat": 1}))
    table.presence.covered.update({"p1", "p2"})      # both away: their computer players play for them
    table.conns.add(Connection(None, limit=1 << 30))  # someone watching, so deals follow one another
    await table.submit(decode({"kind": "start", "player": "p1", "dealer": 0, "seed": 7}))
    for _ in range(3600):      # random players: most matches end within seconds, a few take a minute
        if table.state.status == MATCH_OVER:
            break
        await asyncio.sleep(0.05)
    assert table.state.status == MATCH_OVER
    await hub.stop()
    return db, table.code


def test_a_played_match_is_in_both_histories_and_rated(db: str) -> None:
    async def run() -> None:
        base, code = await play_match(db)
        try:
            async with base.engine.connect() as conn:
                row = (await conn.execute(select(matches))).one()
                people = {r.player_id: r for r in await conn.execute(select(match_players))}
            assert row.id == f"{code}/1" and row.game == "56" and row.rated
            assert set(people) == {"p1", "p2"}
            assert people["p1"].team == 0 and people["p2"].team == 1
            assert people["p1"].rank != people["p2"].rank
            assert sum(_obj(r.stats)["deals"] for r in people.values()) == 2 * (row.last_deal - row.first_deal + 1)
            got = await _ratings(base)
            assert got["p1"][2] == got["p2"][2] == rating.PROVISIONAL + 1
            better, worse = sorted(people, key=lambda p: people[p].rank)
            assert got[better][0] > got[worse][0]
        finally:
            await base.close()
    asyncio.run(run())


# -- the migration: a database of today's schema and one of an older commit ------------------------------
def head() -> str:
    """The newest revision (later migrations, such as clubs' 0008, build on this one)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from fiftysix.server.storage.db import MIGRATIONS

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return str(ScriptDirectory.from_config(cfg).get_current_head())


def test_the_migration_upgrades_a_database_written_by_older_code(tmp_path: Path) -> None:
    old = tmp_path / "old.db"
    shutil.copy(FIXTURES / "stored-logs-e8e5a5c.db", old)
    with sqlite3.connect(old) as conn:
        events_before = conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]

    async def run() -> None:
        base, _code = await play_match(f"sqlite+aiosqlite:///{old}")
        await base.close()
    asyncio.run(run())
    with sqlite3.connect(old) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone()[0] == head()
        assert conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0] == 1
        assert conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] > events_before
        assert conn.execute("SELECT COUNT(*) FROM ratings").fetchone()[0] == 2


def test_the_migration_upgrades_todays_schema(db: str) -> None:
    """A database at today's head (0004) with a table in it upgrades in place, on SQLite and PostgreSQL."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import inspect, text

    from fiftysix.server.storage.db import MIGRATIONS

    def to_0004(conn: Any) -> None:
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0004_lease")

    async def run() -> set[str]:
        base = Database(db)
        try:
            async with base.engine.begin() as conn:
                await conn.run_sync(to_0004)
                await conn.execute(text("INSERT INTO tables (code, created, status) VALUES ('OLD1', 1, 'lobby')"))
            await base.migrate()
            assert await base.exists("OLD1")
            async with base.engine.connect() as conn:
                version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one()
                assert version == head()
                return set(await conn.run_sync(lambda sync: inspect(sync).get_table_names()))
        finally:
            await base.close()
    names = asyncio.run(run())
    assert {"matches", "match_players", "ratings", "deal_seats", "tables", "events"} <= names


def test_a_faulty_rating_update_never_stops_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: object) -> None:
        raise RuntimeError("a bug in the rating")
    monkeypatch.setattr(rating, "rate", broken)

    async def run() -> None:
        base, _code = await play_match(f"sqlite+aiosqlite:///{tmp_path / 'f.db'}")    # the match still ends
        try:
            assert all(count == rating.PROVISIONAL for _mu, _sigma, count in (await _ratings(base)).values())
            async with base.engine.connect() as conn:
                assert list(await conn.execute(select(matches))) == []
        finally:
            await base.close()
    asyncio.run(run())

"""Rating farming with computers (issue 43): "me + a computer against my new second account + a computer" at an
empty table, the second account throwing every match, moves my rating no more (it took 30 such matches from 25
to 37.3 before); a normal match with computers still rates.  The matches go through the store as a table's
match end does (:func:`record_match`)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

pytest.importorskip("openskill")

from sqlalchemy import select  # noqa: E402

from fiftysix.server.matches import rating  # noqa: E402
from fiftysix.server.matches.capture import MatchEnd  # noqa: E402
from fiftysix.server.matches.schema import matches, ratings  # noqa: E402
from fiftysix.server.matches.store import deal_row, record_match, write_deals  # noqa: E402
from fiftysix.server.storage.db import Database  # noqa: E402

Ratings = dict[str, tuple[float, float, int]]


async def play(db: Database, n: int, seats: list[str | None], bots: list[str | None]) -> bool:
    """Match ``n``: one deal of 56-4 won by team 0 (seats 0 and 2); whether it was rated."""
    code = f"F{n:03d}"
    facts = {"match_no": 1, "people": seats, "bots": bots, "played": [0, 1, 2, 3], "declarer": 1,
             "form": "number-suit", "made": False, "standings": [24, 0]}
    end = MatchEnd(f"{code}/1", code, 1, "56", "56-4", 1, 1, (0, 1, 0, 1), (0, 1), (24, 0), (12, 12),
                   1_700_000_000 + n, tuple((p, p) for p in seats if p))
    async with db.engine.begin() as conn:
        await write_deals(conn, [deal_row(code, 1, 1, facts)])
        assert await record_match(conn, end)
        return bool((await conn.execute(select(matches.c.rated).where(matches.c.id == end.id))).scalar_one())


async def now(db: Database) -> Ratings:
    async with db.engine.connect() as conn:
        rows = await conn.execute(select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma, ratings.c.matches))
        return {r[0]: (float(r[1]), float(r[2]), int(r[3])) for r in rows}


async def regular(db: Database, player: str, mu: float = 25.0, sigma: float = 3.0) -> None:
    async with db.engine.begin() as conn:
        await conn.execute(ratings.insert().values(player_id=player, family="56", mu=mu, sigma=sigma,
                                                   matches=rating.PROVISIONAL, last_match=""))


def run(tmp_path: Path, work: Callable[[Database], Awaitable[None]]) -> None:
    async def go() -> None:
        db = Database(f"sqlite+aiosqlite:///{tmp_path / 'farm.db'}")
        await db.migrate()
        try:
            await work(db)
        finally:
            await db.close()
    asyncio.run(go())


THROWN = ["main", "alt", "pimc", "pimc"]     # main + a computer (seats 0, 2) beat alt + a computer (1, 3)


def seats_of(order: list[str]) -> tuple[list[str | None], list[str | None]]:
    people: list[str | None] = [p if p not in ("pimc", "rules") else None for p in order]
    bots: list[str | None] = [p if p in ("pimc", "rules") else None for p in order]
    return people, bots


def test_thirty_matches_thrown_by_a_new_second_account_move_no_rating(tmp_path: Path) -> None:
    async def work(db: Database) -> None:
        people, bots = seats_of(THROWN)
        assert not any([await play(db, n, people, bots) for n in range(30)])
        got = await now(db)     # the rows made for the update, untouched: the library's start, no rated match
        assert got == {p: (rating.MODEL.mu, rating.MODEL.sigma, 0) for p in ("main", "alt")}
    run(tmp_path, work)


def test_an_established_account_gains_nothing_while_its_second_account_is_new(tmp_path: Path) -> None:
    async def work(db: Database) -> None:
        await regular(db, "main")
        people, bots = seats_of(THROWN)
        for n in range(rating.PROVISIONAL):
            assert await play(db, n, people, bots)      # rated: for the new account, against an established one
        got = await now(db)
        assert got["main"] == (25.0, 3.0, rating.PROVISIONAL)       # not moved
        assert got["alt"][0] < 25.0 - 8 and got["alt"][2] == rating.PROVISIONAL      # the throws sank it
    run(tmp_path, work)


def test_a_normal_match_with_computers_still_rates(tmp_path: Path) -> None:
    async def work(db: Database) -> None:
        people, bots = seats_of(["new", "pimc", "rules", "pimc"])     # a new person + a computer vs computers
        assert await play(db, 1, people, bots)
        got = await now(db)
        assert got["new"][0] > rating.MODEL.mu and got["new"][2] == 1
        await regular(db, "r1")
        await regular(db, "r2", mu=27.0)
        people, bots = seats_of(["r1", "r2", "pimc", "pimc"])          # two regulars, each with a computer
        assert await play(db, 2, people, bots)
        got = await now(db)
        assert got["r1"][0] > 25.0 > got["r2"][0] - 2 and got["r2"][0] < 27.0
        assert got["r1"][2] == got["r2"][2] == rating.PROVISIONAL + 1
        people, bots = seats_of(["new", "r1", "pimc", "pimc"])        # a newcomer against a regular
        before = await now(db)
        assert await play(db, 3, people, bots)
        got = await now(db)
        assert got["new"][0] > before["new"][0] and got["new"][2] == 2
        assert got["r1"] == before["r1"]        # a regular's rating does not move against an unknown newcomer
    run(tmp_path, work)

"""History and ratings at scale (issue 43): seed a throwaway PostgreSQL with players and finished matches, then
time a profile read (the history API's query) and a rating update (a match end's transaction).

    .venv/bin/python bench/accounts_scale.py --players 10000 --matches 200000 --samples 1000

Players come in groups of eight (a regular group; every match is among one group's people, two to four of them,
with computer players in the other seats of a 56-4 or 55 table), so each has some fifty matches and a handful of
partners.  The seed goes in by COPY; then ``ANALYZE``.  Timed, one at a time on one connection pool:

- **profile**: ``matches.queries.played_together`` (a co-player's permission) and ``matches.queries.profile``
  of a random player (ratings, stats over all their matches, results by partner, the first page);
- **rating update**: a new finished match of a random group (its six deals' ``deal_seats`` rows written first,
  untimed), ``record_match`` in its own transaction, commit included;
- **club leaderboard**: ``clubs.store.Clubs.leaderboard`` (the club page's query: its members, their ratings
  and when each last played) of a random club of ``--clubs`` (300), each of two to five whole groups (16 to 40
  members), in a random family.

The cluster is tests/helpers/pg.py's (``fsync=off``: commits cost no disk flush; the server's sessions still ask
``synchronous_commit=on``).  Prints p50/p99 in ms and the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fiftysix.server.clubs.store import Clubs  # noqa: E402
from fiftysix.server.matches.capture import MatchEnd  # noqa: E402
from fiftysix.server.matches.queries import played_together, profile  # noqa: E402
from fiftysix.server.matches.store import deal_row, record_match, write_deals  # noqa: E402
from fiftysix.server.storage.db import Database  # noqa: E402
from helpers import pg  # noqa: E402

GROUP = 8
DEALS = 6


def _pick(rng: random.Random, players: int) -> tuple[list[str], str]:
    group = rng.randrange(players // GROUP)
    people = rng.sample(range(GROUP), rng.randint(2, 4))
    return [f"p{group * GROUP + i:06d}" for i in people], rng.choice(["56", "55"])


def _rows(rng: random.Random, n: int, people: list[str], game: str) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]]:
    code, finished = f"B{n:07d}", 1_700_000_000 + n * 60
    teams = [i % 2 for i in range(4)]
    won = rng.randrange(2)
    ranks = [0 if t == won else 1 for t in range(2)]
    summary = {"team_of": teams, "ranks": ranks, "standings": [24, 0] if won == 0 else [0, 24],
               "people": {p: teams[i] for i, p in enumerate(people)},
               "bots": {str(teams[i]): ["rules"] for i in range(len(people), 4)},
               "names": {p: p.upper() for p in people}}
    match = (f"{code}/1", code, 1, game, "56-4" if game == "56" else "55", finished, 1, DEALS,
             json.dumps(summary), True)
    stats = {"deals": DEALS, "declared": 2, "made": 1, "forms": {"number-suit": [2, 1]} if game == "56" else {},
             "gain": rng.randint(-12, 12)}
    players = [(f"{code}/1", p, finished, teams[i], ranks[teams[i]], json.dumps(stats),
                json.dumps({"before": [25.0, 8.0], "after": [25.5, 7.9]})) for i, p in enumerate(people)]
    return match, players


def _clubs(rng: random.Random, players: int, count: int) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """``count`` clubs, each of two to five whole groups (members drawn from the groups; a player may be in many)."""
    club_rows, member_rows = [], []
    for k in range(count):
        groups = rng.sample(range(players // GROUP), rng.randint(2, 5))
        people = [f"p{g * GROUP + i:06d}" for g in groups for i in range(GROUP)]
        club_rows.append((f"club{k:04d}", f"Club {k}", people[0], None, False, 1_700_000_000))
        member_rows.extend((f"club{k:04d}", p, p.upper(), 1_700_000_000) for p in people)
    return club_rows, member_rows


async def seed(db: Database, players: int, matches: int, clubs: int, rng: random.Random) -> None:
    match_rows: list[tuple[Any, ...]] = []
    player_rows: list[tuple[Any, ...]] = []
    for n in range(matches):
        match, people = _rows(rng, n, *_pick(rng, players))
        match_rows.append(match)
        player_rows.extend(people)
    rating_rows = [(f"p{i:06d}", game, rng.gauss(25, 3), rng.uniform(1, 8), rng.randint(0, 60), "")
                   for i in range(players) for game in ("56", "55")]
    async with db.engine.connect() as conn:
        raw = (await conn.get_raw_connection()).driver_connection
        assert raw is not None
        await raw.copy_records_to_table("matches", records=match_rows)
        await raw.copy_records_to_table("match_players", records=player_rows)
        await raw.copy_records_to_table("ratings", records=rating_rows)
        club_rows, member_rows = _clubs(rng, players, clubs)
        await raw.copy_records_to_table("clubs", records=club_rows,
                                        columns=["id", "name", "owner", "invite_hash", "watchers", "created"])
        await raw.copy_records_to_table("club_members", records=member_rows,
                                        columns=["club_id", "player", "name", "joined"])
        await raw.execute("ANALYZE")
        await conn.commit()


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {statistics.median(ordered) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms ({len(ordered)} samples)"


async def time_profiles(db: Database, players: int, samples: int, rng: random.Random) -> list[float]:
    took = []
    for _ in range(samples):
        who = f"p{rng.randrange(players):06d}"
        viewer = f"p{(int(who[1:]) // GROUP) * GROUP + rng.randrange(GROUP):06d}"
        began = time.perf_counter()
        await played_together(db.engine, viewer, who)
        await profile(db.engine, who)
        took.append(time.perf_counter() - began)
    return took


async def time_ratings(db: Database, players: int, samples: int, first: int, rng: random.Random) -> list[float]:
    took = []
    for k in range(samples):
        people, game = _pick(rng, players)
        code = f"N{k:07d}"
        seats = [*people, *[None] * (4 - len(people))]
        bots = [None if p else "rules" for p in seats]
        facts = [{"match_no": 1, "people": seats, "bots": bots, "played": [0, 1, 2, 3], "declarer": d % 4,
                  "form": "number-suit", "made": d % 2 == 0, "standings": [12 + d, 12 - d]} for d in range(DEALS)]
        async with db.engine.begin() as conn:
            await write_deals(conn, [deal_row(code, d + 1, 1, f) for d, f in enumerate(facts)])
        end = MatchEnd(f"{code}/1", code, 1, game, "56-4", 1, DEALS, (0, 1, 0, 1), (0, 1), (18, 6), (12, 12),
                       first + k, tuple((p, p.upper()) for p in people))
        began = time.perf_counter()
        async with db.engine.begin() as conn:
            assert await record_match(conn, end)
        took.append(time.perf_counter() - began)
    return took


async def time_leaderboards(db: Database, clubs: int, samples: int, rng: random.Random) -> list[float]:
    store = Clubs(db.engine)
    took = []
    for _ in range(samples):
        club, family = f"club{rng.randrange(clubs):04d}", rng.choice(["56", "55"])
        began = time.perf_counter()
        board = await store.leaderboard(club, family)
        took.append(time.perf_counter() - began)
        assert len(board) >= 2 * GROUP
    return took


async def run(args: argparse.Namespace, url: str) -> None:
    rng = random.Random(args.seed)
    db = Database(url)
    await db.migrate()
    began = time.perf_counter()
    await seed(db, args.players, args.matches, args.clubs, rng)
    print(f"seeded {args.players:,} players, {args.matches:,} matches and {args.clubs} clubs "
          f"in {time.perf_counter() - began:.0f} s")
    await time_profiles(db, args.players, 50, rng)      # warm the pool and the cache
    print("profile (played_together + profile):", _ms(await time_profiles(db, args.players, args.samples, rng)))
    print("rating update (record_match, commit):",
          _ms(await time_ratings(db, args.players, args.samples, 1_800_000_000, rng)))
    await time_leaderboards(db, args.clubs, 50, rng)      # warm
    print("club leaderboard (Clubs.leaderboard):", _ms(await time_leaderboards(db, args.clubs, args.samples, rng)))
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--matches", type=int, default=200_000)
    parser.add_argument("--clubs", type=int, default=300)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=43)
    args = parser.parse_args()
    bin_dir = pg.find_bin()
    if bin_dir is None:
        raise SystemExit("needs PostgreSQL (initdb, pg_ctl): apt-get install postgresql")
    with pg.cluster(bin_dir) as cluster:
        asyncio.run(run(args, cluster.create_database("accounts")))


if __name__ == "__main__":
    main()

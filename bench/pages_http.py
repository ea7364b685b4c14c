"""The club layer's pages over HTTP at community size (issue 59): seed a SQLite file with players, finished
matches, clubs (their tables) and club nights, start ``fiftysix serve`` on it on a loopback port, and time
each page from outside, a fresh connection per request, as many players.

    PYTHONPATH=src .venv/bin/python bench/pages_http.py --db /tmp/pages-1x.db --scale 1 --samples 300

At ``--scale 1``: 10,000 players, 200,000 matches, 300 clubs (two to five groups of eight each).  Players come in
groups of eight as in bench/accounts_scale.py (its match rows are reused); each group plays its matches at tables
of its own, eight matches a table, and a group's tables belong to the first club it is in (so a club's
recent-matches read has every one of its groups' tables to look through).  Each club has two closed club nights of
two tables.  The file is seeded once and reused (``--db`` names it; each run times a copy, so
the same seed serves every version timed).

Timed (p50 / p99 in ms, one request at a time; each request from its own 127.0.0.x source address, so the
per-address limits never refuse it, and a fresh TCP connection):

- **own history**: ``GET /api/players/me/history`` of a random player;
- **co-player history**: ``GET /api/players/ID/history`` of a random member of the asker's group;
- **history page 2**: the same with ``?before=`` the first page's last match (the keyset's next page);
- **club page**: ``GET /api/clubs/ID`` by a member (members, open tables, recent matches);
- **leaderboard**: ``GET /api/clubs/ID/leaderboard?family=56|55``;
- **lobby**: ``GET /api/lobby``;
- **event page**: ``GET /api/nights/ID`` of a closed night, by a member;
- **board page**: ``GET /api/nights/ID/boards/N``;
- **rating update**: ``record_match`` of a new match in its own transaction (in-process, as accounts_scale).

Prints each figure and the load average (``os.getloadavg``) before and after.  ``--pg``: the seed is copied into a
throwaway PostgreSQL (tests/helpers/pg.py) and the server runs on that; ``--explain`` / ``--explain-pg``: each page's
queries, caught on the engine, with SQLite's ``EXPLAIN QUERY PLAN`` / PostgreSQL's ``EXPLAIN`` (nothing timed).
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from accounts_scale import DEALS, GROUP, _clubs, _rows  # noqa: E402

from fiftysix.server.edge.tokens import COOKIE, Tokens  # noqa: E402
from fiftysix.server.matches.capture import MatchEnd  # noqa: E402
from fiftysix.server.matches.store import deal_row, record_match, write_deals  # noqa: E402
from fiftysix.server.storage.db import Database  # noqa: E402

PER_TABLE = 8       # matches a table
SECRET = "bench-pages-http-secret"


def _url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


def _ph(n: int) -> str:
    return ", ".join("?" * n)


def _insert(db: sqlite3.Connection, table: str, rows: list[tuple[Any, ...]],
            columns: list[str] | None = None) -> None:
    if rows:
        names = f" ({', '.join(columns)})" if columns else ""
        db.executemany(f"INSERT INTO {table}{names} VALUES ({_ph(len(rows[0]))})", rows)


def _matches(rng: random.Random, players: int, count: int) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """accounts_scale's rows, each match at its group's current table (eight matches a table)."""
    played: dict[int, int] = {}
    match_rows, player_rows = [], []
    for n in range(count):
        group = rng.randrange(players // GROUP)
        people = [f"p{group * GROUP + i:06d}" for i in rng.sample(range(GROUP), rng.randint(2, 4))]
        k = played.get(group, 0)
        played[group] = k + 1
        code, match_no = f"G{group:05d}T{k // PER_TABLE:04d}", k % PER_TABLE + 1
        match, rows = _rows(rng, n, people, rng.choice(["56", "55"]))
        mid = f"{code}/{match_no}"
        match_rows.append((mid, code, match_no, *match[3:]))
        player_rows.extend((mid, *row[1:]) for row in rows)
    return match_rows, player_rows


def _club_parts(rng: random.Random, players: int, clubs: int, tables_of: dict[str, int],
                ) -> tuple[list[tuple[Any, ...]], ...]:
    club_rows, member_rows = _clubs(rng, players, clubs)
    owner_of = {c[0]: c[2] for c in club_rows}
    groups: dict[str, list[int]] = {}
    for club, player, _name, _joined in member_rows:
        groups.setdefault(club, [])
        g = int(player[1:]) // GROUP
        if g not in groups[club]:
            groups[club].append(g)
    first_club: dict[int, str] = {}
    for club, gs in groups.items():
        for g in gs:
            first_club.setdefault(g, club)
    table_rows = [(code, first_club[int(code[1:6])], 1_700_000_000) for code in tables_of
                  if int(code[1:6]) in first_club]
    event_rows, team_rows, event_table_rows = [], [], []
    for club, gs in groups.items():
        for e in range(2):
            eid = f"{club}e{e}"
            event_rows.append((eid, club, owner_of[club], f"Night {e}", "56", "56-4", 8, 2, "club", None,
                               "seed", "closed", 1_700_000_000, False))
            for t in range(2):
                event_table_rows.append((eid, t + 1, f"E{club[4:]}{e}{t}"))
                for d in range(2):
                    people = [f"p{gs[0] * GROUP + 2 * (2 * t + d) + i:06d}" for i in range(2)]
                    team_rows.append((eid, f"team {t}{d}", t + 1, d, json.dumps(people)))
    return club_rows, member_rows, table_rows, event_rows, team_rows, event_table_rows


def seed(path: Path, players: int, matches: int, clubs: int, rng: random.Random) -> None:
    asyncio.run(_migrate(path))
    match_rows, player_rows = _matches(rng, players, matches)
    rating_rows = [(f"p{i:06d}", game, rng.gauss(25, 3), rng.uniform(1, 8), rng.randint(0, 60), "")
                   for i in range(players) for game in ("56", "55")]
    tables_of = {m[1]: 1 for m in match_rows}
    club_rows, member_rows, table_rows, event_rows, team_rows, event_table_rows = \
        _club_parts(rng, players, clubs, tables_of)
    db = sqlite3.connect(path)
    with db:
        _insert(db, "matches", [(*m[:8], m[8], int(m[9])) for m in match_rows])
        _insert(db, "match_players", player_rows)
        _insert(db, "ratings", rating_rows)
        _insert(db, "clubs", club_rows, ["id", "name", "owner", "invite_hash", "watchers", "created"])
        _insert(db, "club_members", member_rows, ["club_id", "player", "name", "joined"])
        _insert(db, "club_tables", table_rows, ["code", "club_id", "created"])
        _insert(db, "club_events", event_rows)
        _insert(db, "club_event_teams", team_rows)
        _insert(db, "club_event_tables", event_table_rows)
        db.execute("DELETE FROM settings WHERE key = 'secret'")
        db.execute("INSERT INTO settings (key, value) VALUES ('secret', ?)", (SECRET,))
    db.execute("ANALYZE")
    db.close()


async def _migrate(path: Path) -> None:
    db = Database(_url(path))
    await db.migrate()
    await db.close()


class Client:
    """Requests to the server, each on a new connection from the next of 250 loopback source addresses."""

    def __init__(self, port: int) -> None:
        self.port, self.turn = port, 0
        self.tokens = Tokens(SECRET)

    def get(self, path: str, player: str) -> tuple[float, dict[str, Any]]:
        self.turn += 1
        source = f"127.0.{self.turn // 250 % 250 + 1}.{self.turn % 250 + 1}"
        token = self.tokens.issue(player.upper(), player)[1]
        began = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30, source_address=(source, 0))
        conn.request("GET", path, headers={"Cookie": f"{COOKIE}={token}"})
        response = conn.getresponse()
        body = response.read()
        took = time.perf_counter() - began
        conn.close()
        if response.status != 200:
            raise RuntimeError(f"GET {path} as {player}: {response.status} {body[:200]!r}")
        return took, json.loads(body)


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {statistics.median(ordered) * 1000:6.1f} ms, p99 {p99 * 1000:6.1f} ms ({len(ordered)} samples)"


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def pages(players: int, clubs: int, rng: random.Random, db: sqlite3.Connection,
          ) -> dict[str, Callable[[], tuple[str, str]]]:
    """Each page: a function giving (path, asking player) of a random request."""
    members: dict[str, list[str]] = {}
    for club, player in db.execute("SELECT club_id, player FROM club_members"):
        members.setdefault(club, []).append(player)
    nights = [(e, c) for e, c in db.execute("SELECT id, club_id FROM club_events")]
    club_ids = sorted(members)

    def player() -> str:
        return f"p{rng.randrange(players):06d}"

    def co_player() -> tuple[str, str]:
        who = player()
        other = f"p{(int(who[1:]) // GROUP) * GROUP + rng.randrange(GROUP):06d}"
        return f"/api/players/{other}/history", who

    def club() -> tuple[str, str]:
        c = rng.choice(club_ids)
        return f"/api/clubs/{c}", rng.choice(members[c])

    def board() -> tuple[str, str]:
        c = rng.choice(club_ids)
        return f"/api/clubs/{c}/leaderboard?family={rng.choice(['56', '55'])}", rng.choice(members[c])

    def night(path: str) -> Callable[[], tuple[str, str]]:
        def ask() -> tuple[str, str]:
            e, c = rng.choice(nights)
            return path.format(e=e, b=rng.randint(1, 8)), rng.choice(members[c])
        return ask

    return {"own history": lambda: ("/api/players/me/history", player()),
            "co-player history": co_player,
            "club page": club,
            "leaderboard": board,
            "lobby": lambda: ("/api/lobby", player()),
            "event page": night("/api/nights/{e}"),
            "board page": night("/api/nights/{e}/boards/{b}")}


def time_pages(client: Client, asks: dict[str, Callable[[], tuple[str, str]]], samples: int,
               rng: random.Random, players: int) -> None:
    for name, ask in asks.items():
        for _ in range(10):       # warm
            client.get(*ask())
        took = [client.get(*ask())[0] for _ in range(samples)]
        print(f"{name:20s} {_ms(took)}  load {_load()}", flush=True)
        if name == "own history":
            second = []
            while len(second) < samples:
                who = f"p{rng.randrange(players):06d}"
                first = client.get("/api/players/me/history", who)[1]
                if first["more"]:
                    before = first["matches"][-1]["finished"]
                    second.append(client.get(f"/api/players/me/history?before={before}", who)[0])
                elif not first["matches"]:
                    continue
                else:
                    second.append(client.get(f"/api/players/me/history?before={first['matches'][-1]['finished']}",
                                             who)[0])
            print(f"{'history page 2':20s} {_ms(second)}  load {_load()}", flush=True)


WARM_WRITES = 10
"""Rating writes before the timed ones: the first reads a cold file (the pages are warmed alike)."""


async def time_ratings(url: str, players: int, samples: int, rng: random.Random) -> list[float]:
    db = Database(url)
    took = []
    first = 1_800_000_000 + rng.randrange(10**6) * 1000
    for k in range(samples + WARM_WRITES):
        group = rng.randrange(players // GROUP)
        people = [f"p{group * GROUP + i:06d}" for i in rng.sample(range(GROUP), rng.randint(2, 4))]
        code = f"N{first % 10**7:07d}{k:05d}"
        seats = [*people, *[None] * (4 - len(people))]
        bots = [None if p else "rules" for p in seats]
        facts = [{"match_no": 1, "people": seats, "bots": bots, "played": [0, 1, 2, 3], "declarer": d % 4,
                  "form": "number-suit", "made": d % 2 == 0, "standings": [12 + d, 12 - d]} for d in range(DEALS)]
        async with db.engine.begin() as conn:
            await write_deals(conn, [deal_row(code, d + 1, 1, f) for d, f in enumerate(facts)])  # type: ignore[misc]
        end = MatchEnd(f"{code}/1", code, 1, rng.choice(["56", "55"]), "56-4", 1, DEALS, (0, 1, 0, 1), (0, 1),
                       (18, 6), (12, 12), first + k, tuple((p, p.upper()) for p in people))
        began = time.perf_counter()
        async with db.engine.begin() as conn:
            assert await record_match(conn, end)
        took.append(time.perf_counter() - began)
    await db.close()
    return took[WARM_WRITES:]


Plan = Callable[[str, Any], Any]
"""A statement and its parameters -> (a coroutine of) its plan's lines."""


async def explain(url: str, path: Path, plan: Plan) -> None:
    """Each page's queries as the server sends them (caught on the engine of ``url``), with ``plan`` of each:
    SQLite's ``EXPLAIN QUERY PLAN`` or PostgreSQL's ``EXPLAIN``.  ``path``: the seed (a club, a member, a night)."""
    from sqlalchemy import event, text

    from fiftysix.server.clubs.store import Clubs
    from fiftysix.server.matches.queries import played_together, profile
    from fiftysix.server.nights.store import Nights

    db = Database(url)
    caught: list[tuple[str, Any]] = []

    def catch(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        caught.append((statement, parameters))
    async with db.engine.connect() as conn:
        await conn.execute(text("SELECT 1"))     # the dialect's first-connect statements, not caught
    event.listen(db.engine.sync_engine, "before_cursor_execute", catch)
    with sqlite3.connect(path) as raw:
        club, player = raw.execute("SELECT club_id, player FROM club_members LIMIT 1").fetchone()
        night = raw.execute("SELECT id FROM club_events WHERE club_id = ?", (club,)).fetchone()[0]
    clubs, nights = Clubs(db.engine), Nights(db.engine)
    steps: list[tuple[str, Callable[[], Any]]] = [
        ("co-player history: played_together", lambda: played_together(db.engine, player, "p000001")),
        ("history: profile", lambda: profile(db.engine, player, None, nights.running_tables)),
        ("history page 2: profile(before=)", lambda: profile(db.engine, player, 1_700_006_000)),
        ("club page: recent_matches", lambda: clubs.recent_matches(club)),
        ("leaderboard", lambda: clubs.leaderboard(club, "56")),
        ("event / board page: progress", lambda: nights.progress(night))]
    for name, step in steps:
        caught.clear()
        await step()
        print(f"### {name}")
        for statement, parameters in list(caught):
            print("    " + " ".join(statement.split()))
            for line in await plan(statement, parameters):
                print(f"      {line}")
    await db.close()


async def explain_sqlite(path: Path) -> None:
    with sqlite3.connect(path) as raw:
        async def plan(statement: str, parameters: Any) -> list[str]:
            return [row[3] for row in raw.execute("EXPLAIN QUERY PLAN " + statement, parameters)]
        await explain(_url(path), path, plan)


COPIED = {"matches": {"rated"}, "match_players": set(), "ratings": set(), "clubs": {"watchers"},
          "club_members": set(), "club_tables": set(), "club_events": {"rated"}, "club_event_teams": set(),
          "club_event_tables": set(), "person_stats": set(), "person_forms": set(), "person_partners": set()}
"""The seed's tables copied to PostgreSQL, and their boolean columns (SQLite stores 0 and 1)."""


def pg_helper() -> tuple[Any, Any]:
    """tests/helpers/pg.py and PostgreSQL's programs."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from helpers import pg

    bin_dir = pg.find_bin()
    if bin_dir is None:
        raise SystemExit("needs PostgreSQL (initdb, pg_ctl)")
    return pg, bin_dir


async def copy_to_pg(path: Path, url: str) -> None:
    """The seed's rows into a new PostgreSQL database at ``url`` (this version's migrations first), ``ANALYZE``d."""
    db = Database(url)
    await db.migrate()
    async with db.engine.connect() as conn:
        raw = (await conn.get_raw_connection()).driver_connection
        assert raw is not None
        with sqlite3.connect(path) as source:
            for table, flags in COPIED.items():
                cursor = source.execute(f"SELECT * FROM {table}")
                names = [d[0] for d in cursor.description]
                rows = [tuple(bool(v) if n in flags else v for n, v in zip(names, r, strict=True)) for r in cursor]
                await raw.copy_records_to_table(table, records=rows, columns=names)
        await raw.execute("DELETE FROM settings WHERE key = 'secret'")
        await raw.execute("INSERT INTO settings (key, value) VALUES ('secret', $1)", SECRET)
        await raw.execute("ANALYZE")
        await conn.commit()
    await db.close()


async def explain_pg(path: Path, url: str) -> None:
    """Each page's queries with PostgreSQL's ``EXPLAIN`` on the seed copied to ``url``."""
    await copy_to_pg(path, url)
    db = Database(url)
    async with db.engine.connect() as conn:
        raw = (await conn.get_raw_connection()).driver_connection
        assert raw is not None

        async def plan(statement: str, parameters: Any) -> list[str]:
            return [r[0] for r in await raw.fetch("EXPLAIN " + statement, *parameters)]
        await explain(url, path, plan)
    await db.close()


async def profile_cpu(url: str, players: int, samples: int, rng: random.Random) -> list[float]:
    """The CPU time (this process, the driver's thread included) of a random player's history read."""
    from fiftysix.server.matches.queries import profile

    async def shown(_codes: list[str]) -> set[str]:      # no night is running: nothing withheld
        return set()

    db = Database(url)
    took: list[float] = []
    try:
        for n in range(samples + 10):
            player = f"p{rng.randrange(players):06d}"
            began = time.process_time()
            await profile(db.engine, player, None, shown)
            if n >= 10:         # the first few warm the caches
                took.append(time.process_time() - began)
    finally:
        await db.close()
    return took


def serve(url: str, port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen([sys.executable, "-m", "fiftysix", "serve", "--port", str(port), "--db", url,
                               "--log-level", "warning", "--max-connections-per-address", "0"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for _ in range(600):
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/catalogue")
            if conn.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not answer")


def _drop(work: Path) -> None:
    """A run's copy and its write-ahead log (a stale log would be replayed into the next copy)."""
    for part in (work, work.with_name(work.name + "-wal"), work.with_name(work.name + "-shm")):
        part.unlink(missing_ok=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, required=True, help="the SQLite file (seeded when missing)")
    parser.add_argument("--scale", type=float, default=1.0, help="1: 10,000 players, 200,000 matches, 300 clubs")
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--port", type=int, default=18_659)
    parser.add_argument("--seed", type=int, default=59)
    parser.add_argument("--explain", action="store_true", help="print each page's queries and their plans only")
    parser.add_argument("--explain-pg", action="store_true",
                        help="the same on PostgreSQL (the seed copied into a throwaway cluster)")
    parser.add_argument("--pg", action="store_true",
                        help="serve from a throwaway PostgreSQL (tests/helpers/pg.py) the seed is copied into")
    parser.add_argument("--only", action="append", default=[], help="time only these pages (repeatable)")
    parser.add_argument("--profile-cpu", action="store_true",
                        help="only the history read (matches.queries.profile) in-process, in CPU time: what a "
                             "loaded machine's waits do not move")
    args = parser.parse_args()
    players, matches, clubs = 10_000, int(200_000 * args.scale), 300
    rng = random.Random(args.seed)
    if not args.db.exists():
        began = time.perf_counter()
        seed(args.db, players, matches, clubs, rng)
        print(f"seeded {players:,} players, {matches:,} matches, {clubs} clubs into {args.db} "
              f"in {time.perf_counter() - began:.0f} s", flush=True)
    work = args.db.with_name(args.db.name + ".run")     # the seed stays as seeded: each run times a copy
    _drop(work)
    shutil.copyfile(args.db, work)
    asyncio.run(_migrate(work))      # this version's migrations (a newer one's indexes), if any
    if args.pg or args.explain_pg:
        pg, bin_dir = pg_helper()
        with pg.cluster(bin_dir) as cluster:
            url = cluster.create_database("pages")
            if args.explain_pg:
                asyncio.run(explain_pg(work, url))
            else:
                asyncio.run(copy_to_pg(work, url))
                run(args, work, url, players, clubs, rng)
    elif args.explain:
        asyncio.run(explain_sqlite(work))
    elif args.profile_cpu:
        took = asyncio.run(profile_cpu(_url(work), players, args.samples, rng))
        print(f"{'history read (CPU)':20s} {_ms(took)}  load {_load()}", flush=True)
    else:
        run(args, work, _url(work), players, clubs, rng)
    _drop(work)


def run(args: argparse.Namespace, work: Path, url: str, players: int, clubs: int, rng: random.Random) -> None:
    print(f"load before: {_load()} ({url.split(':')[0]})", flush=True)
    server = serve(url, args.port)
    try:
        with sqlite3.connect(work) as db:
            asks = pages(players, clubs, rng, db)
        if args.only:
            asks = {k: v for k, v in asks.items() if k in args.only}
        time_pages(Client(args.port), asks, args.samples, rng, players)
    finally:
        server.terminate()
        server.wait(20)
    if not args.only or "rating update" in args.only:
        took = asyncio.run(time_ratings(url, players, args.samples, rng))
        print(f"{'rating update':20s} {_ms(took)}  load {_load()}", flush=True)


if __name__ == "__main__":
    main()

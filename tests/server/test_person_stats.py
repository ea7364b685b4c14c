"""A person's kept stats (issue 59): for any sequence of finished matches (some delivered twice, some at running
or closed club nights, people renamed between matches, an account deleted), the ``person_*`` rows the match ends
add to, and those migration 0014 adds up from the stored matches, give the history page the stats that reading
every one of the person's matches gives (the query the page ran before, kept here as the oracle)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, cast

import pytest

pytest.importorskip("openskill")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from sqlalchemy import Select, select  # noqa: E402

from fiftysix.server.accounts.scrub import scrub_names  # noqa: E402
from fiftysix.server.matches import queries  # noqa: E402
from fiftysix.server.matches.capture import MatchEnd  # noqa: E402
from fiftysix.server.matches.schema import match_players, matches  # noqa: E402
from fiftysix.server.matches.store import deal_row, record_match, write_deals  # noqa: E402
from fiftysix.server.matches.tally import MatchSummary, PersonStats  # noqa: E402
from fiftysix.server.nights.store import (  # noqa: E402
    event_tables,
    events,
    running_matches,  # noqa: E402
)
from fiftysix.server.storage.db import MIGRATIONS, Database  # noqa: E402

PEOPLE = ["pa", "pb", "pc", "pd", "pe"]
NAMES = ["Asha", "Biju", "Chitra", "", "Dev"]
FORMS = ["number-suit", "plus-suit", None]


# -- the oracle: the stats as the page read them before issue 59 (every row of the person, then summed) ---------
def _obj(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _counted(player: str) -> Select[Any]:
    return (select(match_players.c.team, match_players.c.rank, matches.c.table_code, matches.c.game,
                   match_players.c.stats, matches.c.summary)
            .join(matches, matches.c.id == match_players.c.match_id)
            .where(match_players.c.player_id == player)
            .order_by(match_players.c.finished.desc(), match_players.c.match_id.desc()))


@dataclass
class _Tally:
    matches: int = 0
    won: int = 0
    deals: int = 0
    declared: int = 0
    made: int = 0
    gain: int = 0
    forms: dict[str, list[int]] = field(default_factory=dict)


def oracle_stats(player: str, rows: list[Any]) -> dict[str, Any]:
    out: dict[str, _Tally] = {}
    partners: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for r in rows:
        s = cast(PersonStats, _obj(r.stats))
        summary = cast(MatchSummary, _obj(r.summary))
        f = out.setdefault(r.game, _Tally())
        f.matches += 1
        f.won += r.rank == 0
        f.deals += int(s.get("deals", 0))
        f.declared += int(s.get("declared", 0))
        f.made += int(s.get("made", 0))
        f.gain += int(s.get("gain", 0))
        for form, (declared, made) in s.get("forms", {}).items():
            both = f.forms.setdefault(form, [0, 0])
            both[0] += declared
            both[1] += made
        names = summary.get("names", {})
        for p, t in summary.get("people", {}).items():
            if t == r.team and p != player:
                entry = partners[r.game].setdefault(p, {"id": p, "name": names.get(p, ""), "matches": 0, "won": 0})
                entry["matches"] += 1
                entry["won"] += r.rank == 0
    return {game: {"matches": f.matches, "won": f.won, "deals": f.deals, "declared": f.declared, "made": f.made,
                   "forms": {k: {"declared": v[0], "made": v[1]} for k, v in sorted(f.forms.items())},
                   "per_deal": round(f.gain / f.deals, 2) if f.deals else 0.0,
                   "partners": sorted(partners[game].values(), key=lambda e: (-e["matches"], e["name"], e["id"]))}
            for game, f in out.items()}


# -- random finished matches ---------------------------------------------------------------------------------
@st.composite
def a_match(draw: st.DrawFn, k: int) -> tuple[MatchEnd, list[dict[str, Any]], str]:
    """A 56-4 style match at table ``T{k}``: its end, its deals' facts, and where it was played ("plain",
    "running" or "closed" night)."""
    seats = draw(st.lists(st.sampled_from([*PEOPLE, None]), min_size=4, max_size=4)
                 .filter(lambda s: len({p for p in s if p}) == len([p for p in s if p])))
    deals = []
    standings = [12, 12]
    for _ in range(draw(st.integers(1, 3))):
        standings = [draw(st.integers(0, 24)), draw(st.integers(0, 24))]
        people = [p if draw(st.integers(0, 5)) else None for p in seats]    # now and then a computer stands in
        declarer = draw(st.sampled_from([None, 0, 1, 2, 3]))
        deals.append({"match_no": 1, "people": people, "bots": [None if p else "rules" for p in people],
                      "played": [0, 1, 2, 3], "declarer": declarer,
                      "form": draw(st.sampled_from(FORMS)) if declarer is not None else None,
                      "made": draw(st.booleans()) if declarer is not None else None, "standings": standings})
    ranks = draw(st.sampled_from([(0, 1), (1, 0), (0, 0)]))
    names = tuple((p, draw(st.sampled_from(NAMES))) for p in sorted({p for p in seats if p}))
    end = MatchEnd(f"T{k}/1", f"T{k}", 1, draw(st.sampled_from(["56", "55"])), "56-4", 1, len(deals),
                   (0, 1, 0, 1), ranks, (standings[0], standings[1]), (12, 12),
                   1_700_000_000 + draw(st.integers(0, 4)), names)     # few times: ties of ``finished``
    return end, deals, draw(st.sampled_from(["plain", "plain", "running", "closed"]))


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[tuple[MatchEnd, list[dict[str, Any]], str]], list[int], str | None]:
    played = [draw(a_match(k)) for k in range(draw(st.integers(1, 9)))]
    order = draw(st.lists(st.integers(0, len(played) - 1), max_size=3))     # delivered again
    return played, order, draw(st.sampled_from([None, *PEOPLE]))


async def _night(conn: Any, code: str, status: str) -> None:
    event = f"E{code}"
    await conn.execute(events.insert().values(
        id=event, club_id="C", owner="pa", name="night", game="56", preset="56-4", boards=4, tables=1,
        level="club", seed="s", status=status, created=1, rated=False))
    await conn.execute(event_tables.insert().values(event_id=event, table_no=1, code=code))


async def _check(db: Database, running: set[str]) -> None:
    async def withheld(codes: list[str]) -> set[str]:
        return {c for c in codes if c in running}

    for person in PEOPLE:
        async with db.engine.connect() as conn:
            rows = [r for r in await conn.execute(_counted(person)) if r.table_code not in running]
        got: Any = await queries.profile(db.engine, person, None, withheld, running_matches)
        assert got["stats"] == oracle_stats(person, rows), person


def _redo_0014(conn: Any) -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = conn
    command.downgrade(cfg, "0013_page_indexes")
    command.upgrade(cfg, "0014_person_stats")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_kept_stats_are_the_stats_of_every_match(history: tuple[list[Any], list[int], str | None]) -> None:
    played, again, deleted = history
    running = {end.code for end, _facts, where in played if where == "running"}

    async def run(folder: str) -> None:
        db = Database(f"sqlite+aiosqlite:///{folder}/s.db")
        await db.migrate()
        try:
            async with db.engine.begin() as conn:
                for end, _facts, where in played:
                    if where != "plain":
                        await _night(conn, end.code, "closed" if where == "closed" else "running")
            for end, facts, _where in [*played, *(played[i] for i in again)]:
                async with db.engine.begin() as conn:
                    await write_deals(conn, [deal_row(end.code, n, 1, f) for n, f in enumerate(facts, 1)
                                             if not await _stored(conn, end.code, n)])
                    await record_match(conn, dataclasses.replace(end, finished=end.finished))
            if deleted is not None:
                async with db.engine.begin() as conn:
                    await scrub_names(conn, deleted)
            await _check(db, running)
            async with db.engine.begin() as conn:       # the migration's sums of the same matches
                await conn.run_sync(_redo_0014)
            await _check(db, running)
        finally:
            await db.close()

    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(folder))


async def _stored(conn: Any, code: str, number: int) -> bool:
    from fiftysix.server.matches.schema import deal_seats
    found = await conn.execute(select(deal_seats.c.number).where(deal_seats.c.table_code == code,
                                                                 deal_seats.c.number == number))
    return found.first() is not None


def test_a_partners_name_from_a_withheld_match_is_not_shown(tmp_path: Any) -> None:
    """Asha and Biju partner twice; Biju's newer name is from a running night's match: the page shows the name of
    their newest match shown (the kept row holds the newer one), and the newer once the night is closed."""
    def end(code: str, finished: int, name: str) -> tuple[MatchEnd, list[dict[str, Any]]]:
        seats = ["pa", None, "pb", None]
        facts = [{"match_no": 1, "people": seats, "bots": [None, "rules", None, "rules"], "played": [0, 1, 2, 3],
                  "declarer": 0, "form": "number-suit", "made": True, "standings": [20, 4]}]
        return MatchEnd(f"{code}/1", code, 1, "56", "56-4", 1, 1, (0, 1, 0, 1), (0, 1), (20, 4), (12, 12), finished,
                        (("pa", "Asha"), ("pb", name))), facts

    async def run() -> None:
        db = Database(f"sqlite+aiosqlite:///{tmp_path / 'n.db'}")
        await db.migrate()
        try:
            async with db.engine.begin() as conn:
                await _night(conn, "NEW", "running")
                for code, finished, name in [("OLD", 1, "Biju"), ("NEW", 2, "Bijoy")]:
                    match, facts = end(code, finished, name)
                    await write_deals(conn, [deal_row(code, 1, 1, facts[0])])
                    assert await record_match(conn, match)

            async def withheld(codes: list[str]) -> set[str]:
                return {c for c in codes if c == "NEW"}
            got: Any = await queries.profile(db.engine, "pa", None, withheld, running_matches)
            assert got["stats"]["56"]["partners"] == [{"id": "pb", "name": "Biju", "matches": 1, "won": 1}]
            got = await queries.profile(db.engine, "pa", None, None)
            assert got["stats"]["56"]["partners"] == [{"id": "pb", "name": "Bijoy", "matches": 2, "won": 2}]
        finally:
            await db.close()
    asyncio.run(run())

"""A person's history over HTTP (issue 43): their own, a co-player's, and refusals that change nothing and
tell nothing about who exists."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openskill")

from fiftysix.server.matches import queries  # noqa: E402
from fiftysix.server.matches.capture import MatchEnd  # noqa: E402
from fiftysix.server.matches.rating import PROVISIONAL  # noqa: E402
from fiftysix.server.matches.schema import ratings  # noqa: E402
from fiftysix.server.matches.store import deal_row, record_match, write_deals  # noqa: E402
from fiftysix.server.nights.store import running_matches  # noqa: E402
from fiftysix.server.storage.db import Database  # noqa: E402
from helpers.server import client  # noqa: E402


def new_player(c: Any, name: str) -> tuple[str, str]:
    c.cookies.clear()
    r = c.post("/api/player", json={"name": name})
    assert r.status_code == 200
    return str(r.json()["id"]), str(r.json()["token"])


def signed_in(c: Any, token: str) -> None:
    c.cookies.clear()
    c.cookies.set("fiftysix_player", token)


T1, T2 = 1_700_000_000, 1_700_000_100


def store_match(db: str, code: str, seats: list[str | None], names: dict[str, str], finished: int,
                standings: tuple[int, int], regulars: tuple[str, ...] = ()) -> None:
    """A one-deal match of 56-4 at table ``code``: ``seats`` the people (None: a computer), team 0 won from 12-12
    to ``standings``; ``regulars`` get an established rating first, so the others are rated against them."""
    facts = {"match_no": 1, "people": seats, "bots": [None if p else "rules" for p in seats],
             "played": [0, 1, 2, 3], "declarer": 0, "form": "number-suit", "made": True,
             "standings": list(standings)}
    end = MatchEnd(f"{code}/1", code, 1, "56", "56-4", 1, 1, (0, 1, 0, 1), (0, 1), standings, (12, 12), finished,
                   tuple((p, names[p]) for p in seats if p))

    async def run() -> None:
        base = Database(db)
        async with base.engine.begin() as conn:
            if regulars:
                await conn.execute(ratings.insert(), [
                    {"player_id": p, "family": "56", "mu": 25.0, "sigma": 3.0, "matches": PROVISIONAL,
                     "last_match": ""} for p in regulars])
            await write_deals(conn, [deal_row(code, 1, 1, facts)])
            assert await record_match(conn, end)
            assert not await record_match(conn, dataclasses.replace(end, finished=5))
        await base.close()
    asyncio.run(run())


def test_history_is_yours_and_your_co_players_only(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(queries, "PAGE", 1)         # a page of one match: the second is reached by ?before=
    with client(db) as c:
        a, token_a = new_player(c, "Asha")
        b, _ = new_player(c, "Biju")
        ch, _ = new_player(c, "Chitra")
        stranger, token_s = new_player(c, "Chen")
        names = {a: "Asha", b: "Biju", ch: "Chitra"}
        store_match(db, "QWER", [a, b, ch, None], names, T1, (24, 0), regulars=(b,))     # Chitra partners Asha
        store_match(db, "ASDF", [a, b, None, None], names, T2, (20, 4))
        signed_in(c, token_a)
        mine = c.get("/api/players/me/history")
        assert mine.status_code == 200, mine.text
        data = mine.json()
        assert data["you"] and data["player"] == a and data["more"]
        [m] = data["matches"]           # the newest first
        assert m["id"] == "ASDF/1" and m["won"] and m["game"] == "56" and m["preset"] == "56-4"
        assert m["partners"] == [] and m["opponents"] == [{"id": b, "name": "Biju", "team": 1}]
        assert m["computers"] == {"partners": ["rules"], "opponents": ["rules"]}
        assert m["deals"] == [{"number": 1, "record": "/api/tables/ASDF/deals/1.json",
                               "review": "/review?table=ASDF&deal=1"}]
        older = c.get(f"/api/players/me/history?before={m['finished']}")
        assert older.status_code == 200, older.text
        [first] = older.json()["matches"]
        assert first["id"] == "QWER/1" and not older.json()["more"]
        assert first["partners"] == [{"id": ch, "name": "Chitra"}] and first["computers"]["partners"] == []
        assert c.get("/api/players/me/history?before=soon").status_code == 400
        stats = data["stats"]["56"]     # over every match, not the page
        assert stats["matches"] == 2 and stats["won"] == 2 and stats["deals"] == 2
        assert stats["declared"] == 2 and stats["forms"]["number-suit"] == {"declared": 2, "made": 2}
        assert stats["per_deal"] == 10.0        # (24 - 12) and (20 - 12) over two deals
        assert stats["partners"] == [{"id": ch, "name": "Chitra", "matches": 1, "won": 1}]
        # Asha is rated against Biju's established team; Biju's rating does not move against her new one
        assert data["ratings"]["56"]["provisional"] and data["ratings"]["56"]["matches"] == 2
        assert data["ratings"]["56"]["shown"] < data["ratings"]["56"]["mu"]
        assert first["rated"] and first["rating"]["after"][0] > first["rating"]["before"][0]
        assert m["rating"]["after"][0] > m["rating"]["before"][0] == first["rating"]["after"][0]
        theirs = c.get(f"/api/players/{b}/history")
        assert theirs.status_code == 200 and not theirs.json()["you"]
        assert theirs.json()["ratings"]["56"] == {"mu": 25.0, "sigma": 3.0, "shown": 16.0, "display": 1500,
                                                  "matches": PROVISIONAL,
                                                  "provisional": False}
        # the stranger: the same 404 for a real id and a made-up one
        signed_in(c, token_s)
        real, made_up = c.get(f"/api/players/{a}/history"), c.get("/api/players/nobody-at-all/history")
        assert real.status_code == made_up.status_code == 404
        assert real.json() == made_up.json()
        assert c.get(f"/api/players/{a}/history", headers={"accept-language": "ml"}).json()["error"] != \
            real.json()["error"]
        c.cookies.clear()
        assert c.get("/api/players/me/history").status_code == 401
        signed_in(c, token_a)
        foreign = c.get("/api/players/me/history", headers={"origin": "https://evil.example"})
        assert foreign.status_code == 403 and "matches" not in foreign.json()
        assert c.get("/history").status_code == 200


def test_probing_ids_is_limited(tmp_path: Path) -> None:
    with client(tmp_path / "p.db") as c:
        _, token = new_player(c, "Asha")
        signed_in(c, token)
        codes = [c.get(f"/api/players/guess{i}/history").status_code for i in range(40)]
        assert codes[0] == 404 and 429 in codes


def test_the_keyset_pages_are_the_pages_of_every_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 59: the page is read by a keyset with a LIMIT, yet pages, ``more`` and stats are those of reading
    every row and filtering: matches at withheld tables left out (however many of a page they are), ties of
    ``finished`` broken by the id, ``before`` strict."""
    monkeypatch.setattr(queries, "PAGE", 2)
    db = f"sqlite+aiosqlite:///{tmp_path / 'keyset.db'}"
    names = {"a": "Asha", "b": "Bo"}
    asyncio.run(_migrated(db))
    times = [T1, T1, T1 + 5, T1 + 5, T1 + 5, T1 + 9, T1 + 20, T1 + 30, T1 + 30]
    for k, finished in enumerate(times):
        store_match(db, f"K{k}", ["a", None, "b" if k % 3 else None, None], names, finished, (18, 6))
    hidden = {"K2", "K3", "K4", "K8"}      # tables of a running club night (only those are ever withheld)
    asyncio.run(_running_night(db, sorted(hidden)))

    async def withheld(codes: list[str]) -> set[str]:
        return {c for c in codes if c in hidden}

    async def run() -> None:
        base = Database(db)
        try:
            whole: Any = await queries.profile(base.engine, "a", None, None)
            assert [m["table"] for m in whole["matches"]] == ["K8", "K7"] and whole["more"]
            shown = [k for k in sorted(range(len(times)), key=lambda k: (times[k], k), reverse=True)
                     if f"K{k}" not in hidden]
            assert shown == [7, 6, 5, 1, 0]
            for before in [None, *sorted(set(times)), T1 + 31]:
                got: Any = await queries.profile(base.engine, "a", before, withheld, running_matches)
                expected = [f"K{k}" for k in shown if before is None or times[k] < before]
                assert [m["table"] for m in got["matches"]] == expected[:2]
                assert got["more"] == (len(expected) > 2)
                assert got["stats"]["56"]["matches"] == 5
        finally:
            await base.close()
    asyncio.run(run())


async def _running_night(db: str, codes: list[str]) -> None:
    from fiftysix.server.nights.store import event_tables, events

    base = Database(db)
    async with base.engine.begin() as conn:
        await conn.execute(events.insert().values(
            id="E1", club_id="C", owner="a", name="night", game="56", preset="56-4", boards=4, tables=len(codes),
            level="club", seed="s", status="running", created=1, rated=False))
        await conn.execute(event_tables.insert(), [{"event_id": "E1", "table_no": n, "code": code}
                                                   for n, code in enumerate(codes, 1)])
    await base.close()


async def _migrated(db: str) -> None:
    base = Database(db)
    await base.migrate()
    await base.close()

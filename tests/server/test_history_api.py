"""A person's history over HTTP (issue 43): their own, a co-player's, and refusals that change nothing and
tell nothing about who exists."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openskill")

from fiftysix.server.matches.capture import MatchEnd  # noqa: E402
from fiftysix.server.matches.store import deal_row, record_match, write_deals  # noqa: E402
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


def store_match(db: str, a: str, b: str) -> None:
    facts = {"match_no": 1, "people": [a, b, None, None], "bots": [None, None, "rules", "rules"],
             "played": [0, 1, 2, 3], "declarer": 0, "form": "number-suit", "made": True, "standings": [24, 0]}
    end = MatchEnd("QWER/1", "QWER", 1, "56", "56-4", 1, 1, (0, 1, 0, 1), (0, 1), (24, 0), (12, 12), 1_700_000_000,
                   ((a, "Asha"), (b, "Biju")))

    async def run() -> None:
        base = Database(db)
        async with base.engine.begin() as conn:
            await write_deals(conn, [deal_row("QWER", 1, 1, facts)])
            assert await record_match(conn, end)
            assert not await record_match(conn, dataclasses.replace(end, finished=5))
        await base.close()
    asyncio.run(run())


def test_history_is_yours_and_your_co_players_only(db: str) -> None:
    with client(db) as c:
        a, token_a = new_player(c, "Asha")
        b, _ = new_player(c, "Biju")
        stranger, token_s = new_player(c, "Chen")
        store_match(db, a, b)
        signed_in(c, token_a)
        mine = c.get("/api/players/me/history")
        assert mine.status_code == 200, mine.text
        data = mine.json()
        assert data["you"] and data["player"] == a
        [m] = data["matches"]
        assert m["won"] and m["game"] == "56" and m["preset"] == "56-4"
        assert m["opponents"] == [{"id": b, "name": "Biju", "team": 1}]
        assert m["computers"] == {"partners": ["rules"], "opponents": ["rules"]}
        assert m["deals"] == [{"number": 1, "record": "/api/tables/QWER/deals/1.json",
                               "review": "/review?table=QWER&deal=1"}]
        assert data["stats"]["56"]["declared"] == 1 and data["stats"]["56"]["forms"]["number-suit"]["made"] == 1
        assert data["ratings"]["56"]["provisional"] and data["ratings"]["56"]["matches"] == 1
        assert data["ratings"]["56"]["shown"] < data["ratings"]["56"]["mu"]
        theirs = c.get(f"/api/players/{b}/history")
        assert theirs.status_code == 200 and not theirs.json()["you"]
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

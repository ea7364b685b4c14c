"""One tap to a game across two processes (issue 58 item 3): people tapping Play on both processes at once fill
another person's public table held by one of them without over-filling it (the seats are taken by the table's
writer, which refuses a seat already taken), and nobody gets two seats."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx2 as httpx
import pytest

from helpers.cluster import Proc, new_player, new_table

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]


async def _taps(pairs: list[tuple[Proc, str]]) -> list[dict[str, Any]]:
    async with httpx.AsyncClient(timeout=60) as http:
        answers = await asyncio.gather(*(http.post(f"{p.url}/api/play", json={"token": t}) for p, t in pairs))
    assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
    return [a.json() for a in answers]


def test_taps_on_two_processes_fill_a_table_once_and_seat_nobody_twice(start: Callable[..., Proc]) -> None:
    a, b = start(), start()
    host = new_player(a, "Anu")
    code = new_table(a, host, preset="56-6")                      # public, in the lobby, 5 free seats, held by A
    people = [(a if i % 2 else b, new_player(a if i % 2 else b, f"P{i}")) for i in range(10)]
    answers = asyncio.run(_taps(people))
    table = httpx.get(f"{a.url}/api/tables/{code}", timeout=10).json()
    seated = [s for s in table["seats"] if s["kind"] == "player"]
    assert len(seated) <= len(table["seats"]) == 6
    at_anu = [x for x in answers if x["code"] == code]
    assert all(x["outcome"] == "seated" for x in at_anu)
    assert len(at_anu) == len(seated) - 1 == 5, (answers, table)   # every free seat taken, none twice
    assert len({x["seat"] for x in at_anu}) == 5
    assert Counter(x["outcome"] for x in answers)["already"] == 0
    places = Counter((x["code"], x["seat"]) for x in answers)
    assert all(n == 1 for n in places.values()), places           # nobody shares a seat; each person one answer

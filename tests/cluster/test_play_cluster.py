"""One tap to a game across two processes (issue 58 item 3): people tapping Play on both processes at once fill
another person's public table held by one of them without over-filling it (the seats are taken by the table's
writer, which refuses a seat already taken), and nobody gets two seats, not even one person tapping on both
processes at the same instant (a lock per person in Redis: the second tap waits and finds the first's seat); a
person at a table of one process who taps Play on the other gets that table back."""

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


def _tables(proc: Proc, codes: set[str]) -> dict[str, dict[str, Any]]:
    return {code: httpx.get(f"{proc.url}/api/tables/{code}", timeout=10).json() for code in codes}


def test_many_taps_some_by_one_person_on_both_processes_seat_each_person_once(start: Callable[..., Proc]) -> None:
    a, b = start(), start()
    made = {new_table(a, new_player(a, "Anu"), preset="56-6"), new_table(b, new_player(b, "Bina"), preset="56-6")}
    people = {f"P{i}": (a if i % 2 else b) for i in range(12)}
    tokens = {name: new_player(proc, name) for name, proc in people.items()}
    twice = ["P0", "P3", "P6", "P9"]                  # these tap on both processes at the same instant
    by_person: dict[str, list[dict[str, Any]]] = {}
    for name in twice[:2]:                            # alone: both taps read the tables before either sits
        by_person[name] = asyncio.run(_taps([(a, tokens[name]), (b, tokens[name])]))
    taps = [(proc, name) for name, proc in people.items() if name not in twice[:2]]
    taps += [(b if people[n] is a else a, n) for n in twice[2:]] + [(people[n], n) for n in twice[:2]]
    answers = asyncio.run(_taps([(proc, tokens[name]) for proc, name in taps]))     # the rest, all at once
    for (_proc, name), answer in zip(taps, answers, strict=True):
        by_person.setdefault(name, []).append(answer)
    for name, got in by_person.items():
        assert len({(x["code"], x["seat"]) for x in got}) == 1, (name, got)      # one place, however many taps
        assert sum(x["outcome"] != "already" for x in got) == 1, (name, got)     # seated by one tap only
        assert all(x["seat"] is not None for x in got)
    places = Counter((got[0]["code"], got[0]["seat"]) for got in by_person.values())
    assert all(n == 1 for n in places.values()), places                         # no seat given twice
    tables = _tables(a, made | {code for code, _ in places})
    seated_names: Counter[str] = Counter()
    for code, table in tables.items():
        people_here = [s["name"] for s in table["seats"] if s["kind"] == "player"]
        assert len(people_here) + len(table["claimed"]) <= len(table["seats"]) == 6, (code, table)  # not over-filled
        seated_names.update(people_here)
    assert all(n == 1 for n in seated_names.values()), seated_names              # nobody at two tables
    for name, got in by_person.items():
        code, seat = got[0]["code"], got[0]["seat"]
        mine = tables[code]
        assert mine["seats"][seat].get("name") == name or seat in mine["claimed"], (name, mine)
    assert sum(len([s for s in tables[c]["seats"] if s["kind"] == "player"]) for c in made) == 12   # both full


def test_a_person_at_a_table_of_one_process_tapping_play_on_the_other_gets_it_back(
        start: Callable[..., Proc]) -> None:
    a, b = start(), start()
    ravi = new_player(a, "Ravi")
    first = asyncio.run(_taps([(a, ravi)]))[0]
    assert first["outcome"] == "new"                                   # a table with computers, written by A
    again = asyncio.run(_taps([(b, ravi)]))[0]
    assert again["outcome"] == "already" and (again["code"], again["seat"]) == (first["code"], 0), again
    sita = new_player(a, "Sita")
    hers = new_table(a, sita, preset="56-6")                           # her own lobby on A, not made by Play
    back = asyncio.run(_taps([(b, sita)]))[0]
    assert back["outcome"] == "already" and (back["code"], back["seat"]) == (hers, 0), back
    tom = new_player(b, "Tom")
    seated = asyncio.run(_taps([(b, tom)]))[0]
    assert seated["outcome"] == "seated" and seated["code"] == hers   # a seat at once before one mid-deal
    assert asyncio.run(_taps([(a, tom)]))[0] == {**seated, "outcome": "already",
                                                 "message": "You have a seat at Sita's table already"}

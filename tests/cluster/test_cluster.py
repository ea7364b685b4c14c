"""Many server processes on one PostgreSQL and one Redis: people at one table through different processes,
the writer killed (kill -9) or paused (SIGSTOP) mid-deal, and what the log holds afterwards."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import signal
import time
from collections.abc import Callable

import httpx2 as httpx
import pytest
from websockets.exceptions import ConnectionClosed

from helpers import pg
from helpers.cluster import Person, Proc, logged_events, new_player, new_table, writer_pid

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]


def check_log(cluster: pg.Cluster, dbname: str, code: str, people: list[Person]) -> list[tuple[int, dict]]:
    """The log runs 1..N without a gap; every acknowledged move is in it once, at the version it was
    acknowledged with; no move id is in it twice."""
    log = logged_events(cluster, dbname, code)
    assert [v for v, _ in log] == list(range(1, len(log) + 1))
    ids = [(e["player"], e["id"]) for _, e in log if e.get("kind") == "move" and "id" in e]
    assert len(ids) == len(set(ids)), "a move id was applied twice"
    at = {(e["player"], e["id"]): v for v, e in log if e.get("kind") == "move" and "id" in e}
    for person in people:
        assert person.gaps == [], person.gaps
        for move_id, version in person.acked.items():
            assert [at.get((p, i)) for p, i in at if i == move_id] == [version], f"acknowledged {move_id} lost"
    return log


async def seat(person: Person, number: int) -> None:
    await person.send({"type": "join", "name": person.name})
    await person.send({"type": "sit", "seat": number})


async def until(cond: Callable[[], bool], seconds: float, what: str, *show: object) -> None:
    deadline = time.monotonic() + seconds
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}: {show}")
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("processes", [2, 3])
def test_people_on_different_processes_play_a_whole_deal(start: Callable[..., Proc], pg_cluster: pg.Cluster,
                                                          dbname: str, processes: int) -> None:
    procs = [start() for _ in range(processes)]
    asha_token, ben_token = new_player(procs[0], "Asha"), new_player(procs[-1], "Ben")
    code = new_table(procs[0], asha_token, preset="56-4", fill="random")

    async def play() -> tuple[Person, Person]:
        asha, ben = Person("Asha", asha_token, code, host=False), Person("Ben", ben_token, code)
        await asha.connect(procs[-1])       # neither person is on the table's writer (procs[0])
        await ben.connect(procs[1])
        stop = asyncio.Event()
        runs = [asyncio.create_task(p.run(stop, lambda _p: procs[1])) for p in (asha, ben)]
        await seat(ben, 2)
        await until(lambda: ben.last is not None and ben.last["you"]["seat"] == 2, 20, "Ben's seat")
        await asha.send({"type": "start"})
        await until(lambda: asha.deal_over() and ben.deal_over() and asha.version == ben.version, 120,
                    "the end of the deal")
        # each is online for the other: the writer heard it from both replicas
        await until(lambda: asha.online(2) is True and ben.online(0) is True, 10, "presence", asha.table)
        stop.set()
        await asyncio.gather(*runs)
        await ben.close()       # Ben leaves: Asha, on another process, is told he is gone
        for _ in range(200):
            if asha.online(2) is False:
                break
            with contextlib.suppress(TimeoutError):
                asha._take(json.loads(await asyncio.wait_for(asha.ws.recv(), 0.1)))   # type: ignore[union-attr]
        assert asha.online(2) is False
        await asha.close()
        return asha, ben

    asha, ben = asyncio.run(play())
    assert writer_pid(pg_cluster, dbname, code) == procs[0].pid
    assert asha.moves >= 4 and ben.moves >= 4 and not asha.errors and not ben.errors
    assert asha.last is not None and ben.last is not None
    assert asha.last["view"]["seat"] == 0 and ben.last["view"]["seat"] == 2    # each their own view
    assert asha.last["view"]["result"] == ben.last["view"]["result"] and asha.last["view"]["result"]["complete"]
    log = check_log(pg_cluster, dbname, code, [asha, ben])
    assert log[-1][0] == asha.version
    assert sum(1 for _, e in log if e.get("by") == "player") == asha.moves + ben.moves


def test_kill_9_of_the_writer_mid_deal_loses_nothing(start: Callable[..., Proc], pg_cluster: pg.Cluster,
                                                     dbname: str) -> None:
    procs = [start() for _ in range(3)]
    asha_token, ben_token = new_player(procs[0], "Asha"), new_player(procs[1], "Ben")
    code = new_table(procs[0], asha_token, preset="56-4", fill="random")
    rng = random.Random(15)
    kills = 5
    people: list[Person] = []

    def elsewhere(dead: Proc | None) -> Proc:
        """A live process other than the dead one and the other person's (so a kill leaves someone on)."""
        taken = {p.proc for p in people}
        return rng.choice([p for p in procs if p.alive() and p is not dead and p not in taken])

    async def play() -> tuple[Person, Person, int]:
        asha, ben = Person("Asha", asha_token, code, host=True), Person("Ben", ben_token, code)
        people.extend((asha, ben))
        await asha.connect(procs[0])        # on the writer: reconnects elsewhere after each kill there
        await ben.connect(procs[1])
        stop = asyncio.Event()
        runs = [asyncio.create_task(p.run(stop, elsewhere)) for p in (asha, ben)]
        await seat(ben, 1)
        await until(lambda: ben.last is not None and ben.last["you"]["seat"] == 1, 20, "Ben's seat")
        await asha.send({"type": "start"})
        survived = 0
        for _ in range(kills):
            moved = len(asha.acked) + len(ben.acked)
            await until(lambda m=moved: len(asha.acked) + len(ben.acked) >= m + 3, 60, "moves before a kill",
                        asha, ben, [(p.port, p.pid) for p in procs])
            await asyncio.sleep(rng.uniform(0, 0.3))        # anywhere in a move's round trip
            pid = writer_pid(pg_cluster, dbname, code)
            victim = next(p for p in procs if p.pid == pid)
            on_others = {p.name: p.reconnects for p in (asha, ben) if p.proc is not victim}
            victim.kill()
            procs.remove(victim)
            replacement = asyncio.create_task(asyncio.to_thread(start))
            moved = len(asha.acked) + len(ben.acked)
            await until(lambda m=moved: len(asha.acked) + len(ben.acked) >= m + 2, 60, "moves after the kill",
                        asha, ben, [(p.port, p.pid) for p in procs])
            procs.append(await replacement)
            for p in (asha, ben):   # whoever was not on the dead process never lost its connection
                if p.name in on_others:
                    assert p.reconnects == on_others[p.name], f"{p.name} was cut off by a kill elsewhere"
                    survived += 1
        stop.set()
        await asyncio.gather(*runs)
        for p in (asha, ben):
            await p.close()
        return asha, ben, survived

    asha, ben, survived = asyncio.run(play())
    assert asha.reconnects + ben.reconnects >= 1      # someone was on a killed process and came back elsewhere
    assert survived >= kills                           # each kill left someone connected, who saw a pause only
    assert not [e for e in asha.errors + ben.errors if "did not answer" in e]
    check_log(pg_cluster, dbname, code, [asha, ben])


def test_a_writer_paused_past_its_lease_cannot_write(start: Callable[..., Proc], pg_cluster: pg.Cluster,
                                                     dbname: str) -> None:
    writer, other = start(bot_delay=0.3), start(bot_delay=0.3)
    token = new_player(writer, "Asha")
    code = new_table(writer, token, preset="56-4", fill="random")

    async def play() -> Person:
        asha = Person("Asha", token, code, host=True)
        await asha.connect(other)
        stop = asyncio.Event()
        run = asyncio.create_task(asha.run(stop, lambda _p: other))
        await asha.send({"type": "start"})
        await until(lambda: len(asha.acked) >= 2, 60, "moves")
        writer.signal(signal.SIGSTOP)       # mid-deal, with the computer players' moves due on the writer
        paused_at = asha.version
        await until(lambda: asha.version > paused_at + 4, 30, "the other process taking over")
        writer.signal(signal.SIGCONT)
        resumed_at = asha.version
        await until(lambda: asha.version > resumed_at + 4, 30, "play after the writer woke")
        await asyncio.sleep(2)
        stop.set()
        await run
        await asha.close()
        return asha

    asha = asyncio.run(play())
    assert writer_pid(pg_cluster, dbname, code) == other.pid
    assert writer.alive()
    check_log(pg_cluster, dbname, code, [asha])
    out = writer.output()
    assert "lost its lease" in out
    assert "UniqueViolation" not in out and "IntegrityError" not in out    # it never tried to append over


def test_sign_out_everywhere_reaches_every_process(start: Callable[..., Proc]) -> None:
    here, there = start(), start()
    token = new_player(here, "Asha")
    code = new_table(here, token, preset="56-4", fill="random")

    async def go() -> int | None:
        asha = Person("Asha", token, code)
        await asha.connect(there)
        for _ in range(50):
            if asha.last is not None:
                break
            with contextlib.suppress(TimeoutError):
                asha._take(json.loads(await asyncio.wait_for(asha.ws.recv(), 0.2)))  # type: ignore[union-attr]
        assert asha.last is not None and asha.last["you"]["seat"] == 0
        r = httpx.post(f"{here.url}/api/player/signout-all", json={"token": token}, timeout=10)
        assert r.status_code == 200
        assert asha.ws is not None
        try:
            for _ in range(100):
                await asyncio.wait_for(asha.ws.recv(), 0.1)
        except TimeoutError:
            return None
        except ConnectionClosed as e:
            return e.rcvd.code if e.rcvd is not None else None
        return None

    assert asyncio.run(go()) == 4401                   # closed on the other process too
    refused = httpx.post(f"{there.url}/api/tables", json={"token": token, "public": True}, timeout=10)
    assert refused.status_code == 400 and "choose your name" in refused.json()["error"]

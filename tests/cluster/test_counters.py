"""The limits' scripts in a real Redis (server/cluster/counters.py) against the one-process counters they stand
for: the same answers for random sequences, and no more places taken than there are when many ask at once."""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fiftysix.server.cluster.counters import Counters
from fiftysix.server.edge.limits import Buckets

pytestmark = pytest.mark.redis

_keys = itertools.count()


def _run(redis_url: str, work: object) -> object:
    import redis.asyncio as aioredis

    async def go() -> object:
        client = aioredis.Redis.from_url(redis_url)
        try:
            return await work(Counters(client))  # type: ignore[operator]
        finally:
            await client.aclose()

    return asyncio.run(go())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(burst=st.integers(0, 6), steps=st.lists(st.booleans(), max_size=20))
def test_the_lookup_bucket_answers_as_one_process_does(redis_url: str, burst: int, steps: list[bool]) -> None:
    """With a refill too slow to matter, taking (True) and looking (False) in any order: the same refusals."""
    key = f"test:bucket:{next(_keys)}"
    rate = 1e-6
    local = Buckets(rate, burst, clock=lambda: 0.0)

    async def work(counters: Counters) -> None:
        for take in steps:
            expected = local.empty("a") if not take else (local.take("a"), local.empty("a"))[1]
            assert await counters.bucket(key, rate, burst, take) == expected

    _run(redis_url, work)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(most=st.integers(0, 4),
       steps=st.lists(st.tuples(st.sampled_from(["take", "drop"]), st.integers(0, 6)), max_size=25))
def test_places_are_taken_and_given_back_as_a_set_would(redis_url: str, most: int,
                                                        steps: list[tuple[str, int]]) -> None:
    key = f"test:places:{next(_keys)}"
    model: set[int] = set()

    async def work(counters: Counters) -> None:
        for op, member in steps:
            if op == "drop":
                await counters.drop([(key, str(member))])
                model.discard(member)
                continue
            full = await counters.take([(key, 60_000, most)], str(member))
            if member in model or len(model) < most:     # counted already, or a place left
                assert full is None
                model.add(member)
            else:
                assert full == (0, len(model))
        assert await counters.redis.zcard(key) == len(model)

    _run(redis_url, work)


def test_many_asking_at_once_take_only_the_places_there_are(redis_url: str) -> None:
    async def work(counters: Counters) -> list[object]:
        keys = [f"test:race:{next(_keys)}", f"test:race:{next(_keys)}"]
        # two sets checked together (a person's and an address's quota): both hold, or nothing is added
        return await asyncio.gather(*(counters.take([(keys[0], 60_000, 5), (keys[1], 60_000, 7)], f"m{i}")
                                      for i in range(40)))

    answers = _run(redis_url, work)
    assert isinstance(answers, list)
    assert sum(a is None for a in answers) == 5
    assert all(a == (0, 5) for a in answers if a is not None)


def test_places_run_out_unless_kept(redis_url: str) -> None:
    async def work(counters: Counters) -> tuple[int, int]:
        kept, lapsed = f"test:ttl:{next(_keys)}", f"test:ttl:{next(_keys)}"
        for key in (kept, lapsed):
            assert await counters.take([(key, 400, 1)], "x") is None
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            await counters.keep([(kept, "x")], 400)
            await asyncio.sleep(0.1)
        return (await counters.take([(kept, 400, 1)], "y") is None,
                await counters.take([(lapsed, 400, 1)], "y") is None)

    assert _run(redis_url, work) == (False, True)     # the kept one is still full; the other ran out


def test_the_whole_servers_table_quotas_hold_across_processes_and_addresses(redis_url: str) -> None:
    """Issue 26: two processes (two counters on one Redis), a new address for every table: the server's tables
    an hour and open tables still stop at their limits, and a table taken back frees its place."""
    from fiftysix.server.cluster.counters import SharedQuotas
    from fiftysix.server.edge.limits import Limits, QuotaError

    many = 10**6
    per_hour = Limits(tables_per_hour=many, tables_per_hour_address=many, open_tables=many, open_tables_address=many,
                      tables_per_hour_all=3)
    at_once = Limits(tables_per_hour=many, tables_per_hour_address=many, open_tables=many, open_tables_address=many,
                     open_tables_all=2)

    async def work(counters: Counters) -> list[str]:
        await counters.redis.flushdb()
        refusals: list[str] = []
        two = [SharedQuotas(per_hour, counters), SharedQuotas(per_hour, Counters(counters.redis))]
        for n in range(5):
            try:
                await two[n % 2].check_create(f"H{n}", f"p{n}", f"127.0.4.{n}", False)
            except QuotaError as e:
                refusals.append(e.message)
        await counters.redis.flushdb()
        two = [SharedQuotas(at_once, counters), SharedQuotas(at_once, Counters(counters.redis))]
        hosted = [await two[n].check_create(f"O{n}", f"q{n}", f"127.0.5.{n}", False) for n in range(2)]
        try:
            await two[0].check_create("O2", "q2", "127.0.5.2", False)
        except QuotaError as e:
            refusals.append(e.message)
        await two[1].uncount("O1", hosted[1])
        await two[0].check_create("O3", "q3", "127.0.5.3", False)     # a place is free again
        return refusals

    refusals = _run(redis_url, work)
    assert isinstance(refusals, list) and len(refusals) == 3, refusals
    assert all("created 3 tables in the last hour, the most allowed (3 an hour)" in r for r in refusals[:2])
    assert "this server has 2 open tables, the most allowed (2)" in refusals[2]


def test_a_redis_outage_is_one_warning_however_many_requests_count(
        redis_server: Any, caplog: pytest.LogCaptureFixture) -> None:
    """Redis away for many requests: one line when the first count fails, one when a count succeeds again; the
    next outage says so again (issue 41: 1,092 lines a process over 14 outages)."""
    import logging

    import redis.asyncio as aioredis

    from fiftysix.server.cluster.counters import SharedLookups
    from fiftysix.server.edge.limits import Limits

    if redis_server.proc is None:
        redis_server.start()

    async def go() -> None:
        client = aioredis.Redis.from_url(redis_server.url, socket_timeout=1, socket_connect_timeout=1)
        lookups = SharedLookups(Limits(), Counters(client))
        try:
            assert not await lookups.refused("192.0.2.1")
            for outage in range(2):
                redis_server.stop()
                for _ in range(30):          # thirty requests while it is away: none refused, one line
                    assert not await lookups.refused("192.0.2.1")
                redis_server.start()
                for _ in range(50):          # the pool reconnects on the next command
                    try:
                        await client.ping()
                        break
                    except Exception:
                        await asyncio.sleep(0.1)
                assert not await lookups.refused("192.0.2.1")
                away = [r for r in caplog.records if "Redis is away" in r.getMessage()]
                back = [r for r in caplog.records if "Redis answers again" in r.getMessage()]
                assert len(away) == len(back) == outage + 1, [r.getMessage() for r in caplog.records]
                assert not any(r.exc_info for r in caplog.records)
        finally:
            await client.aclose()

    with caplog.at_level(logging.WARNING, logger="fiftysix.server"):
        asyncio.run(go())

"""The group commit's SQLite fast path stores exactly what the SQLAlchemy path would, and all or nothing."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fiftysix.server.storage import sqlite_writer
from fiftysix.server.storage.db import Database

_scalars = st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=12)
_data = st.dictionaries(st.text(max_size=6), st.recursive(
    _scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12), max_size=5)


async def _store(db: Database, code: str, batches: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    version = 0
    for batch in batches:
        appends = []
        for data in batch:
            version += 1
            appends.append(db.append(code, version, {**data, "kind": "create" if version == 1 else "x"}, "playing",
                                     (version, {"record": data}, {"result": version}) if version % 3 == 0 else None))
        await asyncio.gather(*appends)      # appended together: one batch of the group commit
    return await db.events_of(code)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(_data, min_size=1, max_size=6), min_size=1, max_size=4))
def test_both_paths_store_the_same_events_and_records(tmp_path_factory: pytest.TempPathFactory,
                                                      batches: list[list[dict[str, Any]]]) -> None:
    async def both() -> tuple[Any, Any]:
        out = []
        for fast in (True, False):
            db = Database(f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('db') / 'x.db'}")
            await db.migrate()
            if not fast:
                db._fast = None     # the SQLAlchemy path, as on PostgreSQL
            else:
                assert db._fast is not None
            stored = await _store(db, "ABCDEF", batches)
            deals = await db.deal_records("ABCDEF", 1, 10_000)
            assert await db.exists("ABCDEF")
            await db.close()
            out.append((stored, deals))
        return out[0], out[1]

    fast, slow = asyncio.run(both())
    assert fast == slow
    expected = [{**d, "kind": "create" if i == 0 else "x"} for i, d in enumerate(x for b in batches for x in b)]
    assert [e for e in fast[0]] == expected


def test_a_refused_append_fails_alone_and_the_rest_of_its_batch_is_stored(tmp_path: Path) -> None:
    async def run() -> tuple[list[Any], list[dict[str, Any]]]:
        db = Database(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
        await db.migrate()
        assert db._fast is not None
        await db.append("ABCDEF", 1, {"kind": "create", "time": 1}, "lobby")
        outcome = await asyncio.gather(db.append("ABCDEF", 2, {"kind": "a"}, "playing"),
                                       db.append("ABCDEF", 1, {"kind": "again"}, "playing"),   # a version taken
                                       db.append("ABCDEF", 3, {"kind": "b", "name": "മലയാളം \udc80"}, "playing"),
                                       return_exceptions=True)
        events = await db.events_of("ABCDEF")
        await db.close()
        return outcome, events

    outcome, events = asyncio.run(run())
    assert outcome[0] is None and outcome[2] is None and isinstance(outcome[1], Exception)
    assert events == [{"kind": "create", "time": 1}, {"kind": "a"}, {"kind": "b", "name": "മലയാളം \udc80"}]


def test_a_batch_waits_off_the_loop_while_another_connection_holds_the_write_lock(tmp_path: Path) -> None:
    path = tmp_path / "x.db"

    async def run() -> tuple[list[dict[str, Any]], int]:
        db = Database(f"sqlite+aiosqlite:///{path}")
        await db.migrate()
        await db.append("ABCDEF", 1, {"kind": "create", "time": 1}, "playing")
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")            # another writer holds the lock
        ticks = 0

        async def loop_free() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.create_task(loop_free())
        append = asyncio.create_task(db.append("ABCDEF", 2, {"kind": "waited"}, "playing"))
        await asyncio.sleep(0.5)
        assert not append.done()                    # it waits ...
        other.execute("COMMIT")
        other.close()
        await asyncio.wait_for(append, 10)           # ... and is stored once the lock is free
        ticker.cancel()
        events = await db.events_of("ABCDEF")
        await db.close()
        return events, ticks

    events, ticks = asyncio.run(run())
    assert events == [{"kind": "create", "time": 1}, {"kind": "waited"}]
    assert ticks >= 20                              # the event loop ran on meanwhile (0.5 s of 10 ms ticks)


@pytest.mark.parametrize("every", [50, 10**9])
def test_the_wal_is_checkpointed_off_the_loop_so_it_stops_growing(tmp_path: Path, every: int,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sqlite_writer, "CHECKPOINT_ROWS", every)
    path = tmp_path / "x.db"

    async def run() -> int:
        db = Database(f"sqlite+aiosqlite:///{path}")
        await db.migrate()
        await db.append("ABCDEF", 1, {"kind": "create", "time": 1}, "playing")
        # the migrations' own pages set the file's first size (more tables, more pages): count from there
        start = (tmp_path / "x.db-wal").stat().st_size if (tmp_path / "x.db-wal").exists() else 0
        version = 1
        for _ in range(60):
            await asyncio.gather(*(db.append("ABCDEF", version + i, {"kind": "x", "pad": "p" * 400}, "playing")
                                   for i in range(1, 21)))
            version += 20
            pending = db._fast._checkpoint if db._fast is not None else None
            if pending is not None:                  # a loaded machine: let the writer's thread finish it
                await asyncio.wait_for(asyncio.shield(pending), 30)
            await asyncio.sleep(0.01)
        size = (tmp_path / "x.db-wal").stat().st_size - start
        assert len(await db.events_of("ABCDEF")) == version
        await db.close()
        return size

    size = asyncio.run(run())
    if every == 50:
        assert size < 300_000, size                  # reused from its start after each checkpoint: grows little
    else:
        assert size > 500_000, size          # never checkpointed: the 1,200 rows are all added to it

"""``fiftysix serve --redis`` refuses what cannot work, before starting anything."""

from __future__ import annotations

import pytest

from helpers.cli import run


@pytest.mark.parametrize("db", ["sqlite+aiosqlite:///x.db", "mysql+aiomysql://u@h/d"])
def test_redis_needs_a_postgresql_database(db: str) -> None:
    done = run("serve", "--db", db, "--redis", "redis://127.0.0.1:1/0")
    assert done.code == 2
    assert "--redis needs a PostgreSQL --db" in done.err and db.split(":")[0] in done.err

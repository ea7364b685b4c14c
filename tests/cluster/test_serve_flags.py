"""``fiftysix serve --redis`` refuses what cannot work, before starting anything."""

from __future__ import annotations

import pytest

from helpers.cli import run


@pytest.mark.parametrize("db", ["sqlite+aiosqlite:///x.db", "sqlite:///x.db", "x.db"])
def test_redis_needs_a_postgresql_database(db: str) -> None:
    done = run("serve", "--db", db, "--redis", "redis://127.0.0.1:1/0")
    assert done.code == 2
    assert "--redis needs a PostgreSQL --db" in done.err and "sqlite" in done.err


def test_a_database_other_than_sqlite_or_postgresql_is_refused_by_db_itself(capsys: pytest.CaptureFixture[str]) -> None:
    done = run("serve", "--db", "mysql+aiomysql://u@h/d", "--redis", "redis://127.0.0.1:1/0")
    assert done.code == 2
    assert "argument --db: expected a SQLite file" in capsys.readouterr().err

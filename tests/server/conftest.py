"""The server tests' databases: every flow that touches the database runs on SQLite (a file in the test's
temporary directory) and on PostgreSQL (a fresh database in a throwaway cluster started once per session by
:mod:`helpers.pg`; marked ``db``).  In CI a missing PostgreSQL fails the run instead of skipping."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import pg

_databases = itertools.count(1)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[pg.Cluster]:
    bin_dir = pg.find_bin()
    if bin_dir is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("no PostgreSQL binaries in CI: .ci/run must install postgresql", pytrace=False)
        pytest.skip("no PostgreSQL binaries (initdb, pg_ctl, postgres, psql) on PATH, in PG_BIN or in "
                    "/usr/lib/postgresql/*/bin: apt-get install postgresql")
    with pg.cluster(bin_dir) as c:
        yield c


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.db)])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The database URL of one test: a new SQLite file, or a new database in the session's PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 't.db'}"
    cluster: pg.Cluster = request.getfixturevalue("pg_cluster")
    return cluster.create_database(f"t{next(_databases)}")

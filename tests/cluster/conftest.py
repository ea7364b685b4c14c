"""The cluster tests' services: a throwaway PostgreSQL cluster (:mod:`helpers.pg`) and a throwaway
``redis-server`` (:mod:`helpers.redis`), each started once per session on loopback ports, and server
processes started per test (:mod:`helpers.cluster`).  In CI a missing PostgreSQL or Redis fails the run."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

redis_client = pytest.importorskip("redis")
pytest.importorskip("starlette")

from helpers import pg  # noqa: E402
from helpers import redis as redis_helper  # noqa: E402
from helpers.cluster import Proc  # noqa: E402

_databases = itertools.count(1)
CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[pg.Cluster]:
    bin_dir = pg.find_bin()
    if bin_dir is None:
        if CI:
            pytest.fail("no PostgreSQL binaries in CI: .ci/run must install postgresql", pytrace=False)
        pytest.skip("no PostgreSQL binaries: apt-get install postgresql")
    with pg.cluster(bin_dir) as c:
        yield c


@pytest.fixture(scope="session")
def redis_server() -> Iterator[redis_helper.Server]:
    binary = redis_helper.find_server()
    if binary is None:
        if CI:
            pytest.fail("no redis-server in CI: .ci/run must install redis-server", pytrace=False)
        pytest.skip("no redis-server on PATH: apt-get install redis-server")
    with redis_helper.server(binary) as server:
        yield server


@pytest.fixture
def redis_url(redis_server: redis_helper.Server) -> str:
    if redis_server.proc is None:   # an outage test stopped it and failed before starting it again
        redis_server.start()
    return redis_server.url


@pytest.fixture
def dbname(pg_cluster: pg.Cluster) -> str:
    name = f"c{os.getpid()}x{next(_databases)}"
    pg_cluster.create_database(name)
    return name


@pytest.fixture
def start(pg_cluster: pg.Cluster, dbname: str, redis_url: str, tmp_path: Path) -> Iterator[Callable[..., Proc]]:
    """Start a server process of this test's cluster (stopped at the end) and wait until it answers;
    ``limits``: ``NAME=NUMBER`` items for ``--limit``."""
    procs: list[Proc] = []
    flush = redis_client.Redis.from_url(redis_url, socket_timeout=10)
    flush.flushdb()     # each test has its own database: what other tests counted in Redis is no concern of it
    flush.close()

    def go(bot_delay: float = 0.05, limits: tuple[str, ...] = ()) -> Proc:
        proc = Proc(pg_cluster.url(dbname), redis_url, tmp_path, bot_delay, limits)
        procs.append(proc)
        return proc.wait_ready()

    yield go
    for proc in procs:
        proc.stop()

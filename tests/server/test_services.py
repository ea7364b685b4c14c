"""The server's services (issue 26): which failures mean "the database (or Redis) is away", what viewers are
told, and that a request needing a service that is away is answered 503 with Retry-After, never 500.

The failures are real ones: an engine pointed at a loopback port nobody listens on refuses the connection.
"""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from sqlalchemy import text  # noqa: E402
from sqlalchemy.ext.asyncio import create_async_engine  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from fiftysix.server.services import DATABASE, REDIS, Services, service_message, service_of  # noqa: E402
from helpers.server import client, create, hello, keyed, player, receive, receive_until  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])     # closed again when the block ends: nobody listens there


def _failure_of(url: str) -> BaseException:
    async def go() -> BaseException:
        engine = create_async_engine(url)
        try:
            async with engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
        except Exception as e:
            return e
        finally:
            await engine.dispose()
        raise AssertionError("a connection to a closed port succeeded")
    return asyncio.run(go())


def test_a_refused_database_connection_is_the_database_and_other_errors_are_nobody() -> None:
    pytest.importorskip("asyncpg")
    error = _failure_of(f"postgresql+asyncpg://nobody@127.0.0.1:{_closed_port()}/nothing")
    assert service_of(error) == DATABASE
    assert service_of(ValueError("a bug")) is None
    assert service_of(KeyError("seat")) is None


def test_a_refused_redis_connection_is_redis() -> None:
    redis = pytest.importorskip("redis")

    async def go() -> BaseException:
        r = redis.asyncio.Redis(host="127.0.0.1", port=_closed_port(), socket_connect_timeout=2)
        try:
            await r.ping()
        except Exception as e:
            return e
        finally:
            await r.aclose()
        raise AssertionError("a Redis on a closed port answered")
    assert service_of(asyncio.run(go())) == REDIS


def test_only_a_change_is_told_and_new_viewers_hear_what_is_down() -> None:
    services, heard = Services(), []
    services.listeners.append(lambda s, ok: heard.append((s, ok)))
    services.report(DATABASE, True)          # was up: nothing to tell
    services.report(DATABASE, False)
    services.report(DATABASE, False)
    services.report(REDIS, False)
    assert heard == [(DATABASE, False), (REDIS, False)]
    assert services.messages() == [service_message(DATABASE, False), service_message(REDIS, False)]
    services.report(DATABASE, True)
    assert heard[-1] == (DATABASE, True) and services.messages() == [service_message(REDIS, False)]


def test_viewers_are_told_when_the_database_goes_and_comes_back(tmp_path: Path) -> None:
    with client(tmp_path / "s.db") as c:
        asha = player(c, "Asha")
        code = create(c, asha, preset="56-4")
        services = c.app.state.server.db.services  # type: ignore[attr-defined]
        with c.websocket_connect(keyed(f"/ws/{code}")) as ws:
            hello(ws, asha)
            c.portal.call(_report, services, DATABASE, False)
            assert receive_until(ws, lambda m: m["type"] == "service") == service_message(DATABASE, False)
            with c.websocket_connect(keyed(f"/ws/{code}")) as late:     # a viewer who comes while it is away
                hello(late, asha)
                assert receive_until(late, lambda m: m["type"] == "service") == service_message(DATABASE, False)
            c.portal.call(_report, services, DATABASE, True)
            assert receive_until(ws, lambda m: m["type"] == "service") == service_message(DATABASE, True)


async def _report(services: Services, service: str, ok: bool) -> None:
    services.report(service, ok)      # on the server's loop, as the writer task would


def test_a_request_needing_a_database_that_is_away_gets_503_with_words_never_500(tmp_path: Path) -> None:
    pytest.importorskip("asyncpg")
    with client(tmp_path / "s.db") as c:
        asha = player(c, "Asha")
        loaded = create(c, asha, preset="56-4")
        server = c.app.state.server  # type: ignore[attr-defined]
        good = server.db.engine
        server.db.engine = create_async_engine(f"postgresql+asyncpg://nobody@127.0.0.1:{_closed_port()}/x")
        try:
            r = c.get("/api/tables/ZZZZZZ")          # not in memory: the database must be asked
            assert r.status_code == 503, r.text
            assert int(r.headers["Retry-After"]) > 0
            body: dict[str, Any] = r.json()
            assert body["service"] == DATABASE and "not answering" in body["error"]
            with pytest.raises(WebSocketDisconnect) as closed, c.websocket_connect("/ws/ZZZZZZ") as ws:
                assert receive(ws) == service_message(DATABASE, False)
                receive(ws)
            assert closed.value.code == 1013
            assert c.get(keyed(f"/api/tables/{loaded}")).status_code == 200     # in memory: still answers
            with c.websocket_connect(keyed(f"/ws/{loaded}")) as ws:
                hello(ws, asha)
                assert receive_until(ws, lambda m: m["type"] == "service") == service_message(DATABASE, False)
        finally:
            c.portal.call(server.db.engine.dispose)
            server.db.engine = good

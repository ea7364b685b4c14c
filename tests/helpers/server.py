"""Helpers for the server tests: an app on a temporary database, players, tables and websocket talk."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

import anyio  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from fiftysix.server import Settings, Timing, create_app  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

Message = dict[str, Any]
CARD = re.compile(r"^(10|[2-9TJQKA])[SHDC]$")


def make_app(db: Path | str, bot_delay: float = 0.0, next_delay: float = 0.0, review_from_trick: int = 1,
             **timing: Any) -> Any:
    """An app on ``db``: a SQLite file's path, or any SQLAlchemy async URL; ``timing``: more
    :class:`Timing` fields."""
    url = db if isinstance(db, str) and "://" in db else f"sqlite+aiosqlite:///{db}"
    return create_app(Settings(db_url=url, timing=Timing(bot_delay=bot_delay, next_delay=next_delay, **timing),
                               review_from_trick=review_from_trick))


@contextmanager
def client(db: Path | str, **timing: Any) -> Iterator[TestClient]:
    with TestClient(make_app(db, **timing)) as c:
        yield c


def player(c: TestClient, name: str) -> str:
    """A new player's token (a fresh browser: no cookie of an earlier player)."""
    c.cookies.clear()
    r = c.post("/api/player", json={"name": name})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


KEYS: dict[str, str] = {}
"""The link secret of each private table the tests created, by code."""


def create(c: TestClient, token: str, **form: Any) -> str:
    """A new table's code (its link secret goes to :data:`KEYS`)."""
    r = c.post("/api/tables", json={"token": token, **form})
    assert r.status_code == 200, r.text
    data = r.json()
    if data.get("key"):
        KEYS[data["code"]] = data["key"]
        assert data["url"] == f"/t/{data['code']}#k={data['key']}"
    return str(data["code"])


def keyed(path: str) -> str:
    """``path`` (``/ws/CODE``, ``/api/tables/CODE/...``) with the table's link secret, as a friend's link has it."""
    parts = path.split("/")
    code = parts[2] if parts[1] in ("ws", "t") else parts[3]
    key = KEYS.get(code)
    return path if key is None else f"{path}{'&' if '?' in path else '?'}k={key}"


RECEIVE_SECONDS = 120.0
"""How long one message may take to come before a test fails (instead of waiting for pytest-timeout)."""


def receive(ws: Any, seconds: float = RECEIVE_SECONDS) -> Message:
    """The next message of a test client's websocket, or an ``AssertionError`` after ``seconds``.

    Starlette's test session waits forever; this waits on the same stream through its portal."""
    stream = getattr(ws, "_send_rx", None)
    if stream is None:      # another Starlette: no deadline
        return dict(ws.receive_json())

    async def within() -> Any:
        with anyio.fail_after(seconds):
            return await stream.receive()

    try:
        message = ws.portal.call(within)
    except TimeoutError:
        raise AssertionError(f"no message came for {seconds:g} s") from None
    ws._raise_on_close(message)
    return dict(json.loads(message["text"]))


def receive_until(ws: Any, pred: Callable[[Message], bool], limit: int = 5000) -> Message:
    """Read messages until one satisfies ``pred``; fails after ``limit`` messages, after a silence, or at once
    on a refusal for sending too fast (the refused message gets no answer), naming the last messages read."""
    seen: list[str] = []
    for _ in range(limit):
        try:
            msg = receive(ws)
        except AssertionError as e:
            raise AssertionError(f"{e}; the last messages were {seen[-8:]}") from None
        if pred(msg):
            return msg
        seen.append(json.dumps(msg)[:200])
        if msg["type"] == "error" and str(msg.get("message", "")).startswith("too many messages"):
            raise AssertionError(f"the server refused a message as too fast: {seen[-8:]}")
    raise AssertionError(f"the expected message never came; the last messages were {seen[-8:]}")


def is_snapshot(msg: Message) -> bool:
    return msg["type"] in ("state", "event")


def my_turn(msg: Message) -> bool:
    return is_snapshot(msg) and msg["view"] is not None and bool(msg["view"].get("legal"))


def hello(ws: Any, token: str | None = None, version: int | None = None) -> Message:
    """Say hello and return the first state (or event when replaying)."""
    msg: Message = {"type": "hello"}
    if token is not None:
        msg["token"] = token
    if version is not None:
        msg["version"] = version
    ws.send_json(msg)
    return receive_until(ws, is_snapshot)


def cards_in(value: Any) -> list[str]:
    """Every card-like token anywhere in a message."""
    out: list[str] = []
    if isinstance(value, dict):
        for v in value.values():
            out += cards_in(v)
    elif isinstance(value, list):
        for v in value:
            out += cards_in(v)
    elif isinstance(value, str):
        out += [t for t in re.split(r"[\s,;:()]+", value) if CARD.match(t)]
    return out


@contextmanager
def serve_in_thread(app: Any, edge: Any, http: str = "auto", **options: Any) -> Iterator[int]:
    """``app`` behind ``fiftysix serve``'s uvicorn configuration (``listen.server_config`` with ``edge``) on
    127.0.0.1, a free port, in a thread of this process; yields the port; stopped at the end."""
    import socket
    import threading
    import time

    import uvicorn

    from fiftysix.server.edge.listen import server_config

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = uvicorn.Server(server_config(app, edge, http, host="127.0.0.1", port=port, log_level="warning",
                                          **options))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=10)

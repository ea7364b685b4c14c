"""Issue 55, item 2: signing a device out, signing out everywhere and deleting an account close every websocket of
what was signed out at once, however the socket said who it is (the cookie, hello's token or both), and anything
such a socket sends after changes nothing; every other socket stays open."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openskill")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from fiftysix.server import Settings, Timing, create_app  # noqa: E402
from fiftysix.server.accounts import routes as account_routes  # noqa: E402
from fiftysix.server.edge.limits import Limits  # noqa: E402
from helpers.server import create, hello, keyed, receive, receive_until  # noqa: E402

COOKIE = "fiftysix_player"
ACTIONS = ("signout", "revoke-self", "revoke-other", "signout-all", "delete")
AFFECTED = {"signout": {"a"}, "revoke-self": {"a"}, "revoke-other": {"b"}, "signout-all": {"a", "b"},
            "delete": {"a", "b"}}
"""Which devices each action (taken on device ``a``) signs out: ``a`` and ``b`` are two devices of one account."""


def roomy_client(db: Path, monkeypatch: pytest.MonkeyPatch) -> TestClient:
    """A server on ``db`` whose per-address limits let one test address make many accounts and tables."""
    monkeypatch.setattr(account_routes.GUARD, "per_address", (1000.0, 1000))
    monkeypatch.setattr(account_routes, "SIGNINS", (1000.0, 1000))
    limits = Limits(tables_per_hour_address=10_000, open_tables_address=10_000, tables_per_hour_all=10_000,
                    open_tables_all=10_000)
    return TestClient(create_app(Settings(db_url=f"sqlite+aiosqlite:///{db}", timing=Timing(bot_delay=0.0),
                                          limits=limits)))


def as_device(c: TestClient, token: str | None) -> None:
    c.cookies.clear()
    if token is not None:
        c.cookies.set(COOKIE, token)


def two_devices(c: TestClient, name: str) -> tuple[str, str, str, str]:
    """A new account signed in on two devices: (token a, token b, session a, session b)."""
    as_device(c, None)
    first = c.post("/api/player", json={"name": name})
    assert first.status_code == 200, first.text
    as_device(c, first.json()["token"])
    upgraded = c.get("/api/account")
    assert upgraded.status_code == 200 and upgraded.json()["upgraded"], upgraded.text
    a = str(upgraded.json()["token"])
    as_device(c, a)
    code = c.post("/api/account/recovery", json={}).json()["code"]
    as_device(c, None)
    used = c.post("/api/account/recovery/use", json={"code": code})
    assert used.status_code == 200, used.text
    b = str(used.json()["token"])
    as_device(c, a)
    devices = c.get("/api/account").json()["devices"]
    mine = next(d["id"] for d in devices if d["current"])
    other = next(d["id"] for d in devices if not d["current"])
    return a, b, mine, other


def act(c: TestClient, action: str, a: str, session_a: str, session_b: str) -> None:
    """Take ``action`` on device ``a``."""
    as_device(c, a)
    if action == "signout":
        r = c.post("/api/account/signout", json={})
    elif action == "revoke-self":
        r = c.post("/api/account/devices/revoke", json={"device": session_a})
    elif action == "revoke-other":
        r = c.post("/api/account/devices/revoke", json={"device": session_b})
    elif action == "signout-all":
        r = c.post("/api/player/signout-all", json={})
    else:
        r = c.post("/api/account/delete", json={"confirm": True})
    assert r.status_code == 200, (action, r.text)


def closed_code(ws: Any) -> int | None:
    """Read until the server closes ``ws`` (its close code), or ``None`` when it stays open (3 s of silence or
    many messages)."""
    try:
        for _ in range(300):
            receive(ws, 3.0)
    except WebSocketDisconnect as e:
        return int(e.code)
    except AssertionError:      # silence: still open
        return None
    return None


def facts(c: TestClient, code: str) -> tuple[int, str, bool]:
    as_device(c, None)
    r = c.get(keyed(f"/api/tables/{code}"))
    assert r.status_code == 200, r.text
    info = r.json()
    return int(info["version"]), str(info["status"]), bool(info["paused"])


SOCKETS = st.lists(st.tuples(st.sampled_from(("a", "b", "q")), st.sampled_from(("cookie", "hello", "both"))),
                   min_size=1, max_size=4)


def test_a_sign_out_closes_exactly_the_sockets_it_signed_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             ) -> None:
    names = iter(range(10_000))
    with roomy_client(tmp_path / "t.db", monkeypatch) as c:
        @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
        @given(sockets=SOCKETS, action=st.sampled_from(ACTIONS))
        def check(sockets: list[tuple[str, str]], action: str) -> None:
            n = next(names)
            a, b, session_a, session_b = two_devices(c, f"Host {n}")
            as_device(c, None)
            q = str(c.post("/api/player", json={"name": f"Guest {n}"}).json()["token"])
            tokens = {"a": a, "b": b, "q": q}
            code = create(c, a, preset="56-4", fill="random")
            opened = []
            try:
                for who, how in sockets:
                    as_device(c, tokens[who] if how in ("cookie", "both") else None)
                    ws = c.websocket_connect(keyed(f"/ws/{code}")).__enter__()
                    opened.append(ws)
                    first = hello(ws, tokens[who] if how in ("hello", "both") else None)
                    assert first["you"]["host"] == (who != "q"), (who, how, first["you"])
                before = facts(c, code)
                act(c, action, a, session_a, session_b)
                for (who, how), ws in zip(sockets, opened, strict=True):
                    if who in AFFECTED[action]:     # what it sends now must change nothing, and it is closed
                        ws.send_json({"type": "start"})
                        ws.send_json({"type": "pause"})
                        assert closed_code(ws) == 4401, (who, how, action)
                    else:
                        ws.send_json({"type": "ping"})
                        assert receive_until(ws, lambda m: m["type"] == "pong")["type"] == "pong", (who, how)
                assert facts(c, code) == before, (sockets, action)
            finally:
                for ws in opened:
                    ws.__exit__(None, None, None)
        check()


def test_a_message_read_after_the_sign_out_before_the_close_is_refused(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The race: the device is signed out in this process (its tokens refused) and the socket is not closed yet;
    what it sends is refused with the reason, changes nothing, and the socket is closed."""
    with roomy_client(tmp_path / "t.db", monkeypatch) as c:
        a, _b, session_a, _ = two_devices(c, "Asha")
        code = create(c, a, preset="56-4", fill="random")
        as_device(c, None)
        with c.websocket_connect(keyed(f"/ws/{code}")) as ws:
            assert hello(ws, a)["you"]["host"]
            before = facts(c, code)
            c.app.state.server.signer().revoked.add(session_a)    # type: ignore[attr-defined]
            ws.send_json({"type": "start"})
            refused = receive_until(ws, lambda m: m["type"] == "error")
            assert "signed out" in refused["message"]
            assert closed_code(ws) == 4401
        assert facts(c, code) == before

"""Issue 26: cheap CPU with no account, the secret in the access log, and limits that hold under many addresses.

QR codes off the event loop and limited per address; new reviews limited per address; a socket that never
says hello is closed; a client that never reads is cut off and does not hold up other tables; the link
secret is not logged; tables, websockets and connections are capped for the whole server, not only per
address.  Many client addresses are loopback ones (127.0.0.2, 127.0.0.3, ...): the test client's scope, or a
real socket bound to that source address.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from fiftysix.server import Settings, Timing, create_app
from helpers.server import receive, serve_in_thread

uvicorn = pytest.importorskip("uvicorn")
from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from fiftysix.server.edge import share  # noqa: E402
from fiftysix.server.edge.limits import Limits  # noqa: E402
from fiftysix.server.edge.listen import EdgeLimits  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

MANY = 10**6


def roomy(**changes: Any) -> Limits:
    """Limits with the per-person and per-address table quotas out of the way, and ``changes``."""
    return Limits(**{"tables_per_hour": MANY, "tables_per_hour_address": MANY, "open_tables": MANY,
                     "open_tables_address": MANY, **changes})


@contextmanager
def app_client(tmp_path: Path, limits: Limits | None = None, **timing: Any) -> Iterator[TestClient]:
    app = create_app(Settings(db_url=f"sqlite+aiosqlite:///{tmp_path / 'cpu.db'}", limits=limits or Limits(),
                              timing=Timing(bot_delay=0.0, next_delay=0.0, **timing)))
    with TestClient(app) as c:
        yield c


@contextmanager
def from_address(c: TestClient, address: str) -> Iterator[TestClient]:
    """Requests (and websockets) of ``c`` as if from ``address`` (the ASGI scope's client)."""
    transport: Any = c._transport
    before = transport.client
    transport.client = (address, 40000)
    try:
        yield c
    finally:
        transport.client = before


def new_table(c: TestClient, name: str = "Asha") -> tuple[int, dict[str, Any]]:
    c.cookies.clear()
    token = c.post("/api/player", json={"name": name}).json()["token"]
    r = c.post("/api/tables", json={"token": token})
    return r.status_code, r.json()


# -- QR codes -------------------------------------------------------------------------------------------

def test_a_qr_flood_from_one_address_gets_429_after_the_burst_and_the_codes_are_made_off_the_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made_on_loop: list[bool] = []
    real = share.qr_data_uri

    def watched(text: str) -> str:
        try:
            import asyncio

            asyncio.get_running_loop()
            made_on_loop.append(True)
        except RuntimeError:
            made_on_loop.append(False)
        return real(text)

    monkeypatch.setattr(share, "qr_data_uri", watched)
    limits = Limits(qr_burst=5, qr_per_minute=6)
    with app_client(tmp_path, limits) as c:
        with from_address(c, "127.0.0.2"):
            answers = [c.post("/api/share", json={"path": f"/t/ABC{n:03d}"}) for n in range(8)]
            assert [r.status_code for r in answers] == [200] * 5 + [429] * 3, [r.text for r in answers]
            refused = answers[-1]
            assert int(refused.headers["Retry-After"]) >= 1
            assert "too many QR codes from your address" in refused.json()["error"]
            assert answers[0].json()["qr"].startswith("data:image/svg+xml")
        with from_address(c, "127.0.0.3"):      # another address is not held up by the first one's flood
            assert c.post("/api/share", json={"path": "/t/ABC000"}).status_code == 200
    assert made_on_loop and not any(made_on_loop), made_on_loop


def test_the_same_link_twice_is_made_once() -> None:
    assert share.recent_qr("http://127.0.0.1:8056/t/CACHED") is None
    first = share.qr_data_uri("http://127.0.0.1:8056/t/CACHED")
    started = time.perf_counter()
    assert share.qr_data_uri("http://127.0.0.1:8056/t/CACHED") is first
    assert time.perf_counter() - started < 0.002
    assert share.recent_qr("http://127.0.0.1:8056/t/CACHED") is first


# -- reviews --------------------------------------------------------------------------------------------

def test_a_review_flood_from_one_address_gets_429_naming_the_limit(tmp_path: Path) -> None:
    limits = Limits(review_burst=3, reviews_per_minute=3)
    with app_client(tmp_path, limits) as c:
        with from_address(c, "127.0.0.2"):
            answers = [c.post("/api/review", json={"record": {"flood": n}, "deal": 0}) for n in range(5)]
            assert [r.status_code for r in answers] == [422] * 3 + [429] * 2, [r.text for r in answers]
            assert int(answers[-1].headers["Retry-After"]) >= 1
            assert "too many new reviews from your address (at most 3 at once" in answers[-1].json()["error"]
        with from_address(c, "127.0.0.3"):
            assert c.post("/api/review", json={"record": {"flood": 9}, "deal": 0}).status_code == 422


# -- tables and websockets in all -----------------------------------------------------------------------

def test_tables_created_an_hour_are_capped_for_the_whole_server(tmp_path: Path) -> None:
    with app_client(tmp_path, roomy(tables_per_hour_all=4)) as c:
        statuses = []
        for n in range(6):
            with from_address(c, f"127.0.0.{2 + n}"):
                statuses.append(new_table(c, f"P{n}"))
        assert [s for s, _ in statuses] == [200] * 4 + [429] * 2, statuses
        assert "created 4 tables in the last hour, the most allowed (4 an hour)" in statuses[-1][1]["error"]


def test_open_tables_are_capped_for_the_whole_server(tmp_path: Path) -> None:
    with app_client(tmp_path, roomy(open_tables_all=3)) as c:
        statuses = []
        for n in range(5):
            with from_address(c, f"127.0.1.{2 + n}"):
                statuses.append(new_table(c, f"P{n}"))
        assert [s for s, _ in statuses] == [200] * 3 + [429] * 2, statuses
        assert "this server has 3 open tables, the most allowed (3)" in statuses[-1][1]["error"]


def test_websockets_past_the_cap_are_refused_with_1013(tmp_path: Path) -> None:
    with app_client(tmp_path, roomy(sockets=2)) as c:
        _status, table = new_table(c)
        path = f"/ws/{table['code']}?k={table['key']}" if table.get("key") else f"/ws/{table['code']}"
        with from_address(c, "127.0.0.2"), c.websocket_connect(path) as one, c.websocket_connect(path) as two:
            for ws in (one, two):
                ws.send_json({"type": "hello"})
                assert receive(ws, 10)["type"] in ("state", "private")
            with c.websocket_connect(path) as third:
                msg = receive(third, 10)
                assert msg["type"] == "error" and "as many connections as it can take" in msg["message"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    receive(third, 10)
                assert closed.value.code == 1013
        with from_address(c, "127.0.0.3"), c.websocket_connect(path) as again:     # the places are free again
            again.send_json({"type": "hello"})
            assert receive(again, 10)["type"] in ("state", "private")


# -- hello timeout --------------------------------------------------------------------------------------

def test_a_socket_that_never_says_hello_is_closed_after_the_hello_timeout(tmp_path: Path) -> None:
    with app_client(tmp_path, hello_timeout=0.5) as c:
        _status, table = new_table(c)
        started = time.monotonic()
        with c.websocket_connect(f"/ws/{table['code']}") as ws, pytest.raises(WebSocketDisconnect) as closed:
            receive(ws, 5)
        assert closed.value.code == 4408 and "no hello within 0.5 s" in (closed.value.reason or "")
        assert time.monotonic() - started < 4


# -- a real uvicorn -------------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def live(tmp_path: Path, edge: EdgeLimits, limits: Limits | None = None, **timing: Any) -> Iterator[int]:
    """``fiftysix serve``'s uvicorn configuration on 127.0.0.1 in a thread of this process; yields the port."""
    app = create_app(Settings(db_url=f"sqlite+aiosqlite:///{tmp_path / 'live.db'}", limits=limits or roomy(),
                              timing=Timing(bot_delay=0.0, **timing)))
    with serve_in_thread(app, edge) as port:
        yield port


def http(port: int, raw: bytes, source: str = "127.0.0.1", timeout: float = 5.0) -> bytes:
    with socket.socket() as s:
        s.settimeout(timeout)
        s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(raw)
        out = b""
        while True:
            try:
                data = s.recv(65536)
            except (TimeoutError, OSError):
                break
            if not data:
                break
            out += data
        return out


def post_json(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    data = json.dumps(body).encode()
    answer = http(port, (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         f"Connection: close\r\nContent-Length: {len(data)}\r\n\r\n").encode() + data)
    assert answer.startswith(b"HTTP/1.1 200"), answer[:300]
    return dict(json.loads(answer.partition(b"\r\n\r\n")[2]))


def live_table(port: int) -> str:
    """A new table's websocket path (with its secret)."""
    token = post_json(port, "/api/player", {"name": "Asha"})["token"]
    table = post_json(port, "/api/tables", {"token": token})
    return f"/ws/{table['code']}" + (f"?k={table['key']}" if table.get("key") else "")


def frame(text: str) -> bytes:
    """A masked text frame, as a client sends it."""
    data, mask = text.encode(), os.urandom(4)
    size = bytes([0x80 | len(data)]) if len(data) < 126 else bytes([0x80 | 126]) + struct.pack(">H", len(data))
    return b"\x81" + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def raw_websocket(port: int, path: str, source: str = "127.0.0.1", rcvbuf: int | None = None) -> socket.socket:
    s = socket.socket()
    if rcvbuf is not None:      # a small window: the server's buffers fill soon when this client never reads
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    return s


def open_descriptors() -> int:
    """This process's open file descriptors (the server runs in a thread of it)."""
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="counts descriptors in /proc")
@pytest.mark.serial      # a time budget: run alone (make test)
def test_clients_that_never_read_are_cut_off_and_do_not_delay_another_tables_pong(tmp_path: Path) -> None:
    from websockets.sync.client import connect

    edge = EdgeLimits(per_address=0, send_timeout=1.0, send_buffer=16384)
    with live(tmp_path, edge, message_rate=2000.0, message_burst=4000, send_queue=100_000, send_timeout=1.0) as port:
        victim_path, crowd_path = live_table(port), live_table(port)
        with connect(f"ws://127.0.0.1:{port}{victim_path}") as victim:
            victim.send(json.dumps({"type": "hello"}))

            def pong() -> float:
                started = time.monotonic()
                victim.send('{"type": "ping"}')
                while json.loads(victim.recv(timeout=10))["type"] != "pong":
                    pass
                return time.monotonic() - started

            pong()
            # one polite visit to the crowd's table first: what a first hello opens once for good (the database
            # pool's connection of the club check) must not count as a reader's descriptor below
            with connect(f"ws://127.0.0.1:{port}{crowd_path}") as polite:
                polite.send(json.dumps({"type": "hello"}))
                polite.recv(timeout=10)
            time.sleep(0.3)
            before = open_descriptors()
            crowd = [raw_websocket(port, crowd_path, f"127.0.2.{2 + n}", rcvbuf=4096) for n in range(4)]
            try:
                hello, ask = frame('{"type": "hello"}'), frame('{"type": "state"}')
                for s in crowd:
                    s.sendall(hello)
                worst, until = 0.0, time.monotonic() + 4
                while time.monotonic() < until:
                    for s in crowd:     # each asks for full states it never reads
                        try:
                            s.setblocking(False)
                            s.send(ask * 20)
                        except OSError:
                            pass
                    worst = max(worst, pong())
                    time.sleep(0.05)
                time.sleep(2.5)
                # the server's side of each reader is gone (aborted): only the test's own ends are left
                left = open_descriptors() - before
                assert left <= len(crowd) + 2, f"{left} descriptors still open for {len(crowd)} readers"
                assert worst < 1.0, f"another table's pong took {worst:.2f} s"
                assert pong() < 1.0
            finally:
                for s in crowd:
                    s.close()


def test_connections_in_all_are_capped_with_503_and_released(tmp_path: Path) -> None:
    with live(tmp_path, EdgeLimits(per_address=0, connections=4)) as port:
        get = b"GET /api/catalogue HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        path = live_table(port)
        idle = []
        try:
            # four addresses, each one idle connection waiting for its headers: the oldest is given up for a
            # request that comes complete (issue 41: slow clients must not keep page loads out)
            for n in range(4):
                s = socket.socket()
                s.bind((f"127.0.3.{2 + n}", 0))
                s.connect(("127.0.0.1", port))
                idle.append(s)
            time.sleep(0.2)
            assert http(port, get, source="127.0.3.9").startswith(b"HTTP/1.1 200")
            idle[0].settimeout(2)
            assert idle[0].recv(100) == b"", "the oldest waiting connection was closed"
            for s in idle:
                s.close()
            # four websockets (players at a table) are never given up: one more connection gets 503
            idle = [raw_websocket(port, path, f"127.0.3.{2 + n}") for n in range(4)]
            for s in idle:
                s.settimeout(5)
                assert s.recv(4096).startswith(b"HTTP/1.1 101")
            answer = http(port, get, source="127.0.3.9")
            assert answer.startswith(b"HTTP/1.1 503"), answer[:200]
            assert b"retry-after: 60" in answer.lower() and b"as many connections as it can take" in answer
        finally:
            for s in idle:
                s.close()
        time.sleep(0.3)
        assert http(port, get, source="127.0.3.9").startswith(b"HTTP/1.1 200")


def test_the_access_log_at_the_default_level_has_no_secret(tmp_path: Path) -> None:
    port = free_port()
    import fiftysix

    src = str(Path(fiftysix.__file__).resolve().parents[1])     # the package these tests import
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    serve = ["serve", "--host", "127.0.0.1", "--port", str(port), "--db", f"sqlite+aiosqlite:///{tmp_path / 's.db'}"]
    log_file = tmp_path / "serve.log"
    with log_file.open("wb") as out:
        server = subprocess.Popen([sys.executable, "-c", "import sys; from fiftysix.cli.main import main; "
                                   f"sys.exit(main({serve!r}))"], env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert time.monotonic() < deadline and server.poll() is None, "fiftysix serve did not start"
            try:
                if http(port, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", timeout=2).startswith(
                        b"HTTP/1.1 200"):
                    break
            except OSError:
                time.sleep(0.1)
        path = live_table(port)
        code, _, key = path.removeprefix("/ws/").partition("?k=")
        key = key or "no-key-on-this-table"
        secrets = [key, "tok-kept-out-of-the-log", "another-secret-value"]
        for raw in (f"GET /t/{code}?k={key} HTTP/1.1", f"GET /api/tables/{code}?k={key}&x=1 HTTP/1.1",
                    f"GET /api/tables/{code}?token={secrets[1]} HTTP/1.1", f"GET /t/{code}?key={secrets[2]} HTTP/1.1"):
            http(port, f"{raw}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        ws = raw_websocket(port, f"/ws/{code}?k={key}")
        ws.settimeout(5)
        ws.recv(4096)       # the handshake's answer: the websocket was accepted (and logged)
        ws.close()
        time.sleep(0.5)
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)
    text = log_file.read_text(errors="replace")
    assert f"/t/{code}?k=***" in text and f"/ws/{code}?k=***" in text, text[-2000:]
    for secret in secrets:
        assert secret not in text, f"{secret!r} is in the log:\n{text[-2000:]}"


def test_a_socket_whose_first_message_is_not_hello_is_still_closed_at_the_hello_timeout(tmp_path: Path) -> None:
    """Another first message is answered as if hello had come, but the timeout runs on until a real hello
    (issue 41: such a socket stayed open as a keyless viewer)."""
    with app_client(tmp_path, hello_timeout=0.5) as c:
        _status, table = new_table(c)
        started = time.monotonic()
        with c.websocket_connect(f"/ws/{table['code']}") as ws, pytest.raises(WebSocketDisconnect) as closed:
            ws.send_json({"type": "ping"})
            for _ in range(20):         # its state and pong, then the close
                receive(ws, 5)
        assert closed.value.code == 4408, closed.value
        assert time.monotonic() - started < 4


def test_a_socket_that_says_hello_late_but_in_time_stays(tmp_path: Path) -> None:
    with app_client(tmp_path, hello_timeout=1.0) as c:
        _status, table = new_table(c)
        with c.websocket_connect(f"/ws/{table['code']}") as ws:
            ws.send_json({"type": "ping"})
            time.sleep(0.3)
            ws.send_json({"type": "hello"})
            time.sleep(1.2)                 # past the timeout: greeted, so the socket stays
            ws.send_json({"type": "ping"})
            seen = [receive(ws, 5) for _ in range(3)]
            assert all(m.get("type") != "error" or "hello" not in str(m.get("message")) for m in seen), seen


def test_a_client_flooding_after_the_servers_close_frame_is_cut_off_at_once(tmp_path: Path) -> None:
    """After its close frame the server reads what the client still sends (uvicorn: up to 10 s); more than
    AFTER_CLOSE bytes of it is a flood, cut off at once instead of parsed for 10 s (issue 41)."""
    from fiftysix.server.edge.listen import AFTER_CLOSE

    with live(tmp_path, EdgeLimits(per_address=0), hello_timeout=0.5) as port:
        s = raw_websocket(port, live_table(port))
        s.settimeout(5)
        assert s.recv(4096).startswith(b"HTTP/1.1 101")
        time.sleep(1.0)             # no hello: the server sends its close frame (4408)
        ping = frame('{"type": "ping"}')
        started = time.monotonic()
        sent = 0
        try:
            while sent < 4 * AFTER_CLOSE and time.monotonic() - started < 5:
                sent += s.send(ping * 200)
            while time.monotonic() - started < 5:      # the server's end goes away: a reset or the end of data
                s.send(ping * 200)
                time.sleep(0.01)
            cut = False
        except OSError:
            cut = True
        finally:
            s.close()
        assert cut and time.monotonic() - started < 5, "still read after the close frame"

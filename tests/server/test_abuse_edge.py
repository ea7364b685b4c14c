"""Issue 12 at the edge: what an attacker on the network may send, and what the server must still do.

Cross-site requests and websockets, JSON-only state changes, cookies and tokens (Secure, expiry, sign out
everywhere), security headers, request bodies over the limit, JSON bombs and binary frames, names that
are not printable text, and slow or too many connections against a real uvicorn server on 127.0.0.1.
Database-dependent flows run on SQLite and PostgreSQL (the ``db`` fixture of test_server.py).
"""

from __future__ import annotations

import contextlib
import json
import random
import socket
import time
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fiftysix.server import Settings, Timing, create_app
from fiftysix.server.edge.tokens import COOKIE, Tokens
from helpers.server import client, create, hello, is_snapshot, keyed, player, receive_until, serve_in_thread

uvicorn = pytest.importorskip("uvicorn")
from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from fiftysix.server.edge.limits import Limits  # noqa: E402
from fiftysix.server.edge.listen import EdgeLimits  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SECRET = "a-test-secret-kept-by-the-test"
SAME = "http://testserver"      # the origin of Starlette's test client
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@contextmanager
def app_client(path: Path | str, base_url: str = SAME, **options: Any) -> Iterator[TestClient]:
    url = path if isinstance(path, str) else f"sqlite+aiosqlite:///{path}"
    app = create_app(Settings(db_url=url, timing=Timing(bot_delay=0.0, next_delay=0.0), secret=SECRET, **options))
    with TestClient(app, base_url=base_url) as c:
        yield c


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One app for the many-example tests that need no fresh database."""
    many = 10**6    # the quotas of the table-level tests are not what these many examples test
    quotas = Limits(tables_per_hour=many, tables_per_hour_address=many, open_tables=many, open_tables_address=many)
    with app_client(tmp_path_factory.mktemp("edge") / "edge.db",
                    allowed_origins=("https://friends.example.org",), limits=quotas) as c:
        yield c


def new_player(c: TestClient, name: str = "Asha") -> str:
    c.cookies.clear()
    r = c.post("/api/player", json={"name": name})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


# -- 1. cross-site ------------------------------------------------------------------------------------

foreign_hosts = st.from_regex(r"[a-z][a-z0-9-]{0,20}\.(com|org|net|example)(:[0-9]{2,5})?", fullmatch=True)
foreign_origins = st.tuples(st.sampled_from(["http", "https"]), foreign_hosts).map(lambda t: f"{t[0]}://{t[1]}") \
    | st.sampled_from(["null", "http://testserver.evil.com", "http://testserver:81",
                       "http://evil.com@testserver", "file://", "chrome-extension://abc"])


@FAST
@given(origin=foreign_origins, path=st.sampled_from(["/api/player", "/api/tables", "/api/player/signout-all"]),
       text_plain=st.booleans())
def test_a_state_change_from_a_foreign_origin_is_refused_and_changes_nothing(
        shared: TestClient, origin: str, path: str, text_plain: bool) -> None:
    token = new_player(shared)
    headers = {"origin": origin, "content-type": "text/plain" if text_plain else "application/json"}
    r = shared.post(path, content=json.dumps({"name": "Mallory", "token": token, "preset": "56-4"}),
                    headers=headers)
    assert r.status_code == 403 and "cross-site" in r.json()["error"]
    assert "set-cookie" not in r.headers
    assert shared.cookies.get(COOKIE) == token      # the visitor's identity is untouched
    # the player was not signed out either: the token still creates a table
    assert shared.post("/api/tables", json={"token": token, "preset": "56-4"}).status_code == 200


@FAST
@given(site=st.sampled_from(["cross-site", "same-site", "CROSS-SITE"]))
def test_without_origin_a_cross_site_fetch_metadata_is_refused(shared: TestClient, site: str) -> None:
    r = shared.post("/api/player", json={"name": "Mallory"}, headers={"sec-fetch-site": site})
    assert r.status_code == 403


def test_same_origin_the_allowed_list_and_non_browser_clients_pass(shared: TestClient) -> None:
    for headers in ({"origin": SAME}, {"origin": "https://friends.example.org"}, {"sec-fetch-site": "same-origin"},
                    {"sec-fetch-site": "none"}, {}):
        shared.cookies.clear()
        assert shared.post("/api/player", json={"name": "Asha"}, headers=headers).status_code == 200, headers


def test_an_allowed_origin_gets_answers_to_its_cors_questions(shared: TestClient) -> None:
    ask = {"access-control-request-method": "POST", "access-control-request-headers": "content-type"}
    friend = shared.options("/api/player", headers={"origin": "https://friends.example.org", **ask})
    assert friend.status_code == 200
    assert friend.headers["access-control-allow-origin"] == "https://friends.example.org"
    assert friend.headers["access-control-allow-credentials"] == "true"
    stranger = shared.options("/api/player", headers={"origin": "https://evil.example", **ask})
    assert "access-control-allow-origin" not in stranger.headers
    made = shared.post("/api/player", json={"name": "Asha"}, headers={"origin": "https://friends.example.org"})
    assert made.status_code == 200 and made.headers["access-control-allow-origin"] == "https://friends.example.org"


@FAST
@given(content_type=st.sampled_from(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                                     "application/jsonp", "text/json", ""]))
def test_a_state_change_must_be_json(shared: TestClient, content_type: str) -> None:
    token = new_player(shared)
    r = shared.post("/api/player", content=b'{"name": "Mallory"}', headers={"content-type": content_type})
    assert r.status_code == 415 and "application/json" in r.json()["error"]
    assert shared.cookies.get(COOKIE) == token
    ok = shared.post("/api/player", content=b'{"name": "Asha"}',
                     headers={"content-type": "application/json; charset=utf-8"})
    assert ok.status_code == 200


@FAST
@given(origin=foreign_origins)
def test_a_websocket_from_a_foreign_origin_is_closed_with_the_reason(shared: TestClient, origin: str) -> None:
    token = new_player(shared)
    code = create(shared, token, preset="56-4")
    with pytest.raises(WebSocketDisconnect) as closed, \
            shared.websocket_connect(f"/ws/{code}", headers={"origin": origin}) as ws:
        ws.send_json({"type": "hello"})
        ws.receive_json()
    assert closed.value.code == 4403 and "cross-site" in (closed.value.reason or "")


def test_a_websocket_from_the_own_or_an_allowed_origin_plays(shared: TestClient) -> None:
    token = new_player(shared)
    code = create(shared, token, preset="56-4")
    for origin in (SAME, "https://friends.example.org"):
        with shared.websocket_connect(f"/ws/{code}", headers={"origin": origin}) as ws:
            assert hello(ws)["you"]["seat"] == 0     # the cookie's player, at their seat


def test_an_http_page_may_not_act_on_the_https_site(tmp_path: Path) -> None:
    """Same host, but the page came over http (anyone on the path may have rewritten it)."""
    with app_client(tmp_path / "s.db", base_url="https://testserver") as c:
        r = c.post("/api/player", json={"name": "Asha"}, headers={"origin": "http://testserver"})
        assert r.status_code == 403
        assert c.post("/api/player", json={"name": "Asha"}, headers={"origin": SAME.replace("http", "https")}) \
            .status_code == 200
    with app_client(tmp_path / "p.db") as c:    # a TLS proxy in front: the page is https, the request http
        assert c.post("/api/player", json={"name": "Asha"}, headers={"origin": "https://testserver"}) \
            .status_code == 200


# -- 2. cookies and tokens ----------------------------------------------------------------------------

def test_cookies_are_secure_over_https_or_when_configured(tmp_path: Path) -> None:
    with app_client(tmp_path / "a.db", base_url="https://testserver") as c:
        r = c.post("/api/player", json={"name": "Asha"})
        assert "secure" in r.headers["set-cookie"].lower() and "httponly" in r.headers["set-cookie"].lower()
    with app_client(tmp_path / "b.db", secure_cookie=True) as c:
        assert "secure" in c.post("/api/player", json={"name": "Asha"}).headers["set-cookie"].lower()
    with app_client(tmp_path / "c.db") as c:
        cookie = c.post("/api/player", json={"name": "Asha"}).headers["set-cookie"].lower()
        assert "secure" not in cookie and "max-age=2592000" in cookie     # 30 days, not 400


def test_tokens_expire_after_30_days_and_are_renewed_when_used(tmp_path: Path) -> None:
    now = time.time()
    old = Tokens(SECRET, clock=lambda: now - 29 * 86400).issue("Asha")[1]      # signed 29 days ago
    expired = Tokens(SECRET, clock=lambda: now - 31 * 86400).issue("Bala")[1]
    with app_client(tmp_path / "t.db") as c:
        assert c.post("/api/tables", json={"token": expired, "preset": "56-4"}).status_code == 400
        code = create(c, old, preset="56-4")        # still good ...
        c.cookies.set(COOKIE, old)
        page = c.get(f"/t/{code}")
        renewed = page.cookies.get(COOKIE)          # ... and renewed on use (sliding)
        assert renewed and renewed != old
        assert Tokens(SECRET).read(renewed).issued >= int(now)    # type: ignore[union-attr]
        assert Tokens(SECRET).read(renewed).id == Tokens(SECRET).read(old).id      # type: ignore[union-attr]
        fresh = new_player(c)
        c.cookies.set(COOKIE, fresh)
        assert COOKIE not in c.get("/").cookies        # a fresh token is not re-issued on every request
        c.cookies.clear()
        with c.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json({"type": "hello", "token": expired})
            assert "not valid" in receive_until(ws, lambda m: m["type"] == "error")["message"]


def test_sign_out_everywhere_refuses_every_older_token_on_http_and_websocket(db: str) -> None:
    with client(db) as c:
        first = player(c, "Asha")
        second = c.post("/api/player", json={"name": "Asha"}).json()["token"]     # a second device, same id
        code = create(c, first, preset="56-4")
        c.cookies.clear()
        with c.websocket_connect(f"/ws/{code}") as ws:
            assert hello(ws, first)["you"]["seat"] == 0
            r = c.post("/api/player/signout-all", json={"token": second})
            assert r.status_code == 200 and "max-age=0" in r.headers["set-cookie"].lower()
            with pytest.raises(WebSocketDisconnect) as closed:      # the open socket is closed too
                receive_until(ws, lambda m: False)
            assert closed.value.code == 4401
        for token in (first, second):
            assert c.post("/api/tables", json={"token": token, "preset": "56-4"}).status_code == 400
            assert c.post("/api/player/signout-all", json={"token": token}).status_code == 401
            with c.websocket_connect(keyed(f"/ws/{code}")) as ws:     # with the link: a spectator, no more
                ws.send_json({"type": "hello", "token": token})
                assert "not valid" in receive_until(ws, lambda m: m["type"] == "error")["message"]
                assert receive_until(ws, is_snapshot)["you"]["seat"] is None
        third = player(c, "Asha")                   # signing in again is a new player
        assert c.post("/api/tables", json={"token": third, "preset": "56-4"}).status_code == 200
    with client(db) as c:                           # a restart remembers the sign-out
        assert c.post("/api/tables", json={"token": first, "preset": "56-4"}).status_code == 400
        assert c.post("/api/tables", json={"token": third, "preset": "56-4"}).status_code == 200


# -- 3. security headers ------------------------------------------------------------------------------

def test_every_response_carries_the_security_headers(shared: TestClient) -> None:
    token = new_player(shared)
    code = create(shared, token, preset="56-4")
    answers = [shared.get("/"), shared.get(f"/t/{code}"), shared.get("/t/NOPE99"), shared.get("/static/table.js"),
               shared.get("/static/style.css"), shared.get("/api/catalogue"), shared.get(f"/api/tables/{code}"),
               shared.get("/api/tables/NOPE99"), shared.get("/no/such/path"),
               shared.post("/api/player", json={"name": ""}), shared.post("/api/player", content=b"x")]
    for r in answers:
        csp = r.headers.get("content-security-policy", "")
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, r.url
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["referrer-policy"] == "same-origin"


def test_the_pages_have_no_inline_script_handlers_or_styles() -> None:
    """What the CSP forbids must not be in the pages (the browser tests check it at run time too)."""
    import re

    static = Path(__file__).resolve().parents[1] / "src" / "fiftysix" / "server" / "static"
    for page in static.glob("*.html"):
        html = page.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), page          # every script is a file
        assert not re.search(r"\son[a-z]+\s*=", html, re.I), page            # no onclick= ...
        assert not re.search(r"\sstyle\s*=", html, re.I), page               # no style="" attributes
        assert "javascript:" not in html
    for script in static.glob("*.js"):
        assert 'setAttribute("style"' not in script.read_text(), script


# -- 4. bodies ----------------------------------------------------------------------------------------

@FAST
@given(size=st.integers(16385, 10**9))
def test_a_declared_body_over_the_limit_is_refused_unread(shared: TestClient, size: int) -> None:
    def body() -> Iterator[bytes]:
        raise AssertionError("the body was read")
        yield b""

    r = shared.post("/api/tables", content=body(), headers={"content-type": "application/json",
                                                            "content-length": str(size)})
    assert r.status_code == 413 and "at most 16384 bytes" in r.json()["error"]


def test_a_large_declared_body_is_refused_on_any_method(shared: TestClient) -> None:
    for method in ("GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE"):
        r = shared.request(method, "/api/catalogue", content=b"", headers={"content-length": "300000000"})
        assert r.status_code == 413, method


@FAST
@given(chunk=st.integers(1, 8192), chunks=st.integers(3, 400))
def test_a_streamed_body_is_refused_as_soon_as_it_passes_the_limit(shared: TestClient, chunk: int,
                                                                     chunks: int) -> None:
    """Chunked, so no Content-Length to go by (that the server stops reading is checked on a real server in
    test_a_slow_body_is_timed_out_and_a_declared_large_body_is_refused_at_once; the test client sends all)."""
    def body() -> Iterator[bytes]:
        for _ in range(chunks):
            yield b" " * chunk

    r = shared.post("/api/tables", content=body(), headers={"content-type": "application/json"})
    if chunk * chunks > 16384:
        assert r.status_code == 413 and "at most 16384 bytes" in r.json()["error"]
    else:
        assert r.status_code == 400             # spaces: not JSON, but read and answered


# -- 5. JSON bombs and binary frames ------------------------------------------------------------------

def nested(depth: int, rng: random.Random) -> str:
    opens = [rng.choice(['[', '{"a":']) for _ in range(depth)]
    return "".join(opens) + "1" + "".join("]" if o == "[" else "}" for o in reversed(opens))


bombs = (st.tuples(st.integers(33, 20000), st.randoms(use_true_random=False))
         .map(lambda t: nested(t[0], t[1]))
         | st.integers(33, 9000).map(lambda n: '{"name": ' + "7" * n + "}")
         | st.integers(33, 9000).map(lambda n: '{"grace": -' + "9" * n + "}")
         | st.sampled_from(['{"grace": NaN}', '{"grace": Infinity}', '{"grace": 1e999}', '{"name": "\\ud800"}',
                            '{"name": "a\\udc00b"}', '["' + "[" * 5000 + '"]']))


@FAST
@given(bomb=bombs, path=st.sampled_from(["/api/player", "/api/tables"]))
def test_json_bombs_over_http_get_a_400_naming_the_problem(shared: TestClient, bomb: str, path: str) -> None:
    token = new_player(shared)
    r = shared.post(path, content=bomb.encode(), headers={"content-type": "application/json"})
    if len(bomb.encode()) > 16384:
        assert r.status_code == 413
        return
    if bomb.startswith('["'):       # brackets inside a string do not nest: a JSON list, not an object
        assert r.status_code == 400 and "object" in r.json()["error"]
        return
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert any(word in error for word in ("nested", "digits", "finite", "surrogate")), error
    assert shared.cookies.get(COOKIE) == token


@FAST
@given(frames=st.lists(bombs | st.binary(min_size=0, max_size=300), min_size=1, max_size=6))
def test_json_bombs_and_binary_frames_over_the_websocket_get_an_error_and_the_connection_goes_on(
        shared: TestClient, frames: list[str | bytes]) -> None:
    token = new_player(shared)
    code = create(shared, token, preset="56-4")
    with shared.websocket_connect(f"/ws/{code}") as ws:
        hello(ws, token)
        for frame in frames:
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
            error = receive_until(ws, lambda m: m["type"] == "error")["message"]
            assert error.startswith("malformed message") or error.startswith("message too long"), error
        ws.send_json({"type": "ping"})
        assert receive_until(ws, lambda m: m["type"] == "pong")["type"] == "pong"


def test_a_binary_first_frame_is_answered_and_hello_still_works(shared: TestClient) -> None:
    token = new_player(shared)
    code = create(shared, token, preset="56-4")
    with shared.websocket_connect(f"/ws/{code}") as ws:
        ws.send_bytes(b'{"type": "hello"}')
        assert "binary" in receive_until(ws, lambda m: m["type"] == "error")["message"]
        ws.send_json({"type": "ping"})
        assert receive_until(ws, lambda m: m["type"] == "pong")


# -- 6. names -----------------------------------------------------------------------------------------

REFUSED = ["\x00", "\x1b", "\x7f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
           "\u2069", "\u200b", "\u200e", "\ufeff", "\u2028", "\u2029", "\ue000", "\U000f0000", "\U000e0001",
           "\ud800", "\udfff", "\x85", "\x1f"]


def hostile_names(rng: random.Random, count: int) -> list[str]:
    """Printable text with one refused character somewhere in it."""
    out = []
    for _ in range(count):
        base = "".join(rng.choice("Asha Bala Chandru 56 ♠♥ മലയാളം தமிழ் ") for _ in range(rng.randint(0, 12)))
        at = rng.randint(0, len(base))
        out.append(base[:at] + rng.choice(REFUSED) + base[at:])
    return out


def test_names_that_are_not_printable_text_are_refused_and_tables_stay_readable(db: str) -> None:
    rng = random.Random(12)
    with client(db) as c:
        token = player(c, "Asha")
        code = create(c, token, preset="56-4")
        for name in hostile_names(rng, 40):
            as_json = json.dumps({"token": token, "preset": "56-4", "name": name})      # \\uXXXX escapes
            made = c.post("/api/tables", content=as_json, headers={"content-type": "application/json"})
            assert made.status_code == 400, (name, made.text)
            assert "U+" in made.json()["error"] or "surrogate" in made.json()["error"]
            joined = c.post("/api/player", content=json.dumps({"name": name}),
                            headers={"content-type": "application/json"})
            assert joined.status_code == 400 and c.cookies.get(COOKIE) == token
        with c.websocket_connect(f"/ws/{code}") as ws:
            hello(ws, token)
            for name in hostile_names(rng, 20):
                ws.send_text(json.dumps({"type": "join", "name": name}))
                error = receive_until(ws, lambda m: m["type"] == "error")["message"]
                assert "U+" in error or "surrogate" in error, error
        info = c.get(f"/api/tables/{code}")
        assert info.status_code == 200 and info.json()["seats"][0]["name"] == "Asha"


@FAST
@given(name=st.text(st.characters(categories=["L", "M", "N", "P", "S", "Zs"]), min_size=1, max_size=30))
def test_printable_names_are_kept_nfc_with_single_spaces(shared: TestClient, name: str) -> None:
    shared.cookies.clear()
    r = shared.post("/api/player", json={"name": name})
    expected = " ".join(unicodedata.normalize("NFC", name).split())
    if not expected or len(expected) > 24:
        assert r.status_code == 400
        return
    assert r.status_code == 200 and r.json()["name"] == expected
    code = create(shared, r.json()["token"], preset="56-4", name=name)
    info = shared.get(f"/api/tables/{code}")
    assert info.status_code == 200 and info.json()["name"] == expected[:40]


# -- 7. slow and too many connections, on a real server -----------------------------------------------

@contextmanager
def live(tmp_path: Path, limits: EdgeLimits, http: str = "auto", **options: Any) -> Iterator[int]:
    """``fiftysix serve``'s uvicorn configuration on 127.0.0.1 in a thread; yields the port."""
    app = create_app(Settings(db_url=f"sqlite+aiosqlite:///{tmp_path / 'live.db'}", timing=Timing(bot_delay=0.0)))
    with serve_in_thread(app, limits, http, ws_max_size=1 << 20, **options) as port:
        yield port


def read_answer(s: socket.socket, timeout: float = 5.0) -> bytes:
    """One HTTP answer: until its Content-Length is read, the server closes, or ``timeout``."""
    out = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            data = s.recv(65536)
        except TimeoutError:
            break
        if not data:
            break
        out += data
        head, _, rest = out.partition(b"\r\n\r\n")
        length = [int(line.split(b":")[1]) for line in head.lower().split(b"\r\n")
                  if line.startswith(b"content-length:")]
        if length and len(rest) >= length[0]:
            break
    return out


def request(port: int, raw: bytes, timeout: float = 5.0) -> bytes:
    """Send ``raw`` on a new connection and read the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(raw)
        return read_answer(s, timeout)


def post(port: int, path: str, body: dict[str, Any]) -> bytes:
    """POST JSON as a non-browser client would (no Origin); the answer's body."""
    data = json.dumps(body).encode()
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n").encode()
    answer = request(port, head + data)
    assert answer.startswith(b"HTTP/1.1 200"), answer
    return answer.partition(b"\r\n\r\n")[2]


GET = b"GET /api/catalogue HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def closed_within(s: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``s`` within ``seconds`` (any bytes it sends first are read)."""
    s.settimeout(0.2)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if not s.recv(4096):
                return True
        except TimeoutError:
            continue
        except OSError:
            return True
    return False


HTTP_IMPLEMENTATIONS = pytest.mark.parametrize("http", ["httptools", "h11"])


@pytest.mark.parametrize("trusted", [True, False])
def test_https_through_a_trusted_proxy_makes_the_cookie_secure(tmp_path: Path, trusted: bool) -> None:
    body = b'{"name": "Asha"}'
    raw = (b"POST /api/player HTTP/1.1\r\nHost: cards.example.org\r\nOrigin: https://cards.example.org\r\n"
           b"X-Forwarded-Proto: https\r\nX-Forwarded-For: 203.0.113.9\r\nContent-Type: application/json\r\n"
           b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
    with live(tmp_path, EdgeLimits(), proxy_headers=trusted, forwarded_allow_ips="127.0.0.1") as port:
        answer = request(port, raw)
    assert answer.startswith(b"HTTP/1.1 200")
    cookie = [line for line in answer.split(b"\r\n") if line.lower().startswith(b"set-cookie:")]
    assert len(cookie) == 1 and (b"; secure" in cookie[0].lower()) == trusted


@HTTP_IMPLEMENTATIONS
def test_slow_headers_are_timed_out_and_others_are_served_meanwhile(tmp_path: Path, http: str) -> None:
    with live(tmp_path, EdgeLimits(header_timeout=1.0, body_timeout=1.0, per_address=0), http) as port:
        slow = []
        for _ in range(200):            # slowloris: many connections, each sending its headers byte by byte
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ")
            slow.append(s)
        started = time.monotonic()
        assert request(port, GET).startswith(b"HTTP/1.1 200")
        assert time.monotonic() - started < 1.0
        for round_ in range(2):         # keep trickling on some of them: a byte is not progress enough
            for s in slow[:20]:
                with contextlib.suppress(OSError):   # already closed (a loaded machine took the second): as wanted
                    s.sendall(b"b")
            if round_ == 0:
                time.sleep(0.5)
        try:
            assert all(closed_within(s, 3.0) for s in slow), "a slow connection was not closed"
        finally:
            for s in slow:
                s.close()
        assert request(port, GET).startswith(b"HTTP/1.1 200")


def rss_mb() -> int:
    """This process's resident memory (the server runs in a thread of it), in MB."""
    return int(Path("/proc/self/status").read_text().split("VmRSS:")[1].split()[0]) // 1024


@HTTP_IMPLEMENTATIONS
def test_endless_headers_are_cut_off_and_do_not_grow_the_server(tmp_path: Path, http: str) -> None:
    with live(tmp_path, EdgeLimits(header_timeout=5.0, per_address=0), http) as port, \
            socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        line = b"X-" + b"a" * 60 + b": " + b"b" * 1000 + b"\r\n"
        sent, grown = 0, rss_mb()
        with pytest.raises(OSError):        # the server closes the connection: sending fails
            for _ in range(64_000):         # 64 MB at most
                s.sendall(line)
                sent += len(line)
        # what was sent past the limit sat in the kernel's socket buffers (some MB), never in the server
        assert sent < 32_000_000 and rss_mb() - grown < 32
        assert request(port, GET).startswith(b"HTTP/1.1 200")


@HTTP_IMPLEMENTATIONS
def test_a_slow_body_is_timed_out_and_a_declared_large_body_is_refused_at_once(tmp_path: Path, http: str) -> None:
    with live(tmp_path, EdgeLimits(header_timeout=1.0, body_timeout=1.0, per_address=0), http) as port:
        head = (b"POST /api/player HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Content-Length: 100\r\n\r\n")
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(head + b'{"name": ')
            started = time.monotonic()
            assert closed_within(s, 4.0)
            assert 0.8 < time.monotonic() - started < 3.0
        big = head.replace(b"Content-Length: 100", b"Content-Length: 300000000")
        started = time.monotonic()
        answer = request(port, big, timeout=3.0)         # no body sent at all: refused on the header alone
        assert answer.startswith(b"HTTP/1.1 413") and time.monotonic() - started < 1.0
        chunked = head.replace(b"Content-Length: 100", b"Transfer-Encoding: chunked")
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(chunked)
            sent, answer = 0, b""
            s.settimeout(0.05)
            for _ in range(200):        # at most 800 KB, stopping as soon as the server answers
                try:
                    s.sendall(b"1000\r\n" + b" " * 4096 + b"\r\n")
                    sent += 4096
                    answer += s.recv(4096)
                except TimeoutError:
                    continue
                except OSError:
                    break
                if answer:
                    break
            assert answer.startswith(b"HTTP/1.1 413") and sent < 200_000
            assert closed_within(s, 3.0)


@HTTP_IMPLEMENTATIONS
def test_connections_per_address_are_capped_and_released(tmp_path: Path, http: str) -> None:
    with live(tmp_path, EdgeLimits(header_timeout=5.0, per_address=8), http) as port:
        held = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(8)]
        try:
            assert request(port, GET).startswith(b"HTTP/1.1 429")     # the ninth
            held.pop().close()
            time.sleep(0.2)
            assert request(port, GET).startswith(b"HTTP/1.1 200")     # one was released
            from websockets.sync.client import connect

            code = json.loads(post(port, "/api/tables", {"player_name": "Asha", "public": True}))["code"]
            with connect(f"ws://127.0.0.1:{port}/ws/{code}") as ws:   # a websocket counts as well ...
                ws.send(json.dumps({"type": "hello"}))
                assert json.loads(ws.recv(timeout=5))["type"] == "state"
                assert request(port, GET).startswith(b"HTTP/1.1 429")
            time.sleep(0.2)
            assert request(port, GET).startswith(b"HTTP/1.1 200")     # ... and is released when it closes
        finally:
            for s in held:
                s.close()


@HTTP_IMPLEMENTATIONS
def test_a_kept_alive_client_taking_its_time_between_requests_is_served(tmp_path: Path, http: str) -> None:
    with live(tmp_path, EdgeLimits(header_timeout=1.0, body_timeout=1.0, per_address=4), http) as port, \
            socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        for _ in range(3):              # idle gaps longer than the header timeout, on one connection
            s.sendall(GET)
            answer = read_answer(s)
            assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"}")
            time.sleep(1.3)


# -- fiftysix serve wires it all ----------------------------------------------------------------------

def test_serve_refuses_a_malformed_allowed_origin() -> None:
    from helpers.cli import run

    for bad in ("ftp://x.org", "https://x.org/path", "x.org", "https://user@x.org"):
        result = run("serve", "--allow-origin", bad, "--port", "1")
        assert result.code == 2 and "scheme://host" in result.err, bad


def test_fiftysix_serve_times_out_slow_headers_and_caps_connections_per_address(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    src = str(Path(__file__).resolve().parents[1] / "src")
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    serve = ["serve", "--host", "127.0.0.1", "--port", str(port), "--db", f"sqlite+aiosqlite:///{tmp_path / 's.db'}",
             "--log-level", "warning", "--header-timeout", "1", "--max-connections-per-address", "3"]
    server = subprocess.Popen([sys.executable, "-c", "import sys; from fiftysix.cli.main import main; "
                               f"sys.exit(main({serve!r}))"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert time.monotonic() < deadline and server.poll() is None, "fiftysix serve did not start"
            try:
                if request(port, GET, timeout=2).startswith(b"HTTP/1.1 200"):
                    break
            except OSError:
                time.sleep(0.1)
        slow = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(3)]
        try:
            for s in slow:
                s.sendall(b"GET / HTTP/1.1\r\n")
            assert request(port, GET).startswith(b"HTTP/1.1 429")
            assert all(closed_within(s, 3.0) for s in slow)
        finally:
            for s in slow:
                s.close()
        time.sleep(0.2)
        assert request(port, GET).startswith(b"HTTP/1.1 200")
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)


def test_fiftysix_serve_passes_its_edge_flags_to_the_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    import uvicorn

    import fiftysix.server as server_pkg
    from fiftysix.cli.main import main
    from fiftysix.server.edge import listen

    seen: dict[str, Any] = {}

    def app(settings: Settings) -> Any:
        seen["settings"] = settings
        return create_app(settings)

    def config(app: Any, limits: listen.EdgeLimits, **options: Any) -> Any:
        seen["edge"] = limits
        return options

    class NoServer:
        def __init__(self, config: Any) -> None:
            pass

        def run(self) -> None:
            seen["ran"] = True

    monkeypatch.setattr(server_pkg, "create_app", app)
    monkeypatch.setattr(gc, "set_threshold", lambda *_: None)   # serve's own tuning stays out of the test run
    monkeypatch.setattr(listen, "server_config", config)
    monkeypatch.setattr(uvicorn, "Server", NoServer)
    db = f"sqlite+aiosqlite:///{tmp_path / 's.db'}"
    assert main(["serve", "--db", db, "--hello-timeout", "2.5", "--send-timeout", "4", "--max-connections", "300",
                 "--limit", "qr_burst=3"]) == 0
    timing, edge = seen["settings"].timing, seen["edge"]
    assert (timing.hello_timeout, timing.send_timeout) == (2.5, 4.0)
    assert (edge.connections, edge.send_timeout) == (300, 4.0)
    assert seen["settings"].limits.qr_burst == 3 and seen["ran"]
    assert main(["serve", "--db", db]) == 0     # the defaults: 10 s each, connections below the descriptors
    assert (seen["settings"].timing.hello_timeout, seen["edge"].send_timeout, seen["edge"].connections) == (10, 10, 0)


# -- the parsers' own properties ----------------------------------------------------------------------

no_nul = st.characters(codec="utf-8", exclude_characters="\x00")    # a NUL is refused (U+0000)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**31, 10**31) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(no_nul, max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(no_nul, max_size=8), inner, max_size=4),
    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(value=json_values)
def test_safe_loads_reads_every_ordinary_document_as_json_loads_does(value: Any) -> None:
    from fiftysix.server.edge import safejson

    for text in (json.dumps(value), json.dumps(value, ensure_ascii=False), json.dumps(value, indent=1)):
        assert safejson.loads(text) == json.loads(text)


def reference_depth(text: str) -> int:
    """Nesting depth by a character-by-character scan (strings and their escapes skipped)."""
    deepest = level = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            level += 1
            deepest = max(deepest, level)
        elif ch in "]}":
            level -= 1
    return deepest


@settings(max_examples=500, deadline=None)
@given(text=st.text(st.sampled_from('[]{}"\\a,:'), max_size=200), limit=st.integers(0, 40))
def test_the_nesting_count_agrees_with_a_plain_scan(text: str, limit: int) -> None:
    from fiftysix.server.edge.safejson import too_deep

    assert too_deep(text, limit) == (reference_depth(text) > limit)


@settings(max_examples=500, deadline=None)
@given(value=st.text(max_size=60), limit=st.sampled_from([24, 40]))
def test_a_checked_name_is_printable_nfc_trimmed_short_and_stable(value: str, limit: int) -> None:
    from fiftysix.server.edge.names import REFUSED_CATEGORIES, check_name

    try:
        name = check_name(value, "name", limit)
    except ValueError as e:
        assert "name" in str(e)
        return
    assert 1 <= len(name) <= limit and name == name.strip() and "  " not in name
    assert unicodedata.is_normalized("NFC", name)
    assert all(unicodedata.category(ch) not in REFUSED_CATEGORIES or ch in "\u200c\u200d" for ch in name)
    assert check_name(name, "name", limit) == name


def test_a_table_stored_with_a_lone_surrogate_before_names_were_checked_still_answers(db: str) -> None:
    """The issue's 500: such a name already in a database is answered (escaped), not an encoding error."""
    import asyncio

    from fiftysix.server.state.table import TableState
    from fiftysix.server.storage.db import Database
    from fiftysix.server.table.hub import creation_event

    async def store() -> None:
        database = Database(db)
        try:
            await database.migrate()
            event = creation_event("p1", "Asha", {"preset": "56-4", "public": True}).to_json()
            event["name"] = "Tea\ud800time"
            state = TableState("LEGACY")
            stored = state.apply(event)
            await database.append("LEGACY", state.version, stored, state.status)
        finally:
            await database.close()

    asyncio.run(store())
    with client(db) as c:
        info = c.get("/api/tables/LEGACY")
        assert info.status_code == 200 and info.json()["name"] == "Tea\ud800time"
        assert c.get("/t/LEGACY").status_code == 200

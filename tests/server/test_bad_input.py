"""Issue 55, items 4-6: bad input answers a 4xx that names what was wrong and what is allowed, and changes no
row (a passkey answer nested 5,000 deep, an event starting at 2^63, a board number in other digits, a team name
with NUL or a right-to-left override); ``fiftysix serve --db`` takes the plain forms and refuses others in one
sentence; an https ``--public-url`` makes the player cookie Secure."""

from __future__ import annotations

import argparse
import base64
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_clubs import as_
from test_nights import FORM, club_of_three, night_with_teams

from fiftysix.server import Settings, Timing, create_app
from fiftysix.server.edge import safejson
from fiftysix.server.edge.tokens import COOKIE
from helpers.server import client
from helpers.snapshot import changed, snapshot

ML = {"accept-language": "ml-IN,ml;q=0.9"}
SRC = str(Path(__file__).resolve().parents[2] / "src")


def rows(c: Any) -> dict[str, list[str]]:
    return dict(c.portal.call(snapshot, c.app.state.server.db.engine))


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


# -- the JSON edge --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["[" * 5000 + "]" * 5000, '{"a":' * 5000 + "1" + "}" * 5000,
                                  "[" * 100_000])
def test_json_nested_thousands_deep_is_refused_with_the_limit(text: str) -> None:
    with pytest.raises(safejson.BadJSON, match=f"nested more than {safejson.MAX_DEPTH} deep"):
        safejson.loads(text)
    with pytest.raises(safejson.BadJSON, match="nested more than 4 deep"):
        safejson.loads("[[[[[1]]]]]", limit=4)
    assert safejson.loads("[[[[1]]]]", limit=4) == [[[[1]]]]


def test_a_nul_anywhere_in_client_json_is_refused_and_an_escaped_backslash_u_is_not_a_nul() -> None:
    for text in ('{"name": "Tea\\u0000time"}', '["a", ["\\u0000"]]', '{"\\u0000": 1}'):
        with pytest.raises(safejson.BadJSON, match="U\\+0000"):
            safejson.loads(text)
    assert safejson.loads('{"path": "C:\\\\u0000"}') == {"path": "C:\\u0000"}    # a backslash, then u0000


# -- item 4: passkeys ------------------------------------------------------------------------------------------

DEEP = [b"[" * 5000 + b"]" * 5000, b'{"":' * 2400 + b"1" + b"}" * 2400]     # within the 16 KiB body


def test_a_passkey_answer_nested_5000_deep_is_refused_at_signin_and_register_and_changes_nothing(db: str) -> None:
    with client(db) as c:
        c.base_url = "http://localhost"         # passkeys need a secure context with a name
        c.cookies.clear()
        assert c.post("/api/player", json={"name": "Asha"}).status_code == 200
        assert c.get("/api/account").status_code == 200
        assert c.post("/api/account/passkeys/options", json={"purpose": "register"}).status_code == 200
        before = rows(c)
        for deep in DEEP:
            credential = {"id": "AAAA", "rawId": "AAAA", "type": "public-key",
                          "response": {"clientDataJSON": b64(deep), "attestationObject": "AAAA",
                                       "authenticatorData": "AAAA", "signature": "AAAA"}}
            for route in ("register", "signin"):
                r = c.post(f"/api/account/passkeys/{route}", json={"credential": credential})
                assert r.status_code == 400, (route, r.text)
                error = r.json()["error"]
                assert "clientDataJSON" in error and "nested more than 32 deep" in error, error
                translated = c.post(f"/api/account/passkeys/{route}", json={"credential": credential}, headers=ML)
                assert translated.status_code == 400 and translated.json()["error"] != error
                assert "clientDataJSON" in translated.json()["error"]
        assert not changed(before, rows(c))     # the register challenge is still there, unused


# -- item 4: club nights ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("starts", [2**63, 2**63 + 1, 2**64, 10**30, -2**63 - 1, 0, "soon", 1.5])
def test_an_event_start_beyond_a_year_or_not_a_time_is_refused_naming_the_range(db: str, starts: Any) -> None:
    with client(db) as c:
        club, people = club_of_three(c)
        as_(c, people["Asha"][1])
        before = rows(c)
        r = c.post(f"/api/clubs/{club}/nights", json={**FORM, "starts": starts})
        assert r.status_code == 400, r.text
        error = r.json()["error"]
        assert "start time" in error and "coming year" in error and str(int(time.time()) // 1000) in error
        assert not changed(before, rows(c))
        soon = int(time.time()) + 3600
        made = c.post(f"/api/clubs/{club}/nights", json={**FORM, "starts": soon})
        assert made.status_code == 200 and c.get(f"/api/nights/{made.json()['id']}").json()["starts"] == soon


def test_a_board_number_in_other_digits_is_refused_as_no_such_board(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        _club, night, _people = night_with_teams(c)
        for board in ("²", "١", "１", "٣", "⁴", "𝟙", "0", "-1", "1.0", "99999", "3"):
            r = c.get(f"/api/nights/{night}/boards/{board}")
            assert r.status_code == 404, (board, r.text)
            assert r.json()["error"] == "board must be 1 to 2", board


@pytest.mark.parametrize("name, fault", [("Tea\x00time", "U+0000"), ("Bad\u202eboy", "U+202E"),
                                         ("\u2066x", "U+2066"), ("a" * 41, "41 characters"), ("   ", "choose"),
                                         (7, "text")])
def test_a_team_name_goes_through_the_name_check_and_a_refusal_changes_nothing(db: str, name: Any,
                                                                                 fault: str) -> None:
    with client(db) as c:
        club, people = club_of_three(c)
        as_(c, people["Asha"][1])
        night = c.post(f"/api/clubs/{club}/nights", json=FORM).json()["id"]
        before = rows(c)
        r = c.post(f"/api/nights/{night}/teams", json={"name": name, "table": 1, "direction": 0})
        assert r.status_code == 400 and fault in r.json()["error"], r.text
        assert not changed(before, rows(c))
        r = c.post(f"/api/nights/{night}/teams", json={"name": "  Asha \u00a0 and  co ", "table": 1, "direction": 0})
        assert r.status_code == 200 and r.json()["team"] == "Asha and co"


def test_an_event_with_the_longest_name_starts_its_tables_named_to_fit(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        club, people = club_of_three(c)
        as_(c, people["Asha"][1])
        night = c.post(f"/api/clubs/{club}/nights", json={**FORM, "name": "N" * 40, "tables": 2}).json()["id"]
        for table, n in enumerate(("Asha", "Babu"), 1):
            as_(c, people[n][1])
            r = c.post(f"/api/nights/{night}/teams", json={"name": n, "table": table, "direction": 0})
            assert r.status_code == 200, r.text
        as_(c, people["Asha"][1])
        r = c.post(f"/api/nights/{night}/start", json={})
        assert r.status_code == 200, r.text
        assert len(r.json()["tables"]) == 2


# -- item 5: serve --db ---------------------------------------------------------------------------------------------

def test_db_urls_in_plain_forms_get_the_async_driver(tmp_path: Path) -> None:
    from fiftysix.cli.serve import db_url

    here = str(tmp_path / "x.db")
    assert db_url("sqlite:///x.db") == "sqlite+aiosqlite:///x.db"
    assert db_url(f"sqlite:///{here}") == f"sqlite+aiosqlite:///{here}"
    assert db_url("x.db") == "sqlite+aiosqlite:///x.db"
    assert db_url(here) == f"sqlite+aiosqlite:///{here}"
    assert db_url("sqlite+aiosqlite:///x.db") == "sqlite+aiosqlite:///x.db"
    assert db_url("sqlite:///:memory:") == "sqlite+aiosqlite:///:memory:"
    assert db_url("postgresql://u:p@db.example:5432/cards") == "postgresql+asyncpg://u:p@db.example:5432/cards"
    assert db_url("postgres://u@db/cards") == "postgresql+asyncpg://u@db/cards"
    assert db_url("PostgreSQL://u@db/cards") == "postgresql+asyncpg://u@db/cards"
    assert db_url("postgresql+asyncpg://u@db/cards") == "postgresql+asyncpg://u@db/cards"
    for bad in ("mysql://u:secret@h/d", "postgresql+psycopg2://u@h/d", "sqlite+pysqlite:///x.db", "", "sqlite:x.db",
                "sqlite://", "postgresql://h:port/d", "http://example.org", f"{tmp_path}/no/such/folder/x.db",
                "sqlite:////no/such/folder/x.db"):
        with pytest.raises(argparse.ArgumentTypeError) as e:
            db_url(bad)
        message = str(e.value)
        assert "sqlite:///fiftysix.db" in message and "postgresql://user:password@host/dbname" in message, message
        assert "secret" not in message and message.count(". ") == 0


def serve(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "fiftysix", "serve", *argv], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=60)


@pytest.mark.parametrize("value", ["mysql://u:secret@h/d", "sqlite:x.db", "/no/such/folder/x.db",
                                   "postgresql://nobody:secret@127.0.0.1:1/none"])
def test_serve_refuses_a_bad_db_in_one_sentence_without_a_traceback(tmp_path: Path, value: str) -> None:
    done = serve("--db", value, "--port", "1", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "secret" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("fiftysix serve: ") and ("--db" in last or "expected" in last), done.stderr
    for flag, bad in (("--port", "x"), ("--port", "70000"), ("--port", "²")):     # argparse's sentence
        done = serve(flag, bad, cwd=tmp_path)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert "a port is a whole number from 1 to 65535" in done.stderr


# -- item 6: Secure cookies -------------------------------------------------------------------------------------

@pytest.mark.parametrize("public_url, secure", [("https://cards.example.org", True),
                                                ("http://cards.example.org", False), (None, False)])
def test_an_https_public_url_makes_the_player_cookie_secure(tmp_path: Path, public_url: str | None,
                                                           secure: bool) -> None:
    app = create_app(Settings(db_url=f"sqlite+aiosqlite:///{tmp_path / 't.db'}", timing=Timing(bot_delay=0.0),
                              public_url=public_url))
    with TestClient(app) as c:      # plain http, as behind a TLS proxy without --proxy-headers
        r = c.post("/api/player", json={"name": "Asha"})
        cookie = next(v for k, v in r.headers.multi_items() if k == "set-cookie" and v.startswith(COOKIE))
        assert ("; secure" in cookie.lower()) is secure, cookie
        assert json.loads(r.text)["name"] == "Asha"


def test_a_bid_with_other_digits_is_a_malformed_call_not_a_crash() -> None:
    from fiftysix.core.errors import NotationError
    from fiftysix.games.fifty_six.calls import parse_call

    with pytest.raises(NotationError, match="malformed call"):
        parse_call("² S", bidding="announce")

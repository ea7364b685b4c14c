"""The protections of every club and club-night POST route (issue 43): a foreign Origin is refused on each of them
with nothing changed (the route list is checked against the app's, so a new route must be added here), and the
account and club limits answer 429 with their sentence, nothing changed."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.routing import Route
from test_clubs import as_, who

from fiftysix.server.accounts.routes import GUARD as ACCOUNT_GUARD
from fiftysix.server.accounts.routes import SIGNINS
from fiftysix.server.clubs.routes import GUARD as CLUB_GUARD
from fiftysix.server.clubs.routes import routes as club_routes
from fiftysix.server.edge.limits import Buckets
from fiftysix.server.nights.routes import routes as night_routes
from fiftysix.server.pages.route_guard import RouteGuard
from helpers.server import client

EVIL = {"origin": "https://evil.example"}
FORM = {"name": "Friday night", "preset": "56-4", "boards": 1, "tables": 2, "level": "club"}

# every POST route of clubs and club nights, with a body its owner (or, for "ben"/"chen", that person) could send
ROUTES: list[tuple[str, str, dict[str, Any]]] = [
    ("/api/clubs", "owner", {"name": "Evil club"}),
    ("/api/clubs/invited", "chen", {"invite": "{invite}"}),
    ("/api/clubs/join", "chen", {"invite": "{invite}"}),
    ("/api/clubs/{club}/invite", "owner", {}),
    ("/api/clubs/{club}/revoke", "owner", {}),
    ("/api/clubs/{club}/remove", "owner", {"player": "{ben}"}),
    ("/api/clubs/{club}/owner", "owner", {"player": "{ben}"}),
    ("/api/clubs/{club}/settings", "owner", {"watchers": True}),
    ("/api/clubs/{club}/tables", "owner", {"preset": "56-4"}),
    ("/api/clubs/{club}/nights", "owner", FORM),
    ("/api/clubs/{club}/nights/makers", "owner", {"player": "{ben}", "allow": True}),
    ("/api/nights/{night}/teams", "ben", {"name": "Ben's", "table": 1, "direction": 0}),
    ("/api/nights/{night}/draw", "owner", {"players": ["{ben}"]}),
    ("/api/nights/{night}/start", "owner", {}),
    ("/api/nights/{night}/pause", "owner", {}),
    ("/api/nights/{night}/resume", "owner", {}),
    ("/api/nights/{night}/replace", "owner", {"player": "{ben}"}),
    ("/api/nights/{night}/close", "owner", {}),
]


def test_the_list_has_every_post_route_of_clubs_and_nights() -> None:
    posts = {r.path for r in [*club_routes(), *night_routes()]
             if isinstance(r, Route) and r.methods is not None and "POST" in r.methods}
    assert posts == {path for path, _, _ in ROUTES}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Path, dict[str, str]]]:
    """A club of Vinod (owner) and Ben with an open night, and Chen outside it; the values the routes need."""
    db = tmp_path_factory.mktemp("guards") / "t.db"
    with client(db) as c:
        _, owner = who(c, "Vinod")
        ben_id, ben = who(c, "Ben")
        _, chen = who(c, "Chen")
        as_(c, owner)
        club = c.post("/api/clubs", json={"name": "Thrissur 56"}).json()
        as_(c, ben)
        assert c.post("/api/clubs/join", json={"invite": club["invite"]}).status_code == 200
        as_(c, owner)
        made = c.post(f"/api/clubs/{club['id']}/nights", json=FORM)
        assert made.status_code == 200, made.text
        values = {"club": club["id"], "invite": club["invite"], "ben": ben_id, "night": made.json()["id"],
                  "token:owner": owner, "token:ben": ben, "token:chen": chen}
        yield c, db, values


def filled(value: Any, values: dict[str, str]) -> Any:
    if isinstance(value, str):
        return value.format(**values)
    if isinstance(value, list):
        return [filled(v, values) for v in value]
    if isinstance(value, dict):
        return {k: filled(v, values) for k, v in value.items()}
    return value


def dump(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return list(conn.iterdump())


@pytest.mark.parametrize(("path", "person", "body"), ROUTES, ids=[p for p, _, _ in ROUTES])
def test_a_foreign_origin_is_refused_on_every_post_route_with_nothing_changed(
        world: tuple[Any, Path, dict[str, str]], path: str, person: str, body: dict[str, Any]) -> None:
    c, db, values = world
    before = dump(db)
    tables = set(c.app.state.server.hub.tables)
    as_(c, values[f"token:{person}"])
    r = c.post(path.format(**values), json=filled(body, values), headers=EVIL)
    assert r.status_code == 403, r.text
    assert "error" in r.json() and "id" not in r.json()
    assert dump(db) == before and set(c.app.state.server.hub.tables) == tables


def frozen(c: Any, guard: RouteGuard) -> None:
    """The guard's buckets on a clock that stands still: nothing refills while the test runs."""
    setattr(c.app.state, f"{guard.name}_guard", (Buckets(*guard.per_address, clock=lambda: 0.0),
                                                 Buckets(*guard.whole, clock=lambda: 0.0)))


def flood(c: Any, ask: Any, most: int = 400) -> Any:
    """Ask until refused with 429 (the refusal), failing when ``most`` asks all pass."""
    for _ in range(most):
        r = ask()
        if r.status_code == 429:
            return r
        assert r.status_code in (200, 400, 403, 404), r.text
    raise AssertionError(f"no 429 in {most} requests")


def test_the_club_limit_answers_429_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with client(db) as c:
        _, owner = who(c, "Vinod")
        as_(c, owner)
        frozen(c, CLUB_GUARD)
        r = flood(c, lambda: c.get("/api/clubs"))
        assert "too many club requests" in r.json()["error"]
        made = c.post("/api/clubs", json={"name": "Too late"})
        assert made.status_code == 429
        ml = c.get("/api/clubs", headers={"accept-language": "ml"})
        assert ml.status_code == 429 and ml.json()["error"] != r.json()["error"]
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM clubs").fetchone()[0] == 0


def test_the_account_limits_answer_429_and_change_nothing(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        _, token = who(c, "Asha")
        as_(c, token)
        frozen(c, ACCOUNT_GUARD)
        r = flood(c, lambda: c.get("/api/account"))
        assert "too many account requests" in r.json()["error"]
        renamed = c.post("/api/account/name", json={"name": "Mallory"})
        assert renamed.status_code == 429
    with client(tmp_path / "t.db") as c:      # a new process: new buckets
        as_(c, token)
        assert c.get("/api/account").json()["name"] == "Asha"
        c.cookies.clear()       # sign-in attempts have their own, smaller bucket: wrong codes soon get 429
        c.app.state.account_signins = Buckets(*SIGNINS, clock=lambda: 0.0)
        r = flood(c, lambda: c.post("/api/account/recovery/use", json={"code": "AAAAA-BBBBB-CCCCC-DDDDD"}), 40)
        assert r.status_code == 429 and "fiftysix_player" not in r.cookies

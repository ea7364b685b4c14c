"""Issue 55: every route added since the club layer began (accounts, passkeys, clubs, club nights, history,
peek, lobby), fuzzed with generated JSON bodies (nested, huge numbers, NUL and odd Unicode, wrong types) and
generated path parameters, as an owner, a member, a stranger and nobody: never a 500, and a refusal (4xx)
changes no row of any table of the database.

One world per database (a club with its owner and a member, an open club night with a team, a club table),
shared by every example: what an example that succeeded changed (a new club, an event started) stays for
the next.  Computers never move here (their delay is an hour) and no grace runs out, so nothing but the request
writes a row between the two snapshots.  The limits on asking (per address and the whole process) are lifted: they would
answer 429 to nearly everything after the first hundred examples, and are tested elsewhere.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from fiftysix.server.edge.limits import Buckets
from fiftysix.server.table.presence import Presences
from helpers.server import client
from helpers.snapshot import FileSnapshots, Snapshot, changed, snapshot

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROUTES: dict[str, list[tuple[str, str]]] = {
    "accounts": [("GET", "/api/account"), ("POST", "/api/account/name"), ("POST", "/api/account/devices/name"),
                 ("POST", "/api/account/devices/revoke"),
                 ("POST", "/api/account/signout"), ("POST", "/api/account/delete"), ("POST", "/api/account/link"),
                 ("POST", "/api/account/link/use"), ("POST", "/api/account/recovery"),
                 ("POST", "/api/account/recovery/use"), ("POST", "/api/account/passkeys/options"),
                 ("POST", "/api/account/passkeys/register"), ("POST", "/api/account/passkeys/signin")],
    "clubs": [("GET", "/api/lobby"), ("GET", "/api/clubs"), ("POST", "/api/clubs"), ("POST", "/api/clubs/join"),
              ("POST", "/api/clubs/invited"),
              ("GET", "/api/clubs/{club}"), ("GET", "/api/clubs/{club}/leaderboard"),
              ("POST", "/api/clubs/{club}/invite"), ("POST", "/api/clubs/{club}/revoke"),
              ("POST", "/api/clubs/{club}/remove"), ("POST", "/api/clubs/{club}/owner"),
              ("POST", "/api/clubs/{club}/settings"), ("POST", "/api/clubs/{club}/tables"),
              ("GET", "/api/players/{player}/history"), ("POST", "/api/tables/{code}/peek"),
              ("POST", "/api/tables/{code}/peek/answer")],
    "nights": [("GET", "/api/clubs/{club}/nights"), ("POST", "/api/clubs/{club}/nights"),
               ("POST", "/api/clubs/{club}/nights/makers"), ("GET", "/api/nights/{night}"),
               ("POST", "/api/nights/{night}/teams"), ("GET", "/api/nights/{night}/boards/{board}"),
               ("POST", "/api/nights/{night}/draw"), ("POST", "/api/nights/{night}/start"),
               ("POST", "/api/nights/{night}/pause"), ("POST", "/api/nights/{night}/resume"),
               ("POST", "/api/nights/{night}/replace"), ("POST", "/api/nights/{night}/close")],
    "play": [("POST", "/api/play")],
}
"""The routes fuzzed, by group: every route of server/accounts, server/clubs, server/nights, server/play, server/
matches' history, pages/peek.py and the lobby."""

SIGNS_OUT = {"/api/account/signout", "/api/account/delete", "/api/account/devices/revoke"}
"""Routes that may end the asker's session: asked as a player made for the example, so the world's people stay."""

KEYS = ["name", "token", "preset", "boards", "tables", "level", "starts", "table", "direction", "partners",
        "players", "player", "allow", "invite", "watchers", "confirm", "device", "secret", "code", "purpose",
        "credential", "seat", "watcher", "answer", "fill", "public", "grace", "family",
        "player_name"]
"""The body fields the routes read (and a few more), so that generated bodies get past the first check."""

ODD = ["", " ", "\u202e", "\u2066x", "²", "٣", "１", "\ud800", "\udfff", "\ufeff", "\u200b", "a" * 300, "me",
       "56-6", "55-4", "club", "register", "signin", "allow", "refuse", "always", "Asha", "../..", "%00", "null",
       "\x00", "a\x00b", "\u0085", "\U0010ffff", "0", "-1", "2", "99999999999999999999"]
BIG = [0, 1, 2, 3, -1, 2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, -2**63 - 1, 10**31, 10**40]


@dataclass
class World:
    """The fuzzed app and what its examples may refer to."""

    c: TestClient
    tokens: dict[str, str]                      # who -> token
    ids: dict[str, str]                         # who -> player id
    club: str
    night: str                                  # open: sign-up goes on (the routes that end it get ``running``)
    running: str                                # the event that may be started, paused and closed
    code: str
    invite: str
    strings: list[str] = field(default_factory=list)    # real ids, tokens, codes: generated values reach rows
    examples: int = 0
    refused: int = 0
    file: FileSnapshots | None = None           # SQLite: read directly

    def snapshot(self) -> Snapshot:
        if self.file is not None:
            return self.file()
        return dict(self.c.portal.call(snapshot, self.c.app.state.server.db.engine))


def _player(c: TestClient, name: str) -> tuple[str, str]:
    c.cookies.clear()
    r = c.post("/api/player", json={"name": name})
    assert r.status_code == 200, r.text
    return str(r.json()["id"]), str(r.json()["token"])


def _as(c: TestClient, token: str | None) -> None:
    c.cookies.clear()
    if token is not None:
        c.cookies.set("fiftysix_player", token)


def _build(c: TestClient) -> World:
    people = {n: _player(c, n) for n in ("Asha", "Babu", "Dev")}
    tokens = {n: t for n, (_i, t) in people.items()}
    _as(c, tokens["Asha"])
    assert c.get("/api/account").status_code == 200
    made = c.post("/api/clubs", json={"name": "Thrissur 56"}).json()
    _as(c, tokens["Babu"])
    assert c.post("/api/clubs/join", json={"invite": made["invite"]}).status_code == 200
    _as(c, tokens["Asha"])
    night = c.post(f"/api/clubs/{made['id']}/nights",
                   json={"name": "Friday", "preset": "56-6", "boards": 2, "tables": 2, "level": "club"}).json()["id"]
    assert c.post(f"/api/nights/{night}/teams", json={"name": "Asha", "table": 1, "direction": 0}).status_code == 200
    running = c.post(f"/api/clubs/{made['id']}/nights",
                     json={"name": "Saturday", "preset": "56-4", "boards": 1, "tables": 2}).json()["id"]
    code = c.post(f"/api/clubs/{made['id']}/tables", json={"preset": "56-4"}).json()["code"]
    world = World(c, tokens, {n: i for n, (i, _t) in people.items()}, made["id"], night, running, code,
                  made["invite"])
    world.strings = [made["id"], night, running, code, made["invite"], *world.ids.values(), *tokens.values()]
    return world


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.db)])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    path = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{path}"
    else:
        url = request.getfixturevalue("pg_cluster").create_database("fuzz")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Buckets, "allow", lambda self, key=None: True)       # the limits on asking, lifted
        mp.setattr(Buckets, "empty", lambda self, key=None: False)
        # no grace runs out: a claim Play made for someone who never connects would lapse, a row of its own
        mp.setattr(Presences, "schedule_drop", lambda self, player: None)
        with client(url, bot_delay=3600.0) as c:
            c.base_url = "http://localhost"     # a secure context: the passkey routes go past their first check
            built = _build(c)
            if request.param == "sqlite":
                built.file = FileSnapshots(str(path))
            yield built
            if built.file is not None:
                built.file.close()


ENDS_SIGN_UP = {"/api/nights/{night}/start", "/api/nights/{night}/pause", "/api/nights/{night}/resume",
                "/api/nights/{night}/close", "/api/nights/{night}/replace"}
"""Routes whose success ends an event's sign-up: asked of :attr:`World.running`, so the open event stays open."""


def baseline(world: World, template: str) -> dict[str, Any]:
    """A body the route accepts (or refuses only for the world's state): generated bodies change a few of its
    fields, so that they reach the route's later checks and its writes."""
    babu = world.ids["Babu"]
    form = {"name": "Friday", "preset": "56-6", "boards": 2, "tables": 2, "level": "club"}
    return {"/api/account/name": {"name": "Asha"}, "/api/account/devices/revoke": {"device": "none"},
            "/api/account/devices/name": {"device": "none", "name": "Asha's phone"},
            "/api/account/delete": {"confirm": True}, "/api/account/link/use": {"secret": "a" * 40},
            "/api/account/recovery/use": {"code": "a" * 20}, "/api/account/passkeys/options": {"purpose": "register"},
            "/api/clubs": {"name": "Kochi 56"}, "/api/clubs/join": {"invite": world.invite, "name": "Babu"},
            "/api/clubs/invited": {"invite": world.invite},
            "/api/clubs/{club}/remove": {"player": "nobody"}, "/api/clubs/{club}/owner": {"player": "nobody"},
            "/api/clubs/{club}/settings": {"watchers": True}, "/api/clubs/{club}/tables": {"preset": "56-4"},
            "/api/tables/{code}/peek": {"seat": 0}, "/api/tables/{code}/peek/answer": {"watcher": babu,
                                                                                       "answer": "allow"},
            "/api/clubs/{club}/nights": form, "/api/clubs/{club}/nights/makers": {"player": babu, "allow": True},
            "/api/nights/{night}/teams": {"name": "Babu's", "table": 2, "direction": 1},
            "/api/nights/{night}/draw": {"players": [babu]}, "/api/nights/{night}/replace": {"player": babu},
            "/api/play": {"player_name": "Eve"},
            }.get(template, {})


# -- what is generated ------------------------------------------------------------------------------------------

texts = st.text(max_size=30) | st.sampled_from(ODD)


def strings_of(world: World) -> st.SearchStrategy[str]:
    return texts | st.sampled_from(world.strings)


def json_values(world: World) -> st.SearchStrategy[Any]:
    leaves = (st.none() | st.booleans() | st.integers() | st.sampled_from(BIG)
              | st.floats(allow_nan=False, allow_infinity=False) | strings_of(world))
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.sampled_from(KEYS) | texts, inner, max_size=4), max_leaves=10)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def credentials(world: World) -> st.SearchStrategy[dict[str, Any]]:
    """A passkey answer as a browser's is shaped, its parts generated (clientDataJSON any JSON, or nested deep)."""
    client_data = (json_values(world).map(lambda v: b64(json.dumps(v).encode()))
                   | st.sampled_from([33, 200, 1500, 5000]).map(lambda n: b64(b"[" * n + b"]" * n)) | strings_of(world))
    return st.fixed_dictionaries({"id": strings_of(world), "rawId": strings_of(world), "type": st.just("public-key"),
                                  "response": st.fixed_dictionaries({
                                      "clientDataJSON": client_data, "attestationObject": strings_of(world),
                                      "authenticatorData": strings_of(world), "signature": strings_of(world)})})


def mutated(world: World, base: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """``base`` with up to three fields changed to generated values and up to two left out."""
    keys = st.sampled_from(sorted(base)) | st.sampled_from(KEYS) if base else st.sampled_from(KEYS)
    return st.builds(lambda changes, gone: {**{k: v for k, v in base.items() if k not in gone}, **changes},
                     st.dictionaries(keys, json_values(world), max_size=3), st.sets(keys, max_size=2))


def bodies(world: World, template: str) -> st.SearchStrategy[bytes]:
    base = baseline(world, template)
    shaped = st.dictionaries(st.sampled_from(KEYS), json_values(world), max_size=6)
    if template.startswith("/api/account/passkeys/") and not base:
        near = st.builds(lambda body, cred: {**body, "credential": cred}, mutated(world, base), credentials(world))
    else:
        near = mutated(world, base)
    as_json = st.one_of(near, near, near, shaped, json_values(world)).map(
        lambda v: json.dumps(v).encode("utf-8", "surrogatepass"))
    raw = st.sampled_from([b"", b"[" * 40 + b"]" * 40, b'{"a":' * 33 + b"1" + b"}" * 33, b"{", b"\xff\xfe",
                           b"1e999", b"NaN", b'{"n": ' + b"9" * 40 + b"}", b'{"name": "\\ud800"}',
                           b'{"name": "a\\u0000b"}'])
    return as_json | raw


def path_values(world: World, real: list[str]) -> st.SearchStrategy[str]:
    """A path parameter: mostly one that names something of the world (``real``), else anything."""
    other = (st.sampled_from(world.strings) | st.text(min_size=1, max_size=30) | st.sampled_from(ODD).filter(bool)
             | st.integers().map(str) | st.sampled_from(BIG).map(str))
    return st.one_of(st.sampled_from(real), st.sampled_from(real), st.sampled_from(real), other)


def paths(world: World, template: str) -> st.SearchStrategy[dict[str, str]]:
    nights = [world.running] if template in ENDS_SIGN_UP else [world.night, world.running]
    real = {"club": [world.club], "night": nights, "code": [world.code], "board": ["1", "2"],
            "player": ["me", world.ids["Babu"], world.ids["Dev"]]}
    return st.fixed_dictionaries({k: path_values(world, v) for k, v in real.items() if "{" + k + "}" in template})


def fill(template: str, values: dict[str, str]) -> str:
    for name, value in values.items():
        template = template.replace("{" + name + "}", quote(value, safe="", errors="surrogatepass"))
    return template


# -- the property ---------------------------------------------------------------------------------------------------

def check_one(world: World, method: str, template: str, values: dict[str, str], body: bytes, who: str) -> None:
    c = world.c
    if template in SIGNS_OUT and who in world.tokens:
        _as(c, _player(c, "Eve")[1])
    else:
        _as(c, world.tokens.get(who, "a-forged.token" if who == "forged" else None))
    url = fill(template, values)
    before = world.snapshot()
    r = c.request(method, url, content=body if method == "POST" else None,
                  headers={"content-type": "application/json"})
    world.examples += 1
    assert r.status_code < 500, (method, url, body[:300], who, r.status_code, r.text[:300])
    if 400 <= r.status_code < 500:
        world.refused += 1
        if r.headers.get("content-type", "").startswith("application/json"):     # not a path no route has
            assert isinstance(r.json().get("error"), str) and r.json()["error"], (method, url, r.text[:300])
        assert not changed(before, world.snapshot()), (method, url, body[:300], who, r.status_code, r.text[:300])


def fuzz(world: World, group: str, examples: int) -> None:
    routes = ROUTES[group]

    people = st.sampled_from(["Asha", "Asha", "Babu", "Dev", "nobody", "forged"])
    requests = st.one_of([st.tuples(st.just(route), paths(world, route[1]), bodies(world, route[1]), people)
                          for route in routes])

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                     HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much])
    @given(asked=requests)
    def one(asked: tuple[tuple[str, str], dict[str, str], bytes, str]) -> None:
        (method, template), values, body, who = asked
        check_one(world, method, template, values, body, who)

    one()


EXAMPLES = {"sqlite": 700, "postgresql": 150}


@pytest.mark.parametrize("group", sorted(ROUTES))
def test_fuzzed_routes_never_answer_500_and_a_refusal_changes_no_row(world: World, group: str,
                                                                     request: pytest.FixtureRequest) -> None:
    backend = "sqlite" if world.c.app.state.server.settings.db_url.startswith("sqlite") else "postgresql"
    fuzz(world, group, EXAMPLES[backend])
    assert world.refused > world.examples // 4       # the bodies reached the routes' own checks, and past them


@pytest.mark.slow
@pytest.mark.parametrize("group", sorted(ROUTES))
def test_fuzzed_routes_at_length(world: World, group: str) -> None:
    if not world.c.app.state.server.settings.db_url.startswith("sqlite"):
        pytest.skip("at length on SQLite only")
    fuzz(world, group, 5000)


def test_the_fuzz_covers_every_route_of_the_club_layer(world: World) -> None:
    """A route added to one of the fuzzed modules without being added to :data:`ROUTES` fails here."""
    from starlette.routing import Route

    from fiftysix.server.accounts.passkeys import routes as passkey_routes
    from fiftysix.server.accounts.routes import routes as account_routes
    from fiftysix.server.clubs.routes import routes as club_routes
    from fiftysix.server.matches.routes import routes as match_routes
    from fiftysix.server.nights.routes import routes as night_routes
    from fiftysix.server.pages.peek import routes as peek_routes

    fuzzed = {(m, p) for routes in ROUTES.values() for m, p in routes}
    for route in [*account_routes(), *passkey_routes(), *club_routes(), *match_routes(), *night_routes(),
                  *peek_routes()]:
        assert isinstance(route, Route)
        if not route.path.startswith("/api/"):
            continue    # the pages (/club, /account, /history): static files
        for method in sorted((route.methods or {"GET"}) - {"HEAD"}):
            assert (method, route.path) in fuzzed, (method, route.path)


"""Accounts with no password (issue 43): the cookie player becomes an account under the same id, carried to
other devices by a one-time link or a recovery code, with devices listed and revoked, sign-out and deletion.
Every refusal changes nothing: the devices and the database are checked after it."""

from __future__ import annotations

import asyncio
import base64
import json
from typing import Any

import pytest

pytest.importorskip("openskill")

from sqlalchemy import select, text, update  # noqa: E402

from fiftysix.server.accounts.schema import links  # noqa: E402
from fiftysix.server.accounts.store import Accounts  # noqa: E402
from fiftysix.server.matches.capture import MatchEnd  # noqa: E402
from fiftysix.server.matches.store import deal_row, record_match, write_deals  # noqa: E402
from fiftysix.server.storage.db import Database, events  # noqa: E402
from helpers.server import client  # noqa: E402

COOKIE = "fiftysix_player"
EVIL = {"Origin": "https://evil.example"}


def new_player(c: Any, name: str) -> tuple[str, str]:
    c.cookies.clear()
    r = c.post("/api/player", json={"name": name})
    assert r.status_code == 200
    return str(r.json()["id"]), str(r.json()["token"])


def device(c: Any, token: str) -> None:
    """Be the device holding ``token`` (one TestClient plays every device by swapping the cookie)."""
    c.cookies.clear()
    c.cookies.set(COOKIE, token)


def account(c: Any) -> dict[str, Any]:
    """This device's account; a token from before accounts is upgraded first (and the cookie replaced)."""
    r = c.get("/api/account")
    assert r.status_code == 200, r.text
    if r.json().get("upgraded"):
        device(c, r.json()["token"])
        r = c.get("/api/account")
        assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def token_of(c: Any) -> str:
    return str(c.cookies.get(COOKIE))


def run_db(db: str, work: Any) -> Any:
    async def run() -> Any:
        base = Database(db)
        try:
            return await work(base)
        finally:
            await base.close()
    return asyncio.run(run())


def test_the_cookie_player_becomes_an_account_with_the_same_id(db: str) -> None:
    with client(db) as c:
        pid, _ = new_player(c, "Asha")
        me = account(c)
        assert me["id"] == pid and me["name"] == "Asha" and not me["recovery"]
        [d] = me["devices"]
        assert d["current"]
        r = c.post("/api/account/name", json={"name": "Asha K"})
        assert r.status_code == 200 and r.json()["id"] == pid
        device(c, r.json()["token"])
        assert account(c)["name"] == "Asha K"
        assert c.post("/api/account/name", json={"name": ""}).status_code == 400
        r = c.post("/api/player", json={"name": "Asha R"})        # the start page's name form: same account
        assert r.status_code == 200 and r.json()["id"] == pid
        device(c, r.json()["token"])
        assert account(c)["name"] == "Asha R"
        c.cookies.clear()
        r = c.get("/api/account")
        assert r.status_code == 401 and "not signed in" in r.json()["error"]


def test_a_link_signs_in_another_device_once(db: str) -> None:
    with client(db) as c:
        pid, _ = new_player(c, "Asha")
        account(c)
        a = token_of(c)
        made = c.post("/api/account/link", json={})
        assert made.status_code == 200, made.text
        url = made.json()["url"]
        assert "/signin#" in url and made.json()["qr"].startswith("data:image/svg+xml")
        secret = url.split("#", 1)[1]
        c.cookies.clear()       # device B
        assert c.post("/api/account/link/use", json={"secret": secret + "x"}).status_code == 403   # forged
        used = c.post("/api/account/link/use", json={"secret": secret})
        assert used.status_code == 200, used.text
        assert used.json()["id"] == pid
        b = token_of(c)
        device(c, b)
        assert len(account(c)["devices"]) == 2
        c.cookies.clear()
        again = c.post("/api/account/link/use", json={"secret": secret})        # reused: refused, nothing made
        assert again.status_code == 403 and "not valid" in again.json()["error"]
        assert COOKIE not in again.cookies
        device(c, a)
        assert len(account(c)["devices"]) == 2

        expired = c.post("/api/account/link", json={}).json()["url"].split("#", 1)[1]

        async def age(base: Database) -> None:
            async with base.engine.begin() as conn:
                await conn.execute(update(links).values(expires=1))
        run_db(db, age)
        c.cookies.clear()
        assert c.post("/api/account/link/use", json={"secret": expired}).status_code == 403
        device(c, a)
        assert len(account(c)["devices"]) == 2


def test_a_link_is_consumed_once_by_two_processes_at_once(db: str) -> None:
    async def work(base: Database) -> None:
        await base.migrate()
        other = Database(db)        # a second process's engine
        try:
            store = Accounts(base.engine)
            await store.ensure("a" * 16, "Asha")
            for _ in range(5):
                secret, _ = await store.make_link("a" * 16)
                results = await asyncio.gather(store.use_link(secret), Accounts(other.engine).use_link(secret))
                assert sorted(r is not None for r in results) == [False, True]
            async with base.engine.connect() as conn:   # only the hash was ever stored
                hashes = [r[0] for r in await conn.execute(select(links.c.hash))]
            assert all(len(h) == 64 and secret not in h for h in hashes)
        finally:
            await other.close()
    run_db(db, work)


def test_a_recovery_code_signs_in_and_a_replaced_one_is_refused(db: str) -> None:
    with client(db) as c:
        pid, _ = new_player(c, "Asha")
        account(c)
        a = token_of(c)
        first = c.post("/api/account/recovery", json={}).json()["code"]
        second = c.post("/api/account/recovery", json={}).json()["code"]
        assert first != second and account(c)["recovery"]
        c.cookies.clear()
        stale = c.post("/api/account/recovery/use", json={"code": first})
        assert stale.status_code == 403 and "replaced" in stale.json()["error"]
        used = c.post("/api/account/recovery/use", json={"code": second.lower().replace("-", " ")})
        assert used.status_code == 200 and used.json()["id"] == pid
        c.cookies.clear()
        assert c.post("/api/account/recovery/use", json={"code": second}).status_code == 403   # used up
        device(c, a)
        me = account(c)
        assert len(me["devices"]) == 2 and not me["recovery"]


def test_revoking_a_device_signs_that_device_out(db: str) -> None:
    with client(db) as c:
        pid, _ = new_player(c, "Asha")
        account(c)
        a = token_of(c)
        code = c.post("/api/account/recovery", json={}).json()["code"]
        c.cookies.clear()
        b = c.post("/api/account/recovery/use", json={"code": code}).json()["token"]
        device(c, a)
        other = next(d for d in account(c)["devices"] if not d["current"])
        assert c.post("/api/account/devices/revoke", json={"device": "nope"}).status_code == 404
        assert c.post("/api/account/devices/revoke", json={"device": other["id"]}).status_code == 200
        device(c, b)
        assert c.get("/api/account").status_code == 401
        assert c.get("/api/players/me/history").status_code == 401     # the token is refused everywhere
        device(c, a)
        assert [d["current"] for d in account(c)["devices"]] == [True]
        assert c.post("/api/account/signout", json={}).status_code == 200
        device(c, a)
        assert c.get("/api/account").status_code == 401
    with client(db) as c:       # a restarted server still refuses them
        for token in (a, b):
            device(c, token)
            assert c.get("/api/players/me/history").status_code == 401


def test_a_foreign_origin_is_refused_with_nothing_changed(db: str) -> None:
    with client(db) as c:
        new_player(c, "Asha")
        me = account(c)
        assert c.get("/api/account", headers=EVIL).status_code == 403
        for path, body in (("name", {"name": "Mallory"}), ("devices/revoke", {"device": me["devices"][0]["id"]}),
                           ("signout", {}), ("delete", {"confirm": True}), ("link", {}),
                           ("link/use", {"secret": "x"}), ("recovery", {}), ("recovery/use", {"code": "x"})):
            r = c.post(f"/api/account/{path}", json=body, headers=EVIL)
            assert r.status_code == 403, (path, r.text)
        assert unseen(account(c)) == unseen(me)      # "seen" moves with every request, the rest must not


def unseen(info: dict[str, Any]) -> dict[str, Any]:
    """An account's page without the devices' last-seen times."""
    return {**info, "devices": [{k: v for k, v in d.items() if k != "seen"} for d in info["devices"]]}


def store_match(db: str, a: str, b: str) -> None:
    facts = {"match_no": 1, "people": [a, b, None, None], "bots": [None, None, "rules", "rules"],
             "played": [0, 1, 2, 3], "declarer": 0, "form": "number-suit", "made": True, "standings": [24, 0]}
    end = MatchEnd("QWER/1", "QWER", 1, "56", "56-4", 1, 1, (0, 1, 0, 1), (0, 1), (24, 0), (12, 12), 1_700_000_000,
                   ((a, "Asha"), (b, "Biju")))

    async def work(base: Database) -> None:
        async with base.engine.begin() as conn:
            await write_deals(conn, [deal_row("QWER", 1, 1, facts)])
            assert await record_match(conn, end)
    run_db(db, work)


def test_deleting_an_account_keeps_the_records_with_a_former_player(db: str) -> None:
    with client(db) as c:
        a, _ = new_player(c, "Asha")
        account(c)
        token_a = token_of(c)
        made = c.post("/api/tables", json={"game": "56", "preset": "56-4", "public": True})
        assert made.status_code == 200, made.text
        code = made.json()["code"]
        b, token_b = new_player(c, "Biju")
        store_match(db, a, b)
        device(c, token_a)
        assert c.post("/api/account/delete", json={}).status_code == 400        # not confirmed: nothing gone
        assert account(c)["id"] == a
        assert c.post("/api/account/delete", json={"confirm": True}).status_code == 200
        assert c.get("/api/account").status_code == 401
        device(c, token_a)
        assert c.get("/api/players/me/history").status_code == 401
        device(c, token_b)
        seen = c.get("/api/players/me/history")
        assert seen.status_code == 200, seen.text
        [m] = seen.json()["matches"]
        names = [p["name"] for p in m["partners"] + m["opponents"]]
        assert "Asha" not in names and "" in names     # the page shows "a former player"
        assert c.get(f"/api/tables/{code}").status_code == 200

    async def logged(base: Database) -> list[Any]:
        async with base.engine.connect() as conn:
            return [r[0] for r in await conn.execute(select(events.c.data).where(events.c.table_code == code))]
    data = run_db(db, logged)
    [created] = [e for e in data if e.get("kind") == "create"]
    assert created["host"] == a and created["host_name"] == "a former player"
    assert "Asha" not in str([e for e in data if e.get("kind") != "create"])
    with client(db) as c:       # the table's log still reads after a restart
        device(c, token_b)
        assert c.get(f"/api/tables/{code}").status_code == 200


def join_club(c: Any, token: str, invite: str) -> None:
    device(c, token)
    r = c.post("/api/clubs/join", json={"invite": invite})
    assert r.status_code == 200, r.text


def club_seen(c: Any, token: str, club: str) -> tuple[dict[str, Any], list[str]]:
    """A member's view of ``club`` and the names on its 56 leaderboard."""
    device(c, token)
    view = c.get(f"/api/clubs/{club}")
    board = c.get(f"/api/clubs/{club}/leaderboard?family=56")
    assert view.status_code == board.status_code == 200, (view.text, board.text)
    return view.json(), [m["name"] for m in board.json()["members"]]


def test_deleting_an_account_leaves_its_clubs_and_hands_on_the_ones_it_owned(db: str) -> None:
    from fiftysix.server.clubs.store import club_members, clubs

    with client(db) as c:
        a, token_a = new_player(c, "Asha")
        b, token_b = new_player(c, "Biju")
        ch, token_ch = new_player(c, "Chitra")
        device(c, token_a)
        owned = c.post("/api/clubs", json={"name": "Thrissur 56"}).json()
        alone = c.post("/api/clubs", json={"name": "Asha alone"}).json()
        join_club(c, token_b, owned["invite"])
        join_club(c, token_ch, owned["invite"])
        device(c, token_b)
        other = c.post("/api/clubs", json={"name": "Kochi"}).json()
        join_club(c, token_a, other["invite"])
        store_match(db, a, b)

        async def order(base: Database) -> None:      # Chitra joined before Biju: she is the heir
            async with base.engine.begin() as conn:
                for who, when in ((a, 100), (ch, 200), (b, 300)):
                    await conn.execute(update(club_members).where(club_members.c.player == who).values(joined=when))
        run_db(db, order)
        assert "Asha" in club_seen(c, token_b, other["id"])[1]
        device(c, token_a)
        account(c)
        assert c.post("/api/account/delete", json={"confirm": True}).status_code == 200

        view, board = club_seen(c, token_ch, owned["id"])
        assert view["owner"] == ch and view["is_owner"]
        assert [m["name"] for m in view["members"]] == ["Biju", "Chitra"] and sorted(board) == ["Biju", "Chitra"]
        device(c, token_ch)         # the new owner's powers work
        assert c.post(f"/api/clubs/{owned['id']}/invite", json={}).status_code == 200
        view, board = club_seen(c, token_b, other["id"])
        assert view["owner"] == b and [m["name"] for m in view["members"]] == ["Biju"] and board == ["Biju"]
        for club in (owned["id"], other["id"]):
            device(c, token_b)
            seen = c.get(f"/api/clubs/{club}").text + c.get(f"/api/clubs/{club}/leaderboard?family=56").text
            assert "Asha" not in seen and a not in seen

    async def left(base: Database) -> tuple[list[str], list[str]]:
        async with base.engine.connect() as conn:
            names = [r[0] for r in await conn.execute(select(clubs.c.name).order_by(clubs.c.name))]
            rows = [r[0] for r in await conn.execute(select(club_members.c.name))]
            return names, rows
    names, rows = run_db(db, left)
    assert names == ["Kochi", "Thrissur 56"] and alone["name"] not in names     # left empty: deleted
    assert "Asha" not in rows


def test_the_migration_upgrades_a_database_of_todays_head(db: str) -> None:
    """A database written by the code before accounts (head 0006) gets the account tables; its players keep their
    ids, tokens and generations."""
    from alembic import command
    from alembic.config import Config

    from fiftysix.server.storage.db import MIGRATIONS

    def to_0006(conn: Any) -> None:
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0006_history")

    async def work(base: Database) -> None:
        async with base.engine.begin() as conn:
            await conn.run_sync(to_0006)
            await conn.execute(text("INSERT INTO tables (code, created, status) VALUES ('OLD1', 1, 'lobby')"))
            await conn.execute(text("INSERT INTO player_generations (player_id, generation) VALUES ('p1', 2)"))
        await base.migrate()
        assert await base.exists("OLD1") and (await base.generations()) == {"p1": 2}
        async with base.engine.connect() as conn:
            version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one()
        assert version >= "0007_accounts"      # the accounts' migration or a later head
        store = Accounts(base.engine)
        session = await store.open_session("p1", "Old", "test")
        me = await store.account("p1")
        assert me is not None and me["id"] == "p1" and [d.id for d in me["devices"]] == [session]
    run_db(db, work)


def test_passkeys_only_on_a_secure_page_and_a_forged_answer_changes_nothing(db: str) -> None:
    with client(db) as c:
        new_player(c, "Asha")
        account(c)
        r = c.post("/api/account/passkeys/options", json={"purpose": "register"})     # http://testserver
        assert r.status_code == 400 and "secure" in r.json()["error"]
        c.base_url = "http://localhost"         # a secure context with a name
        token = token_of(c)
        device(c, token)
        options = c.post("/api/account/passkeys/options", json={"purpose": "register"})
        assert options.status_code == 200, options.text
        challenge = options.json()["options"]["challenge"]
        assert options.json()["options"]["rp"]["id"] == "localhost"
        client_data = base64.urlsafe_b64encode(json.dumps(
            {"type": "webauthn.create", "challenge": challenge, "origin": "http://localhost"}).encode()).decode()
        forged = {"id": "AAAA", "rawId": "AAAA", "type": "public-key",
                  "response": {"clientDataJSON": client_data.rstrip("="), "attestationObject": "AAAA"}}
        r = c.post("/api/account/passkeys/register", json={"credential": forged})
        assert r.status_code == 403 and "not accepted" in r.json()["error"]
        r = c.post("/api/account/passkeys/register", json={"credential": forged})     # its challenge is used up
        assert r.status_code == 403
        assert account(c)["passkeys"] == 0
        c.cookies.clear()
        signin = c.post("/api/account/passkeys/signin", json={"credential": {"response": {}}})
        assert signin.status_code == 403 and COOKIE not in signin.cookies
        assert c.post("/api/account/passkeys/options", json={"purpose": "signin"}, headers=EVIL).status_code == 403


def test_a_token_carries_its_device_and_a_revoked_device_is_refused() -> None:
    import time

    from starlette.datastructures import Headers

    from fiftysix.server.edge.security import Edge
    from fiftysix.server.edge.tokens import Tokens

    now = time.time()
    tokens = Tokens("k" * 32, clock=lambda: now - 2 * 86400)     # signed two days ago: renewed when used
    _, token = tokens.issue("Asha", "a" * 16, "s1")
    tokens = Tokens("k" * 32, clock=lambda: now)
    read = tokens.read(token)
    assert read is not None and read.session == "s1"
    edge = Edge(lambda *_: None, tokens=lambda: tokens)   # type: ignore[arg-type, return-value]
    renewed = edge._renewed_token(Headers({"cookie": f"{COOKIE}={token}"}))
    assert renewed is not None and (again := tokens.read(renewed)) is not None and again.session == "s1"
    tokens.revoked.add("s1")
    assert tokens.read(token) is None and tokens.read(renewed) is None
    assert tokens.read(tokens.issue("Asha", "a" * 16)[1]) is not None     # a token from before accounts still reads

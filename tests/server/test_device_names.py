"""A device named when it signs in (issue 57, item 6): its owner names it, and renames any of their signed-in
devices; another account, a guest and a signed-out device are refused with nothing changed, a bad name is refused
naming what is allowed (English and Malayalam), and no one but the owner ever reads a device's name."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("openskill")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from test_accounts import account, device, new_player, token_of  # noqa: E402

from fiftysix.server.accounts import routes as account_routes  # noqa: E402
from fiftysix.server.accounts.store import Accounts  # noqa: E402
from fiftysix.server.storage.db import Database  # noqa: E402
from helpers.server import client  # noqa: E402

NAME = "/api/account/devices/name"


@pytest.fixture(autouse=True)
def unlimited(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many account requests from one test address: the guard's buckets are not what is tested here."""
    monkeypatch.setattr(account_routes.GUARD, "per_address", (1000.0, 1000))
    monkeypatch.setattr(account_routes.GUARD, "whole", (1000.0, 1000))


def second_device(c: Any) -> str:
    """A second device of this device's account, signed in with a recovery code: its token."""
    code = c.post("/api/account/recovery", json={}).json()["code"]
    c.cookies.clear()
    used = c.post("/api/account/recovery/use", json={"code": code})
    assert used.status_code == 200, used.text
    return str(used.json()["token"])


def names(c: Any, token: str) -> dict[str, str | None]:
    """The device list as ``token``'s device reads it: id -> name."""
    device(c, token)
    return {d["id"]: d["name"] for d in account(c)["devices"]}


def test_the_store_names_only_its_owners_live_device(tmp_path: Any) -> None:
    async def work() -> None:
        base = Database(f"sqlite+aiosqlite:///{tmp_path / 's.db'}")
        try:
            await base.migrate()
            store = Accounts(base.engine)
            phone = await store.open_session("a" * 16, "Asha", "Chrome · Android")
            tablet = await store.open_session("a" * 16, "Asha", "Chrome · Android")
            other = await store.open_session("b" * 16, "Biju", "Firefox · Linux")
            assert await store.name_device("a" * 16, phone, "Asha's phone")
            assert not await store.name_device("b" * 16, tablet, "Biju's now")      # another's: refused
            assert not await store.name_device("a" * 16, other, "mine now")
            assert await store.revoke("a" * 16, tablet)
            assert not await store.name_device("a" * 16, tablet, "gone")             # signed out: refused
            me = await store.account("a" * 16)
            assert me is not None
            assert [(d.id, d.name, d.label) for d in me["devices"]] == [(phone, "Asha's phone", "Chrome · Android")]
            them = await store.account("b" * 16)
            assert them is not None and [d.name for d in them["devices"]] == [None]
        finally:
            await base.close()
    asyncio.run(work())


def test_each_actor_naming_a_device(db: str) -> None:
    with client(db) as c:
        new_player(c, "Asha")
        me = account(c)
        phone = token_of(c)
        [here] = me["devices"]
        assert here["name"] is None and here["label"]          # unnamed: the page offers the label as its name
        tablet = second_device(c)
        ids = names(c, tablet)
        tablet_id = next(d for d in ids if d != here["id"])

        device(c, tablet)           # the device that signed in names itself
        r = c.post(NAME, json={"device": tablet_id, "name": "  Asha's   tablet "})
        assert r.status_code == 200 and r.json() == {"device": tablet_id, "name": "Asha's tablet"}
        device(c, phone)            # the owner renames any of their devices from another one
        assert c.post(NAME, json={"device": tablet_id, "name": "Kitchen tablet"}).status_code == 200
        assert c.post(NAME, json={"device": here["id"], "name": "Asha's phone"}).status_code == 200
        mine = {here["id"]: "Asha's phone", tablet_id: "Kitchen tablet"}
        assert names(c, phone) == names(c, tablet) == mine

        for bad, words in (("", "choose a device name (1 to 40 characters)"),
                           ("   ", "choose a device name (1 to 40 characters)"),
                           ("x" * 41, "the device name has 41 characters; at most 40 are allowed"),
                           ("tab\x00let", "U+0000"), (7, "the device name must be text")):
            device(c, phone)
            r = c.post(NAME, json={"device": tablet_id, "name": bad})
            assert r.status_code == 400 and words in r.json()["error"], (bad, r.text)
        c.cookies.set("lang", "ml")
        r = c.post(NAME, json={"device": tablet_id, "name": "x" * 41})
        assert r.status_code == 400 and "41" in r.json()["error"] and "device name" not in r.json()["error"]
        assert any("\u0d00" <= ch <= "\u0d7f" for ch in r.json()["error"]), r.text      # in Malayalam
        c.cookies.delete("lang")

        new_player(c, "Biju")       # another account: refused as an unknown id, nothing changed
        account(c)
        biju = token_of(c)
        biju_id = next(iter(names(c, biju)))
        for target in (tablet_id, here["id"]):
            device(c, biju)
            r = c.post(NAME, json={"device": target, "name": "Biju's now"})
            assert r.status_code == 404 and "no device of yours" in r.json()["error"]
        device(c, phone)
        assert c.post(NAME, json={"device": biju_id, "name": "mine now"}).status_code == 404
        assert c.post(NAME, json={"device": "x" * 33, "name": "long id"}).status_code == 404
        assert names(c, biju) == {biju_id: None}

        c.cookies.clear()           # a guest: no player at all, or a name on the start page and no account
        r = c.post(NAME, json={"device": tablet_id, "name": "guest's"})
        assert r.status_code == 401 and "not signed in" in r.json()["error"]
        new_player(c, "Guest")
        r = c.post(NAME, json={"device": tablet_id, "name": "guest's"})
        assert r.status_code == 404 and "no device of yours" in r.json()["error"]
        assert names(c, phone) == mine

        device(c, phone)            # the tablet signed out: it names nothing, and no one names it
        assert c.post("/api/account/devices/revoke", json={"device": tablet_id}).status_code == 200
        device(c, tablet)
        assert c.post(NAME, json={"device": tablet_id, "name": "still here"}).status_code == 401
        device(c, phone)
        r = c.post(NAME, json={"device": tablet_id, "name": "after"})
        assert r.status_code == 404
        assert names(c, phone) == {here["id"]: "Asha's phone"}


NAMES = st.integers(0, 99).map(lambda i: f"Dev {i:02d}")
"""Names no other text of a page contains, nor one another: a leak is found by looking for the text."""


def test_a_device_name_reaches_its_owner_alone(db: str) -> None:
    """Whoever names whichever device, each account's page lists exactly the names its owner's devices gave its
    own live devices, and no other account's page or error carries one of them."""
    with client(db) as c:
        new_player(c, "Asha")
        account(c)
        asha = [token_of(c)]
        asha.append(second_device(c))
        new_player(c, "Biju")
        account(c)
        biju = token_of(c)
        devices = {"asha": list(names(c, asha[0])), "biju": list(names(c, biju))}
        tokens = {"asha 1": asha[0], "asha 2": asha[1], "biju": biju, "guest": ""}
        owner = {d: who for who, ids in devices.items() for d in ids}
        model: dict[str, str | None] = dict.fromkeys(owner)

        @settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                         HealthCheck.function_scoped_fixture])
        @given(st.lists(st.tuples(st.sampled_from(sorted(tokens)), st.sampled_from(sorted(owner)), NAMES),
                        max_size=6))
        def run(steps: list[tuple[str, str, str]]) -> None:
            for actor, target, name in steps:
                if tokens[actor]:
                    device(c, tokens[actor])
                else:
                    c.cookies.clear()
                r = c.post(NAME, json={"device": target, "name": name})
                mine = actor.split()[0] == owner[target]
                assert r.status_code == (200 if mine else 401 if actor == "guest" else 404), (actor, target, r.text)
                if mine:
                    model[target] = name
                else:
                    assert name not in r.text
            for actor, token in tokens.items():
                if not token:
                    continue
                device(c, token)
                page = c.get("/api/account")
                who = actor.split()[0]
                listed = {d["id"]: d["name"] for d in page.json()["devices"]}
                assert listed == {d: model[d] for d in devices[who]}
                for d, name in model.items():
                    if owner[d] != who and name is not None and name not in {model[m] for m in devices[who]}:
                        assert name not in page.text
        run()

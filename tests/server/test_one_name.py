"""One player, one name, on every page of a device (issue 57 item 3): the server says which player and name the
device's cookie holds, so a name told on the club page is the start page's and the table's, and a device signed
out has none."""

from __future__ import annotations

from pathlib import Path

from helpers.server import client


def test_the_device_s_player_and_name_are_what_its_cookie_holds(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        c.cookies.clear()
        fresh = c.get("/api/player")
        assert fresh.status_code == 200 and fresh.json() == {"id": None, "name": None}
        assert "no-store" in fresh.headers["cache-control"]          # never a stale name from a cache
        named = c.post("/api/player", json={"name": "Asha"}).json()
        assert c.get("/api/player").json() == {"id": named["id"], "name": "Asha"}
        c.post("/api/player", json={"name": "Asha K"})                 # a new name: the same player, renamed
        assert c.get("/api/player").json() == {"id": named["id"], "name": "Asha K"}
        c.cookies.clear()
        c.cookies.set("fiftysix_player", named["token"] + "x")         # a forged token: no player
        assert c.get("/api/player").json() == {"id": None, "name": None}
        c.cookies.clear()
        c.post("/api/player", json={"name": "Ben"})
        assert c.post("/api/player/signout-all", json={}).status_code == 200
        assert c.get("/api/player").json() == {"id": None, "name": None}   # signed out: the device has none

"""Issue 43 across processes: the list of open tables that every process answers alike, and a watcher's ask to
see a hand with the watcher and the player on different processes, kept through the writer's failover."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import httpx2 as httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from helpers import pg
from helpers.cluster import Proc, new_player, new_table, writer_pid

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]


def test_the_open_tables_of_one_process_are_listed_by_another(start: Callable[..., Proc]) -> None:
    a, b = start(), start()
    host = new_player(a, "Vinod")
    public = new_table(a, host, preset="56-4")
    private = new_table(a, host, preset="56-4", public=False)
    cookie = {"cookie": f"fiftysix_player={host}"}
    made = httpx.post(f"{a.url}/api/clubs", json={"name": "Thrissur 56"}, headers=cookie, timeout=10)
    assert made.status_code == 200, made.text
    club = httpx.post(f"{a.url}/api/clubs/{made.json()['id']}/tables", json={"preset": "56-4", "public": True},
                      headers=cookie, timeout=10)
    assert club.status_code == 200, club.text
    for proc in (b, a):
        r = httpx.get(f"{proc.url}/api/lobby", timeout=10)
        assert r.status_code == 200, r.text
        tables = r.json()["tables"]
        assert [t["code"] for t in tables] == [public], proc.url
        assert tables[0]["host"] == "Vinod" and tables[0]["free"] == 3 and tables[0]["preset"] == "56-4"
        assert private not in r.text and club.json()["code"] not in r.text
    # the club page lists the club's open table whichever process answers (on B it is read from its log)
    for proc in (b, a):
        page = httpx.get(f"{proc.url}/api/clubs/{made.json()['id']}", headers=cookie, timeout=10)
        assert page.status_code == 200, page.text
        listed = page.json()["tables"]
        assert [t["code"] for t in listed] == [club.json()["code"]], proc.url
        assert listed[0]["free"] == 3 and listed[0]["status"] == "lobby" and listed[0]["url"], listed


class Conn:
    """One websocket to a table through one process, keeping every message it was sent."""

    def __init__(self, proc: Proc, code: str, token: str) -> None:
        self.proc, self.code, self.token = proc, code, token
        self.ws: ClientConnection | None = None
        self.heard: list[dict[str, Any]] = []

    async def open(self) -> Conn:
        self.ws = await connect(self.proc.ws(self.code), open_timeout=10, max_size=1 << 22)
        await self.send({"type": "hello", "token": self.token})
        return self

    async def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps(message))

    async def until(self, cond: Callable[[dict[str, Any]], bool], seconds: float = 20) -> dict[str, Any]:
        """The first message from now on that meets ``cond``."""
        assert self.ws is not None
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out on {self.proc.url}: last {[m['type'] for m in self.heard[-5:]]}")
            try:
                msg = json.loads(await asyncio.wait_for(self.ws.recv(), left))
            except TimeoutError:
                continue
            self.heard.append(msg)
            if cond(msg):
                return msg

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


def post(proc: Proc, path: str, body: dict[str, Any]) -> Any:
    r = httpx.post(f"{proc.url}{path}", json=body, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def is_state(msg: dict[str, Any]) -> bool:
    return msg["type"] in ("state", "event")


def test_a_peek_across_processes_reaches_only_the_watcher_and_its_ban_survives_failover(
        start: Callable[..., Proc], pg_cluster: pg.Cluster, dbname: str) -> None:
    a, b = start(), start()
    asha, wen = new_player(a, "Asha"), new_player(b, "Wen")
    code = new_table(a, asha, preset="56-4", fill="random")      # a writes it; Asha sits at seat 0
    assert writer_pid(pg_cluster, dbname, code) == a.pid

    async def play() -> None:
        player = await Conn(a, code, asha).open()
        watcher = await Conn(b, code, wen).open()      # a replica's viewer
        await watcher.send({"type": "join", "name": "Wen"})
        await watcher.until(lambda m: is_state(m) and m["you"]["joined"])
        await player.send({"type": "start"})
        hand = (await player.until(lambda m: is_state(m) and m["table"]["status"] == "playing"))["view"]["hand"]
        await watcher.until(lambda m: is_state(m) and m["table"]["status"] == "playing")
        assert post(b, f"/api/tables/{code}/peek", {"token": wen, "seat": 0}) == {"asked": True}
        ask = await player.until(lambda m: m["type"] == "peek_ask")      # on a: asked on b
        assert ask["name"] == "Wen" and ask["seat"] == 0
        answer = post(a, f"/api/tables/{code}/peek/answer", {"token": asha, "watcher": ask["watcher"],
                                                              "answer": "always"})
        assert answer == {"shown": True}
        shown = await watcher.until(lambda m: m["type"] == "peek_hand")    # on b: answered on a
        assert shown["seat"] == 0 and shown["hand"] == hand
        await watcher.send({"type": "sit", "seat": 1})
        assert "match ends" in (await watcher.until(lambda m: m["type"] == "error"))["message"]
        on_a = await Conn(a, code, wen).open()       # the writer's process refuses the seat too
        await on_a.send({"type": "sit", "seat": 1})
        assert "match ends" in (await on_a.until(lambda m: m["type"] == "error"))["message"]
        await on_a.close()

        a.kill()        # the writer dies: b takes the table over from the log
        deadline = time.monotonic() + 30
        while writer_pid(pg_cluster, dbname, code) != b.pid:
            assert time.monotonic() < deadline, "b did not take the table over"
            await asyncio.sleep(0.2)
        first = player
        player = await Conn(b, code, asha).open()
        await player.until(lambda m: is_state(m) and m["you"]["seat"] == 0)
        await watcher.send({"type": "sit", "seat": 1})     # still barred until the match ends
        assert "match ends" in (await watcher.until(lambda m: m["type"] == "error"))["message"]
        # "always" was kept too: the new writer shows the hand again without asking
        assert post(b, f"/api/tables/{code}/peek", {"token": wen, "seat": 0}) == {"shown": True}
        again = await watcher.until(lambda m: m["type"] == "peek_hand")
        assert again["seat"] == 0 and again["hand"] == hand
        await asyncio.sleep(0.5)        # anything sent to the seated player by now has arrived
        await player.send({"type": "state"})
        await player.until(lambda m: m["type"] == "state")
        assert not [m for m in first.heard + player.heard if m["type"] in ("peek_hand", "peek_refused")]
        await player.close()
        await watcher.close()

    asyncio.run(play())

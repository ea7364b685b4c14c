"""What each process used to count alone, shared through Redis: asking the host of a private table to be let
in (the one who asks and the host on different processes), the spectator limit, failed lookups and the table
quotas; the last two also outlive a process's restart."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx2 as httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from helpers import pg
from helpers.cluster import Proc, new_player, new_table, writer_pid

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]


class Socket:
    """One websocket to a table through one process, with everything it was sent."""

    def __init__(self, proc: Proc, code: str, token: str | None = None) -> None:
        self.proc, self.code, self.token = proc, code, token
        self.ws: ClientConnection | None = None
        self.seen: list[dict[str, Any]] = []

    async def open(self) -> Socket:
        self.ws = await connect(self.proc.ws(self.code), open_timeout=10)
        await self.hello()
        return self

    async def hello(self) -> None:
        await self.send({"type": "hello", **({"token": self.token} if self.token else {})})

    async def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps(message))

    async def wait(self, wanted: Callable[[dict[str, Any]], bool], what: str, seconds: float = 15) -> dict[str, Any]:
        """The next message ``wanted`` accepts (earlier ones are kept in ``seen``).

        :raises AssertionError: when none comes in ``seconds``.
        """
        assert self.ws is not None
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = json.loads(await asyncio.wait_for(self.ws.recv(), min(left, 0.5)))
            except TimeoutError:
                continue
            self.seen.append(message)
            if wanted(message):
                return message
        raise AssertionError(f"no {what} on {self.proc.port} in {seconds} s; last messages: {self.seen[-4:]}")

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


def kind(name: str) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m.get("type") == name


def asking(*names: str) -> Callable[[dict[str, Any]], bool]:
    """A ``knocks`` message listing exactly these names."""
    return lambda m: m.get("type") == "knocks" and sorted(k["name"] for k in m["knocks"]) == sorted(names)


def private_table(proc: Proc, token: str) -> str:
    r = httpx.post(f"{proc.url}/api/tables", json={"token": token, "preset": "56-4", "public": False}, timeout=10)
    r.raise_for_status()
    return str(r.json()["code"])


def test_asking_to_join_reaches_the_host_on_another_process(start: Callable[..., Proc]) -> None:
    one, two = start(), start()
    asha = new_player(one, "Asha")
    code = private_table(one, asha)      # one writes it
    tokens = {name: new_player(two, name) for name in ("Ben", "Cy", "Dee")}

    async def go() -> None:
        # the host has a connection through each process: each must show who asks, wherever they ask
        host_one, host_two = await Socket(one, code, asha).open(), await Socket(two, code, asha).open()
        for host in (host_one, host_two):
            await host.wait(kind("state"), "the host's state")

        ben = await Socket(two, code, tokens["Ben"]).open()     # asks through the replica
        await ben.wait(kind("private"), "private")
        await ben.send({"type": "ask", "name": "Ben"})
        await ben.wait(kind("asked"), "asked")
        knocks = await host_one.wait(asking("Ben"), "Ben's knock on the writer")
        await host_two.wait(asking("Ben"), "Ben's knock on the replica")
        await host_one.send({"type": "admit", "player": knocks["knocks"][0]["player"]})     # the writer lets him in
        await ben.wait(kind("admitted"), "admitted")
        await ben.hello()
        state = await ben.wait(kind("state"), "Ben's state as a member")
        assert state["you"]["joined"] and state["you"]["name"] == "Ben"
        for host in (host_one, host_two):
            await host.wait(asking(), "the knock list emptied")

        cy = await Socket(one, code, tokens["Cy"]).open()       # asks through the writer ...
        await cy.wait(kind("private"), "private")
        await cy.send({"type": "ask", "name": "Cy"})
        knocks = await host_two.wait(asking("Cy"), "Cy's knock on the replica")
        await host_one.wait(asking("Cy"), "Cy's knock on the writer")
        await host_two.send({"type": "refuse", "player": knocks["knocks"][0]["player"]})   # ... refused by the replica
        refused = await cy.wait(kind("refused"), "refused")
        assert "did not let you in" in refused["message"]
        await cy.hello()
        assert (await cy.wait(lambda m: m["type"] in ("private", "state"), "Cy's answer"))["type"] == "private"

        dee = await Socket(two, code, tokens["Dee"]).open()     # asks, then leaves: the host stops seeing her
        await dee.wait(kind("private"), "private")
        await dee.send({"type": "ask", "name": "Dee"})
        await host_one.wait(asking("Dee"), "Dee's knock")
        await dee.close()
        await host_one.wait(asking(), "Dee gone from the knock list")
        for s in (host_one, host_two, ben, cy):
            await s.close()

    asyncio.run(go())
    members = httpx.get(f"{one.url}/api/tables/{code}", cookies={"fiftysix_player": tokens["Ben"]}, timeout=10)
    assert members.status_code == 200 and members.json()["version"] == 2     # create, admit: logged once
    assert httpx.get(f"{two.url}/api/tables/{code}", cookies={"fiftysix_player": tokens["Cy"]},
                     timeout=10).status_code == 403


def test_asking_to_join_survives_the_writer_s_death(start: Callable[..., Proc], pg_cluster: pg.Cluster,
                                                   dbname: str) -> None:
    writer, two, three = start(), start(), start()
    asha = new_player(writer, "Asha")
    code = private_table(writer, asha)
    ben, cy = new_player(three, "Ben"), new_player(three, "Cy")

    async def go() -> None:
        host = await Socket(two, code, asha).open()
        await host.wait(kind("state"), "the host's state")
        asking_ben = await Socket(three, code, ben).open()
        await asking_ben.wait(kind("private"), "private")
        await asking_ben.send({"type": "ask", "name": "Ben"})
        await host.wait(asking("Ben"), "Ben's knock")
        writer.kill()       # the table's writer dies; two or three takes the table over from the log
        await until(lambda: writer_pid(pg_cluster, dbname, code) in (two.pid, three.pid), 20, "a new writer")
        asking_cy = await Socket(three, code, cy).open()
        await asking_cy.wait(kind("private"), "private")
        await asking_cy.send({"type": "ask", "name": "Cy"})
        knocks = await host.wait(asking("Ben", "Cy"), "both knocks, told to the new writer", 20)
        ben_id = next(k["player"] for k in knocks["knocks"] if k["name"] == "Ben")
        await host.send({"type": "admit", "player": ben_id})
        await asking_ben.wait(kind("admitted"), "admitted")
        await asking_ben.hello()
        assert (await asking_ben.wait(kind("state"), "Ben's state"))["you"]["joined"]
        await host.wait(asking("Cy"), "Cy still asking")
        for s in (host, asking_ben, asking_cy):
            await s.close()

    asyncio.run(go())


async def until(cond: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not await asyncio.to_thread(cond):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.2)


async def _spectate(proc: Proc, code: str) -> tuple[Socket, dict[str, Any]]:
    """A spectator's connection and its first answer: a ``state`` (let in) or an ``error``."""
    s = await Socket(proc, code).open()
    try:
        return s, await s.wait(lambda m: m["type"] in ("state", "error"), "a state or an error")
    except ConnectionClosed:
        return s, {"type": "error", "message": "closed"}


def test_the_spectator_limit_counts_every_process(start: Callable[..., Proc]) -> None:
    one, two = start(limits=("spectators=2",)), start(limits=("spectators=2",))
    code = new_table(one, new_player(one, "Asha"), preset="56-4")

    async def go() -> None:
        first, answer = await _spectate(one, code)
        assert answer["type"] == "state"
        second, answer = await _spectate(two, code)
        assert answer["type"] == "state"
        for proc in (two, one):     # one on each process: the table is full on both
            _s, answer = await _spectate(proc, code)
            assert answer["type"] == "error" and "2 spectators, the most allowed (2)" in answer["message"], answer
        await first.close()         # a place frees at once
        third, answer = await _spectate(two, code)
        assert answer["type"] == "state", answer
        # two dies with both spectators: their places count until their entries run out (10 s), then free
        two.kill()
        _s, answer = await _spectate(one, code)
        assert answer["type"] == "error", "a dead process's spectators stopped counting at once"
        deadline, let_in = time.monotonic() + 30, []
        while len(let_in) < 2 and time.monotonic() < deadline:
            s, answer = await _spectate(one, code)
            if answer["type"] == "state":
                let_in.append(s)
            else:
                await asyncio.sleep(0.5)
        assert len(let_in) == 2, "the dead process's spectators still count"
        for s in let_in:
            await s.close()
        await second.close()
        await third.close()

    asyncio.run(go())


def test_failed_lookups_count_on_every_process_and_outlive_a_restart(start: Callable[..., Proc]) -> None:
    limits = ("lookup_burst=4", "lookup_rate=0.001")     # 4, then one more every 1000 s
    one, two = start(limits=limits), start(limits=limits)
    code = new_table(one, new_player(one, "Asha"), preset="56-4")
    answers = [httpx.get(f"{p.url}/api/tables/ZZZ{i:03d}", timeout=10).status_code
               for i, p in enumerate((one, two, one, two))]
    assert answers == [404, 404, 404, 404]
    for p in (one, two):
        assert httpx.get(f"{p.url}/api/tables/ZZZ999", timeout=10).status_code == 429
        assert httpx.get(f"{p.url}/api/tables/{code}", timeout=10).status_code == 429     # even a real table
    one.stop()
    two.stop()
    again = start(limits=limits)        # no process that saw the lookups is left
    refused = httpx.get(f"{again.url}/api/tables/{code}", timeout=10)
    assert refused.status_code == 429 and "too many lookups" in refused.json()["error"]


def _create(proc: Proc, token: str, fill: str = "rules") -> httpx.Response:
    return httpx.post(f"{proc.url}/api/tables", json={"token": token, "preset": "56-4", "public": True, "fill": fill},
                      timeout=20)


def test_table_quotas_count_on_every_process_and_outlive_a_restart(start: Callable[..., Proc]) -> None:
    limits = ("tables_per_hour=2", "open_tables_address=3")
    one, two = start(limits=limits), start(limits=limits)
    asha = new_player(one, "Asha")
    # four at once, two through each process: exactly two are counted (the check and the count are one step)
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda p: _create(p, asha), (one, two, one, two)))
    assert sorted(r.status_code for r in answers) == [200, 200, 429, 429], [r.text for r in answers]
    for r in answers:
        if r.status_code == 429:
            assert r.json()["error"] == ("you created 2 tables in the last hour, the most allowed (2 an hour); "
                                         "try again later")
    ben = new_player(two, "Ben")
    assert _create(two, ben).status_code == 200
    refused = _create(one, ben)     # the address hosts three open tables, on two processes
    assert refused.status_code == 429
    assert refused.json()["error"] == "your address hosts 3 open tables, the most allowed (3); finish one first"
    one.stop()
    again = start(limits=limits)        # a process started afresh knows what Asha created
    refused = _create(again, asha)
    assert refused.status_code == 429 and "(2 an hour)" in refused.json()["error"]


def test_the_quota_of_searching_computer_players_counts_every_process(start: Callable[..., Proc]) -> None:
    one, two = start(limits=("search_tables=1",)), start(limits=("search_tables=1",))
    asha = new_player(one, "Asha")
    assert _create(one, asha, fill="pimc").status_code == 200
    refused = _create(two, asha, fill="pimc")
    assert refused.status_code == 429
    assert refused.json()["error"] == ("you host 1 tables with searching computer players, the most allowed (1); "
                                       "choose random or rules computer players")
    code = new_table(two, asha, preset="56-4", fill="rules")    # two writes it

    async def go() -> None:
        host = await Socket(one, code, asha).open()      # through the replica: forwarded to the writer
        await host.wait(kind("state"), "the host's state")
        await host.send({"type": "bot", "seat": 1, "bot": "ismcts"})
        error = await host.wait(kind("error"), "the refusal")
        assert "the host has 1 tables with searching computer players, the most allowed (1)" in error["message"]
        await host.send({"type": "bot", "seat": 1, "bot": "random"})
        event = await host.wait(kind("event"), "the computer player seated")
        assert event["table"]["seats"][1]["kind"] == "bot"
        await host.close()

    asyncio.run(go())


def test_reactions_reach_every_process_and_are_limited_once(start: Callable[..., Proc]) -> None:
    limits = ("reaction_burst=2", "reactions_per_minute=1")
    one, two = start(limits=limits), start(limits=limits)
    asha, ben = new_player(one, "Asha"), new_player(two, "Ben")
    code = new_table(one, asha, preset="56-4")      # one writes it

    async def go() -> None:
        at_one = await Socket(one, code, asha).open()
        ben_two, ben_one = await Socket(two, code, ben).open(), await Socket(one, code, ben).open()
        for s in (at_one, ben_two, ben_one):
            await s.wait(kind("state"), "a state")
        await ben_two.send({"type": "join", "name": "Ben"})
        await ben_two.wait(kind("event"), "Ben's join")
        await ben_two.send({"type": "react", "reaction": "Good luck"})      # through the replica
        reaction = await at_one.wait(kind("reaction"), "Ben's reaction on the writer")
        assert (reaction["name"], reaction["reaction"]) == ("Ben", "Good luck")
        await at_one.send({"type": "react", "reaction": "Thanks"})          # through the writer
        reaction = await ben_two.wait(lambda m: m["type"] == "reaction" and m["name"] == "Asha", "Asha's reaction")
        assert reaction["reaction"] == "Thanks"
        await ben_one.send({"type": "react", "reaction": "Oops"})           # Ben's second: the burst is two ...
        await at_one.wait(lambda m: m["type"] == "reaction" and m["reaction"] == "Oops", "Ben's second reaction")
        await ben_two.send({"type": "react", "reaction": "Sorry"})          # ... on both processes together
        error = await ben_two.wait(kind("error"), "the refusal")
        assert "too many reactions" in error["message"]
        for s in (at_one, ben_two, ben_one):
            await s.close()

    asyncio.run(go())

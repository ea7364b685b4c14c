"""Server processes for the cluster tests (``python -m fiftysix serve --redis ...`` as real subprocesses) and
people playing through them over real websockets, reconnecting elsewhere when their process dies."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2 as httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from helpers import pg

SRC = Path(__file__).resolve().parents[2] / "src"
READY_TIMEOUT = 40      # seconds for a process to answer HTTP (imports and migrations on a loaded machine)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Proc:
    """One ``fiftysix serve`` process of the cluster; its log goes to ``log``."""

    def __init__(self, db: str, redis: str, folder: Path, bot_delay: float = 0.05,
                 limits: tuple[str, ...] = ()) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = folder / f"serve-{self.port}.log"
        env = {**os.environ, "PYTHONPATH": str(SRC)}
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "fiftysix", "serve", "--db", db, "--redis", redis, "--port", str(self.port),
                 "--bot-delay", str(bot_delay), "--log-level", "info", "--limit", "tables_per_hour_address=1000",
                 "--limit", "tables_per_hour=1000", *(a for item in limits for a in ("--limit", item))],
                stdout=out, stderr=subprocess.STDOUT, env=env)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def ws(self, code: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{code}"

    def wait_ready(self) -> Proc:
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.output()}")
            try:
                if httpx.get(f"{self.url}/api/catalogue", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the server did not start in {READY_TIMEOUT} s: {self.output()}")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def signal(self, sig: int) -> None:
        os.kill(self.proc.pid, sig)

    def kill(self) -> None:
        """kill -9, and reap it."""
        if self.alive():
            self.signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.alive():
            self.signal(signal.SIGCONT)
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]


def sql(cluster: pg.Cluster, db: str, query: str) -> list[str]:
    """Rows of one query on database ``db`` (psql, unaligned, ``|`` between columns)."""
    done = subprocess.run([str(cluster.bin / "psql"), "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1",
                           "-h", str(cluster.root), "-p", str(cluster.port), "-U", pg.SUPERUSER, "-d", db,
                           "-c", query], check=True, capture_output=True, timeout=30, text=True)
    return [line for line in done.stdout.splitlines() if line]


def writer_pid(cluster: pg.Cluster, db: str, code: str) -> int | None:
    """The process id in the name of the table's live lease holder."""
    rows = sql(cluster, db, f"SELECT lease_owner FROM tables WHERE code = '{code}' "
                            "AND lease_until >= extract(epoch from clock_timestamp())")
    return int(rows[0].rsplit("-", 2)[-2]) if rows and rows[0] else None


def logged_events(cluster: pg.Cluster, db: str, code: str) -> list[tuple[int, dict[str, Any]]]:
    rows = sql(cluster, db, f"SELECT version, data::text FROM events WHERE table_code = '{code}' ORDER BY version")
    return [(int(v), json.loads(d)) for v, d in (r.split("|", 1) for r in rows)]


def new_player(proc: Proc, name: str) -> str:
    r = httpx.post(f"{proc.url}/api/player", json={"name": name}, timeout=10)
    r.raise_for_status()
    return str(r.json()["token"])


def new_table(proc: Proc, token: str, **form: Any) -> str:
    r = httpx.post(f"{proc.url}/api/tables", json={"token": token, "public": True, **form}, timeout=10)
    r.raise_for_status()
    return str(r.json()["code"])


class Person:
    """Someone at the table through one process at a time: plays a legal move with a fresh id whenever it
    is their turn, resends an unanswered move (same id) after reconnecting, and checks that the versions it
    is sent run on without a gap or a repeat on every connection."""

    def __init__(self, name: str, token: str, code: str, host: bool = False) -> None:
        self.name, self.token, self.code, self.host = name, token, code, host
        self.ws: ClientConnection | None = None
        self.proc: Proc | None = None
        self.version = 0                 # the last version sent to this person
        self.last: dict[str, Any] | None = None
        self.pending: tuple[str, str] | None = None     # (id, move) sent, not answered yet
        self.acked: dict[str, int] = {}  # move id -> version it was applied at
        self.moves = 0
        self.gaps: list[str] = []
        self.errors: list[str] = []
        self.reconnects = 0
        self.services: list[tuple[str, bool]] = []     # the service messages sent to this person, in order
        self.service_times: list[float] = []              # when each came (monotonic)
        self.asked_next = 0
        self.table: dict[str, Any] = {}    # the table's public facts, as the last snapshot or presence had them

    async def connect(self, proc: Proc) -> None:
        self.proc = proc
        self.ws = await connect(proc.ws(self.code), open_timeout=10, max_size=1 << 22)
        hello: dict[str, Any] = {"type": "hello", "token": self.token}
        if self.version:
            hello["version"] = self.version
        await self.ws.send(json.dumps(hello))
        self.fresh = True

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps(message))

    def _take(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind in ("state", "event"):
            v = int(msg["version"])
            if kind == "event" and v != self.version + 1:
                self.gaps.append(f"{self.name}: event {v} after {self.version}")
            if kind == "state" and v < self.version:
                self.gaps.append(f"{self.name}: state {v} after {self.version}")
            self.version = v
            self.last = msg
            self.table = msg["table"]
        elif kind == "presence":
            self.table = msg["table"]
        elif kind == "moved":
            self.acked[msg["id"]] = int(msg["version"])
            if self.pending is not None and self.pending[0] == msg["id"]:
                self.pending = None
        elif kind == "error":
            if self.pending is not None and msg.get("id") == self.pending[0]:
                self.pending = None
            self.errors.append(msg["message"])
        elif kind == "service":
            self.services.append((msg["service"], msg["ok"]))
            self.service_times.append(time.monotonic())
        elif kind == "synced" and self.pending is not None:
            self.fresh = False

    def __repr__(self) -> str:
        last = self.last or {}
        view = last.get("view") or {}
        return (f"<{self.name} on {self.proc.port if self.proc else None} v{self.version} pending={self.pending} "
                f"status={(last.get('table') or {}).get('status')} to_move={view.get('to_move')} "
                f"seat={view.get('seat')} legal={bool(view.get('legal'))} acked={len(self.acked)} "
                f"reconnects={self.reconnects} errors={self.errors[-3:]}>")

    def online(self, seat: int) -> bool | None:
        """Whether the person in ``seat`` is online, as this person was last told."""
        return next((s.get("online") for s in self.table.get("seats", ()) if s["seat"] == seat), None)

    def deal_over(self) -> bool:
        return self.last is not None and self.last["table"]["status"] in ("deal_over", "match_over")

    async def _act(self) -> None:
        last = self.last
        if last is None or self.pending is not None:
            return
        if self.host and self.deal_over() and self.asked_next < self.version:
            self.asked_next = self.version
            over = self.last is not None and self.last["table"]["status"] == "match_over"
            await self.send({"type": "rematch" if over else "next"})
            return
        view = last.get("view")
        if view is None or not view.get("legal") or last["version"] != self.version:
            return
        self.moves += 1
        self.pending = (f"{self.name}-{self.moves}", view["legal"][0])
        await self.send({"type": "move", "move": self.pending[1], "id": self.pending[0]})

    async def run(self, stop: asyncio.Event, elsewhere: Any) -> None:
        """Play until ``stop``; when the connection drops, ``elsewhere(dead)`` names the live process to go to."""
        while not stop.is_set():
            assert self.ws is not None
            try:
                try:
                    text = await asyncio.wait_for(self.ws.recv(), 0.5)
                except TimeoutError:
                    continue
                self._take(json.loads(text))
                await self._act()
            except ConnectionClosed:
                self.reconnects += 1
                await self._reconnect(elsewhere)

    async def _reconnect(self, elsewhere: Any) -> None:
        for _ in range(100):
            try:
                await self.connect(elsewhere(self.proc))
                self.asked_next = 0     # a "next" sent to the dead process may be lost with it: ask again, as a
                #                         page that reconnects shows the button again
                if self.pending is not None:        # the same id: applied at most once
                    await self.send({"type": "move", "move": self.pending[1], "id": self.pending[0]})
                return
            except (OSError, ConnectionClosed):
                await asyncio.sleep(0.2)
        raise AssertionError(f"{self.name} found no process to reconnect to")


class Player(Person):
    """A :class:`Person` who, like someone at a page, tries again after a refusal or an outage: half a second
    after an error, asks for the next deal again, and sends a move still unanswered after 3 s again (the same
    id: applied at most once)."""

    calm_until = 0.0
    sent_at = 0.0

    def _take(self, msg: dict[str, Any]) -> None:
        super()._take(msg)
        if msg["type"] in ("error", "service"):
            self.asked_next = 0
            self.calm_until = time.monotonic() + 0.5

    async def _act(self) -> None:
        now = time.monotonic()
        if now < self.calm_until:
            return
        if self.pending is not None:
            if now - self.sent_at > 3:
                self.sent_at = now
                await self.send({"type": "move", "move": self.pending[1], "id": self.pending[0]})
            return
        await super()._act()
        if self.pending is not None:
            self.sent_at = now

    async def run(self, stop: asyncio.Event, elsewhere: Any) -> None:
        while not stop.is_set():
            assert self.ws is not None
            try:
                with contextlib.suppress(TimeoutError):
                    self._take(json.loads(await asyncio.wait_for(self.ws.recv(), 0.5)))
                await self._act()
            except ConnectionClosed:    # closed (1013 while the database was away, say): come back
                self.reconnects += 1
                await self._reconnect(elsewhere)


def check_log(cluster: pg.Cluster, dbname: str, code: str, people: list[Person]) -> int:
    """The table's log runs 1..N; every move a person was told was stored is in it, at that version; its N."""
    log = logged_events(cluster, dbname, code)
    assert [v for v, _ in log] == list(range(1, len(log) + 1)), f"table {code}: the log has a gap"
    at = {e["id"]: v for v, e in log if e.get("kind") == "move" and "id" in e}
    for person in people:
        for move_id, version in person.acked.items():
            assert at.get(move_id) == version, f"table {code}: acknowledged move {move_id} (v{version}) lost"
    return len(log)


async def until(cond: Callable[[], bool], seconds: float, what: str, *show: object) -> float:
    """Wait for ``cond``; the seconds it took."""
    began = time.monotonic()
    while not cond():
        if time.monotonic() - began > seconds:
            raise AssertionError(f"timed out after {seconds} s waiting for {what}: {show}")
        await asyncio.sleep(0.05)
    return time.monotonic() - began


def busy_tables(procs: list[Proc], tables: int) -> list[Player]:
    """``tables`` tables of 56-4 with computer players and a person each, made (so written) on each process in
    turn; the people are connected by :func:`outages` to both processes, at tables written on both."""
    people = []
    for i in range(tables):
        token = new_player(procs[i % 2], f"P{i}")
        code = new_table(procs[i % 2], token, preset="56-4", fill="random")
        people.append(Player(f"P{i}", token, code, host=True))
    return people


async def outages(people: list[Player], procs: list[Proc], rounds: int, seconds: float,
                  take_down: Callable[[], None], bring_back: Callable[[], None],
                  meanwhile: Callable[[], Any] | None = None) -> list[float]:
    """People play while a service is taken down for ``seconds`` and brought back, ``rounds`` times (each round
    once every table has played on); ``meanwhile`` (awaited 1.5 s into each outage) looks around.  Returns the
    seconds after each return by which the last table had played on."""
    back_times: list[float] = []
    for i, person in enumerate(people):
        await person.connect(procs[(i // 2) % 2])
    stop = asyncio.Event()
    runs = [asyncio.create_task(p.run(stop, lambda dead: dead)) for p in people]
    try:
        for person in people:
            await person.send({"type": "start"})
        for _ in range(rounds):
            seen = [p.version for p in people]
            await until(lambda s=seen: all(p.version >= v + 3 for p, v in zip(people, s, strict=True)), 60,
                        "every table playing before the outage", people)
            take_down()
            down = time.monotonic()
            try:
                if meanwhile is not None:
                    await asyncio.sleep(1.5)
                    await meanwhile()
                await asyncio.sleep(max(0.0, seconds - (time.monotonic() - down)))
            finally:
                bring_back()
            seen = [p.version for p in people]
            took = await asyncio.gather(*(until(lambda p=p, v=v: p.version >= v + 3, 60, f"{p.code} again", p)
                                          for p, v in zip(people, seen, strict=True)))
            back_times.append(max(took))
    finally:
        stop.set()
        await asyncio.gather(*runs, return_exceptions=True)
        for person in people:
            await person.close()
    return back_times

"""A long night at one table: memory, messages and reconnects that stay flat (issue 19).

A table of fast bots (in-process, bot delay 0) plays a hundred deals while a spectator watches; then:
event messages at deal 100 are no bigger than at deal 2, the table's history of events and its finished
deals in memory stay bounded, a reconnect within the history gets exactly the missed events for that
viewer (checked against a replay of the database's log) and one from further back gets a full state;
an idle table leaves memory and comes back identical; a restart loads no lobby table until asked;
an unused lobby table expires; a failed write leaves the table as the database holds it.  On SQLite and
PostgreSQL (the ``db`` fixture of ``test_server.py``), the hundred deals on SQLite.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import statistics
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from sqlalchemy import text  # noqa: E402

from fiftysix.server.state.events import decode  # noqa: E402
from fiftysix.server.state.table import MATCH_OVER, PLAYING, RECENT_DEALS, TableError, replay  # noqa: E402
from fiftysix.server.storage.db import Database  # noqa: E402
from fiftysix.server.table.history import History  # noqa: E402
from fiftysix.server.table.hub import Hub  # noqa: E402
from fiftysix.server.table.live import Connection, LiveTable, Timing  # noqa: E402
from fiftysix.server.table.messages import seat_view  # noqa: E402
from fiftysix.server.table.protocol import handle_message  # noqa: E402
from helpers.server import client  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

LIMIT = 60          # the history's limit in these tests: a deal of 56-4 has about 40 events
DEALS = 100


def timing(**more: Any) -> Timing:
    return Timing(**{"bot_delay": 0, "next_delay": 0, "replay_limit": LIMIT, **more})


def drain(conn: Connection) -> list[dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        msg = conn.queue.get_nowait()
        if msg is not None:
            out.append(msg)
    return out


def size(msg: dict[str, Any]) -> int:
    return len(json.dumps(msg, separators=(",", ":")))


async def bots_table(hub: Hub, preset: str = "56-4") -> LiveTable:
    """A table whose host sits in seat 0 but is away (a bot covers at once) and bots in the others."""
    table = await hub.create("p-asha", "Asha", {"preset": preset, "fill": "random", "grace": 0,
                                                "public": True,     # anonymous watchers are let in
                                                "options": {"tables": 999} if preset.startswith("56") else {}})
    await table.submit(decode({"kind": "start", "player": "p-asha", "seed": 7, "dealer": 0}))
    return table


async def play_deals(table: LiveTable, watcher: Connection, deals: int,
                     seen: list[dict[str, Any]]) -> dict[int, list[int]]:
    """Let the bots play until ``deals`` deals are over; the watcher's event sizes by deal number."""
    sizes: dict[int, list[int]] = {}
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        await asyncio.sleep(0.002)
        for msg in drain(watcher):
            seen.append(msg)
            del seen[:-3 * LIMIT]
            if msg["type"] == "event":
                sizes.setdefault(msg["table"]["deals_count"] + 1, []).append(size(msg))
        assert len(table.history.events) <= 2 * LIMIT
        assert len(table.state.recent_deals) <= RECENT_DEALS and not table.state.match.results
        if table.state.deals_count >= deals and table.state.status != PLAYING:
            return sizes
    raise AssertionError(f"only {table.state.deals_count} deals were played")


def test_a_hundred_deals_keep_messages_and_memory_flat_and_reconnects_exact(tmp_path: Path) -> None:
    """On SQLite only: some 5,000 events are written one by one (a minute on PostgreSQL too); the database
    matters in the other tests, which run on both."""
    url = f"sqlite+aiosqlite:///{tmp_path / 't.db'}"

    async def run() -> tuple[str, int]:
        database = Database(url)
        await database.migrate()
        hub = Hub(database, timing())
        table = await bots_table(hub)
        watcher = Connection(None, limit=10**6)
        await table.connect(watcher, None)
        seen: list[dict[str, Any]] = []
        sizes = await play_deals(table, watcher, DEALS, seen)
        # event messages do not grow with the table's age: ten deals' mean and largest, early and late (one
        # deal's mean moves some 7% with its cards and calls; ten deals' by about a third of that)
        early = [n for deal in range(2, 12) for n in sizes[deal]]
        late = [n for deal in range(DEALS - 9, DEALS + 1) for n in sizes[deal]]
        assert statistics.fmean(late) <= statistics.fmean(early) * 1.1 + 64, (statistics.fmean(early),
                                                                               statistics.fmean(late))
        assert max(late) <= max(early) * 1.1 + 64
        assert table.state.deals_count >= DEALS and len(table.state.recent_deals) == RECENT_DEALS

        # a reconnect within the history (the table plays on): exactly the missed events, as the watcher
        # saw them
        since = table.state.version - LIMIT // 2
        again = Connection(None)
        assert await table.connect(again, since)
        got = drain(again)
        synced = next(m for m in got if m["type"] == "synced")["version"]
        replayed = got[:next(i for i, m in enumerate(got) if m["type"] == "synced")]
        assert [m["version"] for m in replayed] == list(range(since + 1, synced + 1))
        seen += drain(watcher)
        live = {m["version"]: m for m in seen if m["type"] == "event"}
        assert all(m == live[m["version"]] for m in replayed)
        table.disconnect(again)
        # ... and for the seated host: each event as seat 0 saw it, checked against the database's log (the
        # host is back, so the table stops at the host's turn or at the deal's end)
        since = table.state.version - LIMIT // 2
        host = Connection("p-asha")
        assert await table.connect(host, since)
        got = drain(host)
        synced = next(m for m in got if m["type"] == "synced")["version"]
        events = [m for m in got if m["type"] == "event" and m["version"] <= synced]
        assert [m["version"] for m in events] == list(range(since + 1, synced + 1))
        await asyncio.sleep(0.2)
        log = await database.events_of(table.code)
        past = replay(table.code, log[:since])
        for m in events:
            past.apply(log[m["version"] - 1])
            assert m["view"] == seat_view(past, "p-asha") and m["you"]["seat"] == 0
            assert m["event"]["kind"] == log[m["version"] - 1]["kind"]
        # from further back than the history holds: one full state, the table as it is
        log = await database.events_of(table.code)
        assert len(log) == table.state.version and len(log) > 30 * DEALS
        whole = replay(table.code, log)
        assert whole.deals_count == table.state.deals_count
        for old in (1, table.state.version - 3 * LIMIT):
            late_conn = Connection("p-asha")
            assert await table.connect(late_conn, old)
            first, *rest = drain(late_conn)
            assert first["type"] == "state" and first["version"] == table.state.version
            assert first["view"] == seat_view(whole, "p-asha")
            assert [d["number"] for d in first["deals"]] == list(range(table.state.deals_count - RECENT_DEALS + 1,
                                                                       table.state.deals_count + 1))
            assert all(m["type"] == "presence" for m in rest)
            table.disconnect(late_conn)
        code, version = table.code, table.state.version
        for conn in (watcher, host):
            table.disconnect(conn)
        await hub.stop()
        await database.close()
        return code, version

    code, version = asyncio.run(run())
    # older finished deals and whole matches come from the database, paged
    with client(url) as c:
        info = c.get(f"/api/tables/{code}").json()
        assert info["version"] >= version and len(info["deals"]) == RECENT_DEALS   # resumed: it plays on
        count = info["deals_count"]
        page = c.get(f"/api/tables/{code}/deals", params={"before": count - 19, "limit": 30}).json()
        assert [d["number"] for d in page["deals"]] == list(range(count - 20, count - 50, -1)) and page["more"]
        assert all(d["match"] == 1 and d["deal"] == d["number"] for d in page["deals"])
        last = c.get(f"/api/tables/{code}/deals", params={"before": 3}).json()
        assert [d["number"] for d in last["deals"]] == [2, 1] and last["more"] is False
        assert c.get(f"/api/tables/{code}/deals", params={"limit": 0}).status_code == 400
        assert c.get(f"/api/tables/{code}/deals", params={"before": "x"}).status_code == 400
        whole = c.get(f"/api/tables/{code}/matches/1.json").json()
        assert len(whole["deals"]) >= count             # the resumed table plays on: maybe a deal more by now
        assert whole["deals"][4] == c.get(f"/api/tables/{code}/deals/5.json").json()


def test_an_idle_table_leaves_memory_and_comes_back_identical(db: str) -> None:  # noqa: F811
    async def run() -> None:
        database = Database(db)
        await database.migrate()
        hub = Hub(database, timing(idle_unload=60))
        table = await bots_table(hub, "55")
        watcher = Connection(None, limit=10**6)
        await table.connect(watcher, None)
        await play_deals(table, watcher, 3, [])
        table.disconnect(watcher)
        for _ in range(2000):
            if table.state.status != PLAYING and table.idle_for(10**10) > 0:
                break
            await asyncio.sleep(0.001)
        before = table.state
        # no one there: the deal in progress was played out, and then the table pauses (no night of bots)
        paused_at = before.version
        await asyncio.sleep(0.3)
        assert table.state.version == paused_at and table.state.status != PLAYING
        views = [seat_view(before, p) for p in ("p-asha", None)]
        assert await hub.sweep(now=table.last_active + 10) == (0, 0)     # not idle long enough yet
        assert table.code in hub.tables
        assert (await hub.sweep(now=table.last_active + 61))[0] == 1
        assert table.code not in hub.tables and table.closed
        assert not await table.connect(Connection(None), None)     # a stale handle refuses: ask the hub
        back = await hub.get(table.code)
        assert back is not None and back is not table
        after = back.state
        for name in ("version", "status", "deals_count", "match_no", "match_starts", "players", "seats", "name"):
            assert getattr(after, name) == getattr(before, name), name
        assert list(after.recent_deals) == list(before.recent_deals)
        assert after.match.standings == before.match.standings and after.match.dealer == before.match.dealer
        assert [seat_view(after, p) for p in ("p-asha", None)] == views
        # a reconnect with a version from before the unload still gets exactly the missed events
        conn = Connection("p-asha")
        assert await back.connect(conn, after.version - 5)
        got = drain(conn)
        assert [m["version"] for m in got if m["type"] == "event"] == list(range(after.version - 4,
                                                                                 after.version + 1))
        await hub.stop()
        await database.close()

    asyncio.run(run())


def test_a_restart_loads_only_tables_in_play_and_lobbies_expire(db: str) -> None:  # noqa: F811
    async def run() -> None:
        database = Database(db)
        await database.migrate()
        hub = Hub(database, timing(bot_delay=3600))      # the table in play waits: its bots are slow
        lobbies = [(await hub.create(f"p{i}", "Asha", {"preset": "56-4", "fill": "random"})).code
                   for i in range(5)]
        playing = await bots_table(hub)
        await hub.stop()
        await database.close()

        database = Database(db)
        await database.migrate()
        # still slow bots: the table stays in play (fast random bots could end its match, and an idle table
        # with nothing to do would be unloaded by the sweep)
        hub = Hub(database, timing(lobby_expiry=3600, bot_delay=3600))
        assert await hub.resume_all() == 1
        assert set(hub.tables) == {playing.code}
        assert hub.tables[playing.code].state.version == playing.state.version
        first = await hub.get(lobbies[0])                 # loaded when asked for
        assert first is not None and set(hub.tables) == {playing.code, lobbies[0]}
        # a lobby table nobody used for longer than the expiry is closed (one in memory is left alone)
        now = first.last_active + 3601
        await database.touch({lobbies[1]: now - 10, lobbies[2]: 0})   # used lately; an older time changes nothing
        unloaded, expired = await hub.sweep(now=now)
        assert expired == 3 and unloaded == 0
        assert [await hub.get(code) is None for code in lobbies[1:]] == [False, True, True, True]
        assert await hub.get(lobbies[0]) is first
        await hub.stop()
        await database.close()

    asyncio.run(run())


def test_after_a_failed_write_the_table_is_what_the_database_holds(db: str) -> None:  # noqa: F811
    async def run() -> None:
        database = Database(db)
        await database.migrate()
        hub = Hub(database, timing(bot_delay=3600))
        table = await hub.create("p-asha", "Asha", {"preset": "56-4", "fill": "random", "grace": 3600})
        conn = Connection("p-asha")
        await table.connect(conn, None)
        await handle_message(table, conn, {"type": "start"})
        for _ in range(3 * LIMIT):      # play on (for the bots too) so the rebuild starts from a later base
            if table.state.status == PLAYING:
                legal = [str(m) for m in table.state.deal.legal_moves()]
                await table.submit(decode({"kind": "move", "seat": table.state.to_move_table_seat(), "move": legal[0],
                                    "by": "test"}))
            else:
                await table.submit(decode({"kind": "next", "player": "p-asha", "seed": 1}))
        while table.state.status != PLAYING:
            await table.submit(decode({"kind": "next", "player": "p-asha", "seed": 1}))
        assert table.history.base.version > 1
        before = table.state.version
        view = seat_view(table.state, "p-asha")
        stmt = (f"CREATE TRIGGER refuse BEFORE INSERT ON events WHEN NEW.version = {before + 1} "
                "BEGIN SELECT RAISE(ABORT, 'refused'); END" if db.startswith("sqlite") else None)
        async with database.engine.begin() as c:
            if stmt is not None:
                await c.execute(text(stmt))
            else:
                await c.execute(text("CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN "
                                     f"IF NEW.version = {before + 1} THEN RAISE EXCEPTION 'refused'; END IF; "
                                     "RETURN NEW; END $$ LANGUAGE plpgsql"))
                await c.execute(text("CREATE TRIGGER refuse BEFORE INSERT ON events FOR EACH ROW "
                                     "EXECUTE FUNCTION refuse()"))
        legal = view["legal"] if view["legal"] else None
        seat = table.state.to_move_table_seat()
        move = legal[0] if legal else [str(m) for m in table.state.deal.legal_moves()][0]
        with pytest.raises(TableError, match="could not save"):
            await table.submit(decode({"kind": "move", "seat": seat, "move": move, "by": "player"}))
        assert table.state.version == before and seat_view(table.state, "p-asha") == view
        assert len(table.state.deal.history) == len(replay(table.code, await database.events_of(table.code))
                                                    .deal.history)
        async with database.engine.begin() as c:
            await c.execute(text("DROP TRIGGER refuse" if stmt is not None else "DROP TRIGGER refuse ON events"))
        await table.submit(decode({"kind": "move", "seat": seat, "move": move, "by": "player"}))
        assert table.state.version == before + 1
        assert replay(table.code, await database.events_of(table.code)).version == before + 1
        await hub.stop()
        await database.close()

    asyncio.run(run())


def test_history_replays_exactly_like_the_log() -> None:
    """Property: for random table lives, every version the history covers replays to the same states
    (public facts and each seat's view) as a replay of the whole log."""
    import random

    from fiftysix.server.state.table import TableState

    for seed in range(6):
        rng = random.Random(seed)
        limit = rng.randint(3, 25)
        state = TableState("T")
        log: list[dict[str, Any]] = []
        history = History(TableState("T"), [], limit)

        def commit(e: dict[str, Any], log: list[dict[str, Any]] = log, history: History = history,
                   state: TableState = state) -> None:
            stored = state.apply(e)
            log.append(stored)
            history.append(stored)

        game = "56" if seed % 2 else "55"
        rules = {"preset": "56-4", "tables": 1} if seed % 2 else {"preset": "55"}
        commit({"kind": "create", "game": game, "rules": rules, "name": "n", "host": "h",
                "host_name": "H", "fill": "random", "grace": 60})
        commit({"kind": "start", "player": "h", "seed": seed, "dealer": 0})
        for _ in range(rng.randint(50, 400)):
            if state.status == MATCH_OVER:
                commit({"kind": "rematch", "player": "h", "seed": rng.randrange(1 << 30), "dealer": 1})
                continue
            if state.status != PLAYING:
                commit({"kind": "next", "seed": rng.randrange(1 << 30)})
                continue
            legal = [str(m) for m in state.deal.legal_moves()]
            commit({"kind": "move", "seat": state.to_move_table_seat(), "move": rng.choice(legal), "by": "r"})
            assert limit <= len(history.events) <= 2 * limit or len(log) <= 2 * limit
        assert history.version == state.version == len(log)
        since = rng.randint(history.version - limit, history.version)
        assert history.covers(since) and not history.covers(history.version - limit - 1)
        for past, e in history.replay_since(since):
            whole = replay("T", log[:past.version])
            assert e == log[past.version - 1]
            assert [seat_view(past, p) for p in ("h", None)] == [seat_view(whole, p) for p in ("h", None)]
            assert past.deals_count == whole.deals_count and past.match.standings == whole.match.standings
            assert past.match_starts == whole.match_starts and list(past.recent_deals) == list(whole.recent_deals)
        assert state.match_no > 1 or not seed % 2    # rematches happened (match_starts are exercised)
        rebuilt = history.rebuild()
        assert rebuilt.version == state.version and seat_view(rebuilt, "h") == seat_view(state, "h")


def test_a_client_that_never_reads_is_dropped_and_its_queue_stays_bounded(tmp_path: Path) -> None:
    """A real uvicorn server on 127.0.0.1; a raw websocket client (a small receive buffer) says hello,
    then sends pings and never reads while the bots play fast.  The server's queue for it never holds more
    than the limit, it is dropped with the reason, the table plays on, and a new connection gets a state."""
    import base64
    import os
    import socket

    import uvicorn
    from websockets.asyncio.client import connect

    from helpers.server import make_app

    limit = 32

    def frame(payload: dict[str, Any]) -> bytes:   # a masked client text frame (payloads < 126 bytes)
        data = json.dumps(payload).encode()
        mask = os.urandom(4)
        return bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))

    async def run() -> None:
        app = make_app(tmp_path / "t.db", send_queue=limit)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        serving = asyncio.create_task(server.serve())
        for _ in range(300):
            if server.started:
                break
            await asyncio.sleep(0.05)
        assert server.started
        hub = app.state.server.hub
        table = await bots_table(hub)
        loop = asyncio.get_running_loop()
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        await loop.sock_connect(sock, ("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        await loop.sock_sendall(sock, (f"GET /ws/{table.code} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                                       "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                                       f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        await asyncio.sleep(0.2)
        await loop.sock_sendall(sock, frame({"type": "hello"}))
        slow = None
        longest = 0
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            await asyncio.sleep(0.01)
            if slow is None:
                slow = next(iter(table.conns), None)
                continue
            longest = max(longest, slow.queue.qsize())
            if slow.dropped is not None:
                break
            with contextlib.suppress(BlockingIOError):     # the client sends, and never reads
                sock.send(frame({"type": "ping"}))
        assert slow is not None and slow.dropped is not None, "the client was never dropped"
        assert longest <= limit and slow.queue.qsize() <= 1
        assert "too slow" in slow.dropped and slow not in table.conns
        version = table.state.version
        async with connect(f"ws://127.0.0.1:{port}/ws/{table.code}") as ws:
            await ws.send(json.dumps({"type": "hello", "version": 1}))
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert first["type"] == "state" and first["version"] >= version
        assert table.state.version > version       # the table played on
        sock.close()
        server.should_exit = True
        await asyncio.wait_for(serving, 30)

    asyncio.run(run())


def test_deal_pages_and_match_records_across_rematches(db: str) -> None:  # noqa: F811
    """Deals are numbered over the table's life; each page names its match and deal in the match, and a
    whole match's record is its range of deals, read from the database."""
    from fiftysix import check
    from helpers.server import create, hello, is_snapshot, player, receive_until

    with client(db) as c:
        asha = player(c, "Asha")
        code = create(c, asha, preset="56-4", fill="random", options={"tables": 1})
        with c.websocket_connect(f"/ws/{code}") as ws:
            hello(ws, asha)
            ws.send_json({"type": "stand"})
            ws.send_json({"type": "start"})
            for _ in range(2):      # two matches played out by the bots (the host watches)
                receive_until(ws, lambda m: is_snapshot(m) and m["table"]["status"] == "match_over", 100_000)
                ws.send_json({"type": "rematch"})
                receive_until(ws, lambda m: is_snapshot(m) and m["table"]["status"] == "playing")
            ws.send_json({"type": "state"})
            state = receive_until(ws, lambda m: m["type"] == "state")
        count = state["table"]["deals_count"]
        assert state["table"]["matches"] >= 2 and count >= 2     # (the third match may have a deal too)
        pages: list[dict[str, Any]] = []
        before = count + 1
        for _ in range(count):
            page = c.get(f"/api/tables/{code}/deals", params={"limit": 3, "before": before}).json()
            pages += page["deals"]
            if not page["more"]:
                break
            before = page["deals"][-1]["number"]
        assert [d["number"] for d in pages] == list(range(count, 0, -1))
        assert [d["number"] for d in state["deals"]] == list(range(max(1, count - RECENT_DEALS + 1), count + 1))
        assert pages[: len(state["deals"])][::-1] == state["deals"]
        by_match = {m: sorted(d["deal"] for d in pages if d["match"] == m) for m in (1, 2)}
        assert all(v == list(range(1, len(v) + 1)) and v for v in by_match.values())
        for m in (1, 2):
            whole = c.get(f"/api/tables/{code}/matches/{m}.json").json()
            assert len(whole["deals"]) == len(by_match[m]) and check(whole)["valid"] is True
        # a match with no finished deal has no record (the third may have one by now: the bots play on)
        assert c.get(f"/api/tables/{code}/matches/99.json").status_code == 404

"""Websocket flows through Starlette's test client: create, join, a whole deal, reconnect with a version,
bot takeover and reclaim, restart and resume, spectators, and bad input.

Every flow runs twice: on SQLite (a file in the test's temporary directory) and on PostgreSQL (a fresh
database in a throwaway cluster started once per session by :mod:`pg`; skipped only when no PostgreSQL
binaries are installed)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

from fiftysix import check
from helpers.server import (
    client,
    create,
    hello,
    is_snapshot,
    keyed,
    my_turn,
    player,
    receive,
    receive_until,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

def play_until(ws: Any, stop: Any, limit: int = 5000) -> dict[str, Any]:
    """Play the first legal move whenever it is our turn, until ``stop(msg)``.

    A client of the server's own kind: a move refused as too fast (random bots at no delay can bring a turn
    every few milliseconds) is sent again after a pause, as the refusal asks; a silence fails naming the last
    messages read."""
    seen: list[str] = []
    last_move: dict[str, Any] | None = None
    for _ in range(limit):
        try:
            msg = receive(ws)
        except AssertionError as e:
            raise AssertionError(f"{e}; the last messages were {seen[-8:]}") from None
        if stop(msg):
            return msg
        seen.append(json.dumps(msg)[:200])
        if msg["type"] == "error" and str(msg.get("message", "")).startswith("too many messages"):
            assert last_move is not None, f"a refusal with no move sent: {seen[-8:]}"
            time.sleep(0.5)     # 20 a second on average: the bucket has room again
            ws.send_json(last_move)
        elif my_turn(msg):
            last_move = {"type": "move", "move": msg["view"]["legal"][0]}
            ws.send_json(last_move)
    raise AssertionError(f"never stopped; the last messages were {seen[-8:]}")


def deal_over(msg: dict[str, Any]) -> bool:
    return is_snapshot(msg) and msg["table"]["status"] in ("deal_over", "match_over")


def settled(msg: dict[str, Any], people: tuple[int, ...]) -> bool:
    """A message after which a person must act: one of ``people`` is to move, or the deal is over."""
    return is_snapshot(msg) and msg["view"] is not None and (msg["view"]["to_move"] in people or deal_over(msg))


def until_turn_of(me: Any, seat: int, other: Any, other_seat: int, now: dict[str, Any]) -> dict[str, Any]:
    """From ``now`` (the last message ``me`` read), the other person plays their turns until it is
    ``seat``'s turn or the deal is over; returns what ``me`` then sees."""
    m = now
    while not (deal_over(m) or m["view"]["to_move"] == seat):
        if m["view"]["to_move"] == other_seat:
            if m is now:   # what the other person sees now: ask for a full state
                other.send_json({"type": "state"})
                m = receive_until(other, lambda x: x["type"] == "state")
            other.send_json({"type": "move", "move": m["view"]["legal"][0]})
        m = receive_until(other, lambda x, v=m["version"]: settled(x, (seat, other_seat)) and x["version"] > v)
    if m is now:
        return now
    return receive_until(me, lambda x, v=m["version"]: is_snapshot(x) and x["version"] >= v)


def test_create_join_and_play_a_whole_deal_with_bots(db: str) -> None:
    with client(db) as c:
        token = player(c, "Asha")
        code = create(c, token, preset="56-4", fill="random")
        assert c.get(keyed(f"/t/{code}")).status_code == 200
        info = c.get(keyed(f"/api/tables/{code}")).json()
        assert info["seats"][0]["name"] == "Asha" and info["status"] == "lobby"
        with c.websocket_connect(keyed(f"/ws/{code}")) as ws:
            first = hello(ws, token)
            assert first["you"]["seat"] == 0 and first["you"]["host"] and first["view"] is None
            ws.send_json({"type": "start"})
            end = play_until(ws, deal_over)
        assert end["view"]["phase"] == "over" and end["view"]["result"]["complete"]
        assert end["table"]["match"]["deal_number"] == 1
        assert end["table"]["deals_count"] == 1 and end["table"]["last_deal"]["number"] == 1
        assert [d["number"] for d in c.get(keyed(f"/api/tables/{code}")).json()["deals"]] == [1]
        record = c.get(keyed(f"/api/tables/{code}/deals/1.json"))
        assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
        assert check(record.json())["valid"] is True
        assert c.get(keyed(f"/api/tables/{code}/deals/2.json")).status_code == 404
        whole = c.get(keyed(f"/api/tables/{code}/matches/1.json"))
        assert whole.status_code == 200 and "match-1" in whole.headers["content-disposition"]
        assert whole.json()["deals"] == [record.json()]
        checked = check(whole.json())
        assert checked["valid"] is True and checked["standings"] == end["table"]["match"]["standings"]
        missing = c.get(keyed(f"/api/tables/{code}/matches/2.json"))
        assert missing.status_code == 404 and "no match 2" in missing.json()["error"]


def test_two_people_join_take_seats_and_play(db: str) -> None:
    with client(db) as c:
        asha, ben = player(c, "Asha"), player(c, "Ben")
        code = create(c, asha, preset="56-4", fill="random", name="Friday game", options={"tables": 500})
        with c.websocket_connect(keyed(f"/ws/{code}")) as wa, c.websocket_connect(keyed(f"/ws/{code}")) as wb:
            hello(wa, asha)
            state = hello(wb, ben)
            assert state["you"]["joined"] is False and state["table"]["name"] == "Friday game"
            wb.send_json({"type": "join", "name": "Ben"})
            wb.send_json({"type": "sit", "seat": 2})
            msg = receive_until(wb, lambda m: is_snapshot(m) and m["you"]["seat"] == 2)
            assert msg["table"]["seats"][2]["name"] == "Ben"
            wb.send_json({"type": "start"})
            err = receive_until(wb, lambda m: m["type"] == "error")
            assert "only the host" in err["message"]
            wa.send_json({"type": "swap", "a": 2, "b": 3})
            receive_until(wb, lambda m: is_snapshot(m) and m["you"]["seat"] == 3)
            wa.send_json({"type": "start"})
            # both play whatever is legal; the bots play the other seats
            latest = 0
            while True:
                ma = receive_until(wa, lambda m, v=latest: settled(m, (0, 3)) and m["version"] >= v)
                latest = ma["version"]
                if deal_over(ma):
                    break
                ws = wa
                if ma["view"]["to_move"] == 3:
                    ws = wb
                    ma = receive_until(wb, lambda m, v=latest: settled(m, (0, 3)) and m["version"] >= v)
                ws.send_json({"type": "move", "move": ma["view"]["legal"][-1]})
                latest += 1
            mb = receive_until(wb, lambda m, v=latest: deal_over(m) and m["version"] >= v)
            assert ma["version"] == mb["version"]
            assert ma["view"]["seat"] == 0 and mb["view"]["seat"] == 3
            wb.send_json({"type": "next"})
            nxt = receive_until(wa, lambda m: is_snapshot(m) and m["table"]["status"] == "playing")
            assert nxt["table"]["match"]["deal_number"] == 2


def test_reconnect_with_a_version_gets_exactly_the_missed_events(db: str) -> None:
    with client(db) as c:
        asha, ben = player(c, "Asha"), player(c, "Ben")
        code = create(c, asha, preset="56-4", fill="random")
        with c.websocket_connect(keyed(f"/ws/{code}")) as wa:
            hello(wa, asha)
            with c.websocket_connect(keyed(f"/ws/{code}")) as wb:
                hello(wb, ben)
                wb.send_json({"type": "join", "name": "Ben"})
                wb.send_json({"type": "sit", "seat": 1})
                receive_until(wb, lambda m: is_snapshot(m) and m["you"]["seat"] == 1)
                wa.send_json({"type": "start"})
                # Ben plays until it is not his turn, then goes away
                while True:
                    seen = receive_until(wb, lambda m: settled(m, (0, 1)))
                    if seen["view"]["to_move"] != 1:
                        break
                    wb.send_json({"type": "move", "move": seen["view"]["legal"][0]})
                last = seen["version"]
            # Ben is away; Asha and the bots go on until it is Ben's turn again (the bots wait for him)
            current = play_until(wa, lambda m: is_snapshot(m) and m["view"] is not None
                                 and m["view"]["to_move"] == 1 and m["version"] > last)
            with c.websocket_connect(keyed(f"/ws/{code}")) as wb:
                wb.send_json({"type": "hello", "token": ben, "version": last})
                got = []
                while True:
                    msg = wb.receive_json()
                    if msg["type"] == "synced":
                        break
                    if is_snapshot(msg):
                        got.append(msg)
                assert [m["version"] for m in got] == list(range(last + 1, current["version"] + 1))
                assert all(m["type"] == "event" for m in got)
                assert got[-1]["view"]["seat"] == 1
                assert got[-1]["view"]["auction"] == current["view"]["auction"]
                assert got[-1]["view"]["legal"]
                # a version from the future gets a full state instead
            with c.websocket_connect(keyed(f"/ws/{code}")) as wb:
                full = hello(wb, ben, version=10**6)
                assert full["type"] == "state" and full["version"] == current["version"]


def test_dropped_player_is_covered_by_a_bot_and_reclaims_the_seat(db: str) -> None:
    with client(db) as c:
        asha, ben = player(c, "Asha"), player(c, "Ben")
        code = create(c, asha, preset="56-4", fill="random", grace=0.2, options={"tables": 500})
        with c.websocket_connect(keyed(f"/ws/{code}")) as wb:
            hello(wb, ben)
            wb.send_json({"type": "join", "name": "Ben"})
            wb.send_json({"type": "sit", "seat": 1})
            receive_until(wb, lambda m: is_snapshot(m) and m["you"]["seat"] == 1)
            with c.websocket_connect(keyed(f"/ws/{code}")) as wa:
                hello(wa, asha)
                wa.send_json({"type": "start"})
                receive_until(wa, lambda m: is_snapshot(m) and m["table"]["status"] == "playing")
            # Asha dropped: after the grace period a bot plays her seat 0
            covered = play_until(wb, lambda m: m["type"] in ("presence", "event")
                                 and m["table"]["seats"][0].get("covered"))
            assert covered["table"]["seats"][0]["online"] is False
            moved = play_until(wb, lambda m: m["type"] == "event" and m["event"]["kind"] == "move"
                               and m["event"]["seat"] == 0)
            assert moved["view"]["hand_sizes"] is not None
            with c.websocket_connect(keyed(f"/ws/{code}")) as wa:
                state = hello(wa, asha)
                assert state["you"]["seat"] == 0
                back = play_until(wb, lambda m: m["type"] == "presence" and m["table"]["seats"][0]["online"])
                assert back["table"]["seats"][0]["covered"] is False
                # her turn comes back to her: she gets legal moves again, and her move is taken
                turn = until_turn_of(wa, 0, wb, 1, state)
                if my_turn(turn):
                    wa.send_json({"type": "move", "move": turn["view"]["legal"][0]})
                    after = receive_until(wa, lambda m: m["type"] in ("event", "error"))
                    assert after["type"] == "event" and after["event"]["seat"] == 0


def test_restart_resumes_every_table_where_it_was(db: str) -> None:
    with client(db, bot_delay=0.05) as c:
        asha = player(c, "Asha")
        code = create(c, asha, preset="56-6", fill="random")
        bots_only = create(c, asha, preset="56-4", fill="random")
        with c.websocket_connect(keyed(f"/ws/{code}")) as wa:
            hello(wa, asha)
            wa.send_json({"type": "start"})
            before = play_until(wa, lambda m: my_turn(m) and len(m["view"]["tricks"]) >= 2)
        with c.websocket_connect(keyed(f"/ws/{bots_only}")) as wx:
            hello(wx, asha)
            wx.send_json({"type": "stand"})
            wx.send_json({"type": "start"})
            receive_until(wx, lambda m: is_snapshot(m) and m["table"]["status"] == "playing")
        stopped_at = c.get(keyed(f"/api/tables/{bots_only}")).json()["version"]
    with client(db) as c:
        with c.websocket_connect(keyed(f"/ws/{code}")) as wa:
            after = hello(wa, asha)
            assert after["version"] == before["version"]
            assert after["view"] == before["view"]
            wa.send_json({"type": "move", "move": after["view"]["legal"][0]})
            msg = receive_until(wa, lambda m: m["type"] in ("event", "error"))
            assert msg["type"] == "event" and msg["version"] == before["version"] + 1
        # the bots-only table went on by itself after the restart
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if c.get(keyed(f"/api/tables/{bots_only}")).json()["deals"]:
                break
            time.sleep(0.05)
        info = c.get(keyed(f"/api/tables/{bots_only}")).json()
        assert info["deals"] and info["version"] > stopped_at


def test_spectator_sees_public_information_only(db: str) -> None:
    with client(db) as c:
        asha = player(c, "Asha")
        code = create(c, asha, preset="56-hidden", fill="random")
        c.cookies.clear()
        with c.websocket_connect(keyed(f"/ws/{code}")) as wa, c.websocket_connect(keyed(f"/ws/{code}")) as ws:
            hello(wa, asha)
            watch = hello(ws)
            assert watch["you"]["player"] is None
            wa.send_json({"type": "start"})
            msg = receive_until(ws, lambda m: is_snapshot(m) and m["view"] is not None)
            assert msg["view"]["seat"] is None and msg["view"]["hand"] is None and "legal" not in msg["view"]
            ws.send_json({"type": "move", "move": "P"})
            err = receive_until(ws, lambda m: m["type"] == "error")
            assert "watching" in err["message"]
            ws.send_json({"type": "sit", "seat": 1})
            assert "watching" in receive_until(ws, lambda m: m["type"] == "error")["message"]


def test_bad_input_gets_an_error_and_changes_nothing(db: str) -> None:
    with client(db) as c:
        asha, ben, cy, dee, eve = (player(c, n) for n in ("Asha", "Ben", "Cy", "Dee", "Eve"))
        code = create(c, asha, preset="56-4", fill=None)
        with c.websocket_connect(keyed(f"/ws/{code}")) as wa:
            start = hello(wa, asha)
            version = start["version"]
            for tok, seat in ((ben, 1), (cy, 2), (dee, 3)):
                with c.websocket_connect(keyed(f"/ws/{code}")) as w:
                    hello(w, tok)
                    w.send_json({"type": "join", "name": "P"})
                    w.send_json({"type": "sit", "seat": seat})
                    receive_until(w, lambda m, s=seat: is_snapshot(m) and m["you"]["seat"] == s)
            version = receive_until(wa, lambda m: is_snapshot(m) and m["table"]["seats"][3]["kind"] == "player")
            version = version["version"]

            def refused(ws: Any, payload: Any, words: str, raw: bool = False) -> None:
                if raw:
                    ws.send_text(payload)
                else:
                    ws.send_json(payload)
                err = receive_until(ws, lambda m: m["type"] in ("error", "event"))
                assert err["type"] == "error", err
                assert words in err["message"], err["message"]
                ws.send_json({"type": "ping"})
                pong = receive_until(ws, lambda m: m["type"] in ("pong", "event"))
                assert pong == {"type": "pong", "version": version}

            with c.websocket_connect(keyed(f"/ws/{code}")) as we:
                hello(we, eve)
                we.send_json({"type": "join", "name": "Eve"})
                receive_until(we, lambda m: is_snapshot(m) and m["you"]["joined"])
                version += 1
                refused(we, {"type": "sit", "seat": 2}, "belongs to")               # a full table
                refused(we, {"type": "move", "move": "P"}, "no seat")
            receive_until(wa, lambda m: is_snapshot(m) and m["version"] >= version)
            refused(wa, "x" * 5000, "too long", raw=True)
            refused(wa, "{not json", "not JSON", raw=True)
            refused(wa, "[1, 2]", "JSON object", raw=True)
            refused(wa, {"type": "launch"}, "unknown message type")
            refused(wa, {"type": "move", "move": "P"}, "has not started")
            refused(wa, {"type": "sit", "seat": "zero"}, "seat must be a number")
            refused(wa, {"type": "join", "name": ""}, "choose a name")
            refused(wa, {"type": "join", "name": "x" * 40}, "at most 24")
            wa.send_json({"type": "start"})
            playing = receive_until(wa, lambda m: is_snapshot(m) and m["table"]["status"] == "playing")
            version = playing["version"]
            to_move = playing["view"]["to_move"]
            if to_move != 0:
                refused(wa, {"type": "move", "move": "P"}, "not your turn")
            else:
                refused(wa, {"type": "move", "move": "ZZZ"}, "")
            refused(wa, {"type": "move", "move": "P", "seat": 2}, "not yours")
            refused(wa, {"type": "move", "move": ""}, "non-empty")
            refused(wa, {"type": "move", "move": 7}, "non-empty")
            refused(wa, {"type": "start"}, "started already")
        # a forged token: told so, then treated as a spectator; the connection goes on
        with c.websocket_connect(keyed(f"/ws/{code}")) as wf:
            wf.send_json({"type": "hello", "token": asha[:-3] + "abc"})
            err = wf.receive_json()
            assert err["type"] == "error" and "not valid" in err["message"]
            state = receive_until(wf, is_snapshot)
            assert state["you"]["player"] is None and state["view"]["hand"] is None
            wf.send_json({"type": "move", "move": "P"})
            assert "watching" in receive_until(wf, lambda m: m["type"] == "error")["message"]
        assert c.get("/t/NOPE99").status_code == 404
        assert c.post("/api/tables", json={"token": asha, "preset": "57-6"}).json()["error"].startswith("unknown")
        bad = c.post("/api/tables", json={"token": asha, "preset": "56-4", "options": {"deck": 64}})
        assert bad.status_code == 400 and "deck" in bad.json()["error"]
        json_type = {"content-type": "application/json"}
        assert c.post("/api/player", content=b"not json", headers=json_type).status_code == 400
        assert c.post("/api/player", content=b"not json").status_code == 415     # not even said to be JSON


def test_a_move_after_the_deal_ended_is_refused(db: str) -> None:
    with client(db) as c:
        asha = player(c, "Asha")
        code = create(c, asha, preset="56-4", fill="random")
        with c.websocket_connect(keyed(f"/ws/{code}")) as wa:
            hello(wa, asha)
            wa.send_json({"type": "start"})
            end = play_until(wa, deal_over)
            wa.send_json({"type": "move", "move": "JS"})
            err = receive_until(wa, lambda m: m["type"] == "error")
            assert "over" in err["message"]
            wa.send_json({"type": "ping"})
            assert receive_until(wa, lambda m: m["type"] == "pong")["version"] == end["version"]


def test_a_55_table_plays_a_deal(db: str) -> None:
    with client(db) as c:
        asha = player(c, "Asha")
        code = create(c, asha, preset="55", fill="random", options={"discards": "closed"})
        with c.websocket_connect(keyed(f"/ws/{code}")) as wa:
            hello(wa, asha)
            wa.send_json({"type": "start"})
            end = play_until(wa, deal_over)
        assert end["table"]["game"] == "55"
        assert check(c.get(keyed(f"/api/tables/{code}/deals/1.json")).json())["valid"] is True


def test_explain_a_call_before_making_it(db: str) -> None:
    # deals without a call for Asha can follow each other in milliseconds (random bots, no delay); the
    # message limit (its own test is below) would refuse a person who answered that fast
    with client(db, message_rate=10**6, message_burst=10**6) as c:
        asha = player(c, "Asha")
        code = create(c, asha, preset="56-4", fill="random", options={"tables": 500})
        with c.websocket_connect(keyed(f"/ws/{code}")) as wa:
            hello(wa, asha)
            wa.send_json({"type": "start"})
            while True:
                msg = play_until(wa, lambda m: (my_turn(m) and m["view"]["phase"] == "auction"
                                                and any(x[0].isdigit() for x in m["view"]["legal"])) or deal_over(m))
                if not deal_over(msg):
                    break
                wa.send_json({"type": "next"})
            call = next(x for x in msg["view"]["legal"] if x[0].isdigit())
            wa.send_json({"type": "explain", "move": call})
            got = receive_until(wa, lambda m: m["type"] == "explained")
            assert got["move"] == call and got["meaning"] and got["meaning"].startswith(call[:2])
            wa.send_json({"type": "explain", "move": "JS"})
            other = receive_until(wa, lambda m: m["type"] in ("explained", "error"))
            assert other["type"] == "error" or other["meaning"] is None
            wa.send_json({"type": "ping"})
            assert receive_until(wa, lambda m: m["type"] == "pong")["version"] == msg["version"]


def test_the_migrations_build_the_schema_at_head(db: str) -> None:
    from alembic.script import ScriptDirectory
    from sqlalchemy import inspect, text

    from fiftysix.server.storage.db import MIGRATIONS, Database

    with client(db) as c:   # the server migrates on start
        player(c, "Asha")

    async def look() -> tuple[str, list[str]]:
        database = Database(db)
        try:
            await database.migrate()   # a second start finds nothing to do
            async with database.engine.connect() as conn:
                version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one()
                names = await conn.run_sync(lambda sync: sorted(inspect(sync).get_table_names()))
        finally:
            await database.close()
        return str(version), names

    version, names = asyncio.run(look())
    assert version == ScriptDirectory(str(MIGRATIONS)).get_current_head()
    history = ["deal_seats", "match_players", "matches", "ratings"]     # migration 0006 (server/matches)
    accounts = ["account_sessions", "accounts", "passkey_challenges", "passkeys", "signin_links"]     # 0007
    clubs = ["club_members", "club_tables", "clubs"]                     # migration 0008 (server/clubs)
    nights = ["club_event_makers", "club_event_tables", "club_event_teams", "club_events"]    # 0009-0011 (nights)
    peeks = ["peeks"]       # 0012: asks to see a hand (server/pages/peek_store.py)
    stats = ["person_forms", "person_partners", "person_stats"]      # 0014: each person's stats kept as sums
    daily = ["daily_sets", "daily_rated"]   # 0015: today's deals (server/daily); 0016: each day's set rated once
    assert names == sorted(["alembic_version", "deals", "events", "player_generations", "settings", "tables",
                            *history, *accounts, *clubs, *nights, *peeks, *stats, *daily])


def test_lookups_of_keys_no_row_can_have_are_not_found(db: str) -> None:
    """A NUL in a code or a deal number beyond 32 bits: not found (PostgreSQL would refuse the query)."""
    with client(db) as c:
        asha = player(c, "Asha")
        refused = c.post("/api/tables", json={"token": asha, "preset": "56-4", "name": "Tea\x00time"})
        assert refused.status_code == 400 and "U+0000" in refused.json()["error"]   # names are printable text
        code = create(c, asha, preset="56-4", fill="random", name="Tea time")
        assert c.get(keyed(f"/api/tables/{code}")).json()["name"] == "Tea time"

        assert c.get("/t/AB%00CD").status_code == 404
        assert c.get("/api/tables/AB%00CD").status_code == 404
        assert c.get("/api/tables/AB%00CD/deals/1.json").status_code == 404
        assert c.get(keyed(f"/api/tables/{code}/deals/{2**40}.json")).status_code == 404
        assert c.get(f"/api/tables/{'X' * 40}/deals/1.json").status_code == 404
        with c.websocket_connect("/ws/AB%00CD") as ws:
            assert ws.receive_json() == {"type": "error", "message": "no such table"}


def test_a_flood_of_messages_is_refused_and_the_connection_goes_on(db: str) -> None:
    with client(db, message_rate=2.0, message_burst=5) as c:
        asha = player(c, "Asha")
        code = create(c, asha, preset="56-4", fill="random")
        with c.websocket_connect(keyed(f"/ws/{code}")) as ws:
            version = hello(ws, asha)["version"]
            started = time.monotonic()
            for _ in range(12):
                ws.send_json({"type": "ping"})
            answers = [receive_until(ws, lambda m: m["type"] in ("error", "pong")) for _ in range(12)]
            # past the burst every message is answered, each refused one with a pause of one message's share
            # of the rate before the next is read: the flood waits in the client's buffers, not the server's
            refusals = [a for a in answers if a["type"] == "error"]
            assert len(refusals) >= 3 and all("too many messages" in a["message"] for a in refusals)
            assert time.monotonic() - started >= (len(refusals) - 1) * 0.5 * 0.9
            assert "at most 2 a second on average and 5 at once" in refusals[0]["message"]
            time.sleep(0.6)   # the bucket refills: one message is allowed again
            ws.send_json({"type": "start"})
            started = receive_until(ws, lambda m: m["type"] == "error" or is_snapshot(m) and m["view"] is not None)
            assert started["type"] != "error" and started["version"] > version


def test_rate_limit_refills_with_time() -> None:
    from fiftysix.server.edge.limits import Buckets

    now = [0.0]
    limit = Buckets(rate=4.0, burst=2, keep=1, clock=lambda: now[0])     # one connection's messages
    assert [limit.allow() for _ in range(3)] == [True, True, False]
    now[0] += 0.25
    assert [limit.allow() for _ in range(2)] == [True, False]
    now[0] += 100
    assert [limit.allow() for _ in range(3)] == [True, True, False]

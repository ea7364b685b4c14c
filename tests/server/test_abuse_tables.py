"""Issue 12 at the table: no seat hopping, private tables, failed lookups limited, quotas, join spam, move ids.

The seat rule is a property of the pure table state and the messages: random walks of join/sit/stand/bot/
offer/start/move/next/rematch by several people never show anyone a hand (or a hidden trump) of a seat
they did not hold when the deal started.  The flows that store something run on SQLite and PostgreSQL
(the ``db`` fixture of tests/server/conftest.py).
"""

from __future__ import annotations

import contextlib
import random
import time
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from sqlalchemy import event as sa_event  # noqa: E402

from fiftysix.core.cards import Card  # noqa: E402
from fiftysix.server import Settings, Timing, create_app  # noqa: E402
from fiftysix.server.edge.limits import Limits  # noqa: E402
from fiftysix.server.state.table import PLAYING, TableError, TableState, replay  # noqa: E402
from fiftysix.server.table.hub import creation_event  # noqa: E402
from fiftysix.server.table.messages import Presence, snapshot  # noqa: E402
from helpers.server import (  # noqa: E402
    KEYS,
    cards_in,
    client,
    create,
    hello,
    is_snapshot,
    keyed,
    my_turn,
    player,
    receive_until,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


PEOPLE = ["p-host", "p-ben", "p-cy", "p-dee"]


# -- 1. seat hopping: a property of the state and the messages --------------------------------------------
def _step(state: TableState, r: int, rng: random.Random) -> dict[str, Any]:
    """One random request by a random person (or a computer player's move)."""
    who = PEOPLE[r % len(PEOPLE)]
    n = len(state.seats)
    kind = ["move", "move", "move", "move", "sit", "sit", "stand", "join", "bot", "offer", "start", "next",
            "rematch"][(r // 4) % 13]
    if kind == "move" and state.status == PLAYING:
        seat = state.to_move_table_seat()
        assert seat is not None
        legal = [str(m) for m in state.deal.legal_moves()]
        holder = state.seats[seat].player
        if holder is not None and state.may_see(holder, seat) and rng.random() < 0.9:
            move = {"kind": "move", "seat": seat, "move": rng.choice(legal), "by": "player", "player": holder}
            if rng.random() < 0.5:    # with a client's move id, now and then one used already (refused)
                move["id"] = f"m{rng.randrange(80)}"
            return move
        if rng.random() < 0.2:   # someone tries to play a seat that is not theirs to play
            return {"kind": "move", "seat": seat, "move": rng.choice(legal), "by": "player", "player": who}
        return {"kind": "move", "seat": seat, "move": rng.choice(legal), "by": "random"}
    if kind in ("sit", "bot", "offer"):
        return {"kind": kind, "player": who if kind == "sit" else "p-host", "seat": rng.randrange(n), "bot": "random"}
    if kind == "join":
        return {"kind": "join", "player": who, "name": who[2:]}
    if kind in ("start", "rematch"):
        return {"kind": kind, "player": "p-host", "seed": rng.randrange(2**62), "dealer": rng.randrange(n)}
    if kind == "next":
        return {"kind": "next", "player": who, "seed": rng.randrange(2**62)}
    return {"kind": kind, "player": who}


def _walk(preset: str, choices: list[int], seed: int) -> int:
    """Apply a random walk; after each step check every person's message.  Returns the views checked."""
    rng = random.Random(seed)
    state = TableState("WALK")
    log = [state.apply_event(creation_event("p-host", "Host", {"preset": preset, "fill": "random"})).to_json()]
    held: dict[str, int | None] = {}        # the model: who held which table seat when the deal started
    offered_to: dict[int, str] = {}         # seats the host offered that a person with no seat then took
    offered: set[int] = set()
    seen: dict[int, set[str]] = {}          # table seat -> people shown its hand this deal
    checked = 0
    for r in choices:
        e = _step(state, r, rng)
        try:
            stored = state.apply(e)
        except TableError:
            continue
        log.append(stored)
        if e["kind"] in ("start", "next", "rematch"):
            held = {p: state.seat_of(p) for p in PEOPLE}
            offered_to, offered, seen = {}, set(), {}
        elif e["kind"] == "offer":
            offered.add(e["seat"])
        elif (e["kind"] == "sit" and state.status == PLAYING and e["seat"] in offered
              and not seen.get(e["seat"]) and held.get(e["player"]) is None and e["seat"] not in offered_to):
            offered_to[e["seat"]] = e["player"]
        if state.status != PLAYING:
            continue
        deal = state.deal
        for p in PEOPLE:
            msg = snapshot(state, Presence(), p)
            v = msg["view"]
            mine: set[int] = set()
            if v is not None and v["seat"] is not None:
                table_seat = state.deal_seats()[v["seat"]]
                seen.setdefault(table_seat, set()).add(p)
                assert held.get(p) == table_seat or offered_to.get(table_seat) == p, (
                    f"{p} was shown the hand of seat {table_seat}; it held {held.get(p)} when the deal started")
                mine = {v["seat"]}
            # no card of another seat's unplayed hand anywhere in the message (56 has two of each card: the
            # viewer's own and played ones are allowed), and no hidden trump
            others = {str(c) for s, hand in enumerate(deal.hands) if s not in mine for c in hand}
            allowed = {str(m) for _, m in deal.history if isinstance(m, Card)}
            allowed |= {str(c) for s in mine for c in deal.dealt[s]}
            assert not (set(cards_in(msg)) & (others - allowed)), f"{p} was sent another seat's card"
            if v is not None and v.get("trump_hidden") and v.get("trump") is not None:
                declarer = deal.contract.to_json().get("declarer", deal.contract.to_json().get("bidder"))
                assert v["seat"] == declarer
            checked += 1
        for table_seat, people in seen.items():
            assert len(people) <= 1, f"seat {table_seat}'s hand was shown to {sorted(people)} in one deal"
    again = replay("WALK", log)      # the rule survives replay from the log
    assert again.seers == state.seers and again.offered == state.offered and again.version == state.version
    assert again.move_ids == state.move_ids
    return checked


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(["56-4", "56-hidden", "56-pairs-6", "55"]),
       choices=st.lists(st.integers(0, 10**6), min_size=20, max_size=160), seed=st.integers(0, 2**32))
def test_no_one_sees_a_hand_of_a_seat_they_did_not_hold_when_the_deal_started(
        preset: str, choices: list[int], seed: int) -> None:
    _walk(preset, choices, seed)


def test_the_walks_do_hop_seats() -> None:
    """The walks reach deals in progress where people try other seats (so the property above tests something)."""
    checked = 0
    for seed in range(20):
        rng = random.Random(seed)
        checked += _walk("56-hidden", [rng.randrange(10**6) for _ in range(200)], seed)
    assert checked > 1000
    refused = 0
    state = TableState("X")
    state.apply_event(creation_event("p-host", "Host", {"preset": "56-4", "fill": "random"}))
    state.apply({"kind": "join", "player": "p-ben", "name": "Ben"})
    state.apply({"kind": "sit", "player": "p-ben", "seat": 1})
    state.apply({"kind": "start", "player": "p-host", "seed": 5, "dealer": 0})
    state.apply({"kind": "stand", "player": "p-ben"})
    for seat in (2, 3, 0):
        with pytest.raises(TableError):
            state.apply({"kind": "sit", "player": "p-ben", "seat": seat})
        refused += 1
    state.apply({"kind": "sit", "player": "p-ben", "seat": 1})   # back to his own seat
    assert refused == 3


def test_a_late_friend_takes_a_seat_the_host_offers_or_a_left_seat_without_its_hand() -> None:
    state = TableState("X")
    state.apply_event(creation_event("p-host", "Host", {"preset": "56-hidden", "fill": "random"}))
    state.apply({"kind": "join", "player": "p-ben", "name": "Ben"})
    state.apply({"kind": "sit", "player": "p-ben", "seat": 1})
    state.apply({"kind": "join", "player": "p-cy", "name": "Cy"})
    state.apply({"kind": "start", "player": "p-host", "seed": 9, "dealer": 0})
    with pytest.raises(TableError, match="ask the host to offer"):
        state.apply({"kind": "sit", "player": "p-cy", "seat": 2})
    with pytest.raises(TableError, match="only the host"):
        state.apply({"kind": "offer", "player": "p-ben", "seat": 2})
    state.apply({"kind": "offer", "player": "p-host", "seat": 2})
    state.apply({"kind": "sit", "player": "p-cy", "seat": 2})
    assert snapshot(state, Presence(), "p-cy")["view"]["hand"]       # nobody had seen seat 2: Cy plays it
    state.apply({"kind": "stand", "player": "p-ben"})
    state.apply({"kind": "join", "player": "p-dee", "name": "Dee"})
    state.apply({"kind": "sit", "player": "p-dee", "seat": 1})        # Ben left seat 1: Dee may sit there ...
    msg = snapshot(state, Presence(), "p-dee")
    assert msg["view"]["hand"] is None and msg["you"]["waiting"]      # ... but a bot plays it to the deal's end
    with pytest.raises(TableError, match="not yours"):
        state.apply({"kind": "move", "seat": 1, "move": "P", "by": "player", "player": "p-dee"})
    state.apply({"kind": "stand", "player": "p-dee"})
    with pytest.raises(TableError, match="a person has seen"):
        state.apply({"kind": "offer", "player": "p-host", "seat": 1})


# -- 2. private tables -----------------------------------------------------------------------------------
def test_a_private_table_needs_its_secret_or_the_hosts_yes(db: str) -> None:
    with client(db) as c:
        asha, ben, cy, eve = (player(c, n) for n in ("Asha", "Ben", "Cy", "Eve"))
        code = create(c, asha, preset="56-4", fill="random")
        key = KEYS[code]
        assert len(key) >= 16 and len(set(key)) > 8            # token_urlsafe(16): 128 random bits
        c.cookies.clear()
        closed = c.get(f"/api/tables/{code}")
        assert closed.status_code == 403 and set(closed.json()) == {"error", "code", "private"}
        assert "private" in closed.json()["error"]
        assert c.get(f"/api/tables/{code}/matches/1.json").status_code == 403
        assert c.get(f"/api/tables/{code}?k=wrong").status_code == 403
        assert c.get(keyed(f"/api/tables/{code}")).json()["private"] is True
        with c.websocket_connect(f"/ws/{code}") as ws:     # no secret: nothing but "private", even after join
            ws.send_json({"type": "hello", "token": eve})
            shut = ws.receive_json()
            assert shut["type"] == "private" and shut["can_ask"] and set(shut) == {"type", "code", "can_ask",
                                                                                      "message"}
            ws.send_json({"type": "join", "name": "Eve"})
            assert ws.receive_json()["type"] == "private"
            ws.send_json({"type": "hello", "token": eve, "key": ("y" if key[0] == "x" else "x") + key[1:]})
            assert ws.receive_json()["type"] == "private"
            ws.send_json({"type": "hello", "token": eve, "key": key})   # the link's secret: in
            assert receive_until(ws, is_snapshot)["table"]["private"] is True
        with c.websocket_connect(keyed(f"/ws/{code}")) as wa, c.websocket_connect(f"/ws/{code}") as wb:
            first = hello(wa, asha)
            assert first["you"]["key"] == key                   # the host's page copies the link with it
            wb.send_json({"type": "hello", "token": ben})
            assert wb.receive_json()["type"] == "private"
            wb.send_json({"type": "ask", "name": "Ben"})
            assert wb.receive_json()["type"] == "asked"
            knocks = receive_until(wa, lambda m: m["type"] == "knocks" and m["knocks"])
            assert [k["name"] for k in knocks["knocks"]] == ["Ben"]
            wa.send_json({"type": "admit", "player": knocks["knocks"][0]["player"]})
            assert receive_until(wb, lambda m: m["type"] in ("admitted", "refused"))["type"] == "admitted"
            wb.send_json({"type": "hello", "token": ben})
            state = receive_until(wb, is_snapshot)
            assert state["you"]["joined"] and state["you"]["name"] == "Ben" and "key" not in state["you"]
        with c.websocket_connect(keyed(f"/ws/{code}")) as wa, c.websocket_connect(f"/ws/{code}") as wc:
            hello(wa, asha)
            wc.send_json({"type": "hello", "token": cy})
            wc.receive_json()
            wc.send_json({"type": "ask", "name": "Cy"})
            knocks = receive_until(wa, lambda m: m["type"] == "knocks" and m["knocks"])
            wa.send_json({"type": "refuse", "player": knocks["knocks"][0]["player"]})
            assert receive_until(wc, lambda m: m["type"] in ("admitted", "refused"))["type"] == "refused"
            wc.send_json({"type": "hello", "token": cy})
            assert wc.receive_json()["type"] == "private"
        public = create(c, asha, preset="56-4", fill="random", public=True)
        c.cookies.clear()
        assert public not in KEYS and c.get(f"/api/tables/{public}").json()["private"] is False
    with client(db) as c:   # the secret is in the log: it works after a restart, and a wrong one still does not
        assert c.get(keyed(f"/api/tables/{code}")).status_code == 200
        assert c.get(f"/api/tables/{code}?k={key[::-1]}").status_code == 403
        with c.websocket_connect(f"/ws/{code}") as wb:     # Ben is a member now: no secret needed
            assert hello(wb, ben)["you"]["joined"]


# -- 3. failed lookups -----------------------------------------------------------------------------------
def test_failed_lookups_are_limited_per_address_without_asking_the_database(db: str, tmp_path: Any) -> None:
    app = create_app(Settings(db_url=db, timing=Timing(bot_delay=0, next_delay=0),
                              limits=Limits(lookup_burst=5, lookup_rate=5 / 60)))
    from starlette.testclient import TestClient

    with TestClient(app) as c:
        asha = player(c, "Asha")
        code = create(c, asha, preset="56-4", fill="random")
        c.cookies.clear()    # not a member: a stranger
        statements = []
        sa_event.listen(app.state.server.db.engine.sync_engine, "before_cursor_execute",
                        lambda *a, **k: statements.append(a[2]))
        answers = [c.get(f"/api/tables/ZZZ{i:03d}").status_code for i in range(4)]
        answers.append(c.get(f"/api/tables/{code}?k=wrong").status_code)       # a wrong secret counts too
        assert answers == [404, 404, 404, 404, 403]
        asked = len(statements)
        assert c.get("/api/tables/ZZZ999").status_code == 429
        assert c.get(keyed(f"/api/tables/{code}")).status_code == 429      # even a real table, for a while
        page = c.get("/t/ZZZ998")
        assert page.status_code == 429 and "a minute" in page.text
        with c.websocket_connect(keyed(f"/ws/{code}")) as ws:
            refused = ws.receive_json()
            assert refused["type"] == "error" and "too many lookups" in refused["message"]
        assert len(statements) == asked                     # none of the refusals asked the database
        server = app.state.server
        server.lookups.buckets.clock = lambda: time.monotonic() + 60   # a minute later: 5 more
        assert c.get(keyed(f"/api/tables/{code}")).status_code == 200


# -- 4. quotas --------------------------------------------------------------------------------------------
def _app(tmp_path: Any, **limits: Any) -> Any:
    from starlette.testclient import TestClient

    return TestClient(create_app(Settings(db_url=f"sqlite+aiosqlite:///{tmp_path / 'q.db'}",
                                          timing=Timing(bot_delay=0, next_delay=0), limits=Limits(**limits))))


def test_tables_created_an_hour_per_person_and_per_address(tmp_path: Any) -> None:
    with _app(tmp_path, tables_per_hour=3, tables_per_hour_address=5, open_tables=100) as c:
        asha = player(c, "Asha")
        for _ in range(3):
            create(c, asha, preset="56-4")
        r = c.post("/api/tables", json={"token": asha, "preset": "56-4"})
        assert r.status_code == 429 and "(3 an hour)" in r.json()["error"]
        ben = player(c, "Ben")
        create(c, ben, preset="56-4")
        create(c, ben, preset="56-4")
        r = c.post("/api/tables", json={"token": player(c, "Cy"), "preset": "56-4"})
        assert r.status_code == 429 and "your address" in r.json()["error"] and "(5 an hour)" in r.json()["error"]


def test_open_tables_and_searching_bots_per_person(tmp_path: Any) -> None:
    with _app(tmp_path, open_tables=2, search_tables=1) as c:
        asha = player(c, "Asha")
        create(c, asha, preset="56-4", fill="pimc")
        r = c.post("/api/tables", json={"token": asha, "preset": "56-4", "fill": "ismcts"})
        assert r.status_code == 429 and "searching computer players" in r.json()["error"] and "(1)" in r.json()["error"]
        code = create(c, asha, preset="56-4", fill="random")
        r = c.post("/api/tables", json={"token": asha, "preset": "56-4"})
        assert r.status_code == 429 and "open tables, the most allowed (2)" in r.json()["error"]
        with c.websocket_connect(keyed(f"/ws/{code}")) as ws:
            hello(ws, asha)
            ws.send_json({"type": "bot", "seat": 1, "bot": "ismcts"})
            err = receive_until(ws, lambda m: m["type"] == "error")
            assert err["type"] == "error" and "searching computer players" in err["message"]
            ws.send_json({"type": "bot", "seat": 1, "bot": "rules"})
            assert receive_until(ws, lambda m: m["type"] in ("error", "event"))["type"] == "event"


def test_spectators_per_table(tmp_path: Any) -> None:
    with _app(tmp_path, spectators=2) as c:
        asha = player(c, "Asha")
        code = create(c, asha, preset="56-4")
        c.cookies.clear()
        with c.websocket_connect(keyed(f"/ws/{code}")) as w1, c.websocket_connect(keyed(f"/ws/{code}")) as w2:
            hello(w1)
            hello(w2)
            with c.websocket_connect(keyed(f"/ws/{code}")) as w3:
                w3.send_json({"type": "hello"})
                err = w3.receive_json()
                assert err["type"] == "error" and "the most allowed (2)" in err["message"]
            with c.websocket_connect(keyed(f"/ws/{code}")) as wa:   # a seated person always gets in
                assert hello(wa, asha)["you"]["seat"] == 0


# -- 5. join spam ----------------------------------------------------------------------------------------
def test_repeated_joins_and_presence_do_not_grow_the_log(db: str) -> None:
    with client(db, message_rate=10**6, message_burst=10**6) as c:
        asha, ben = player(c, "Asha"), player(c, "Ben")
        code = create(c, asha, preset="56-4", fill="random")
        server = c.app.state.server  # type: ignore[attr-defined]
        with c.websocket_connect(keyed(f"/ws/{code}")) as wb:
            hello(wb, ben)
            wb.send_json({"type": "join", "name": "Ben"})
            version = receive_until(wb, lambda m: is_snapshot(m) and m["you"]["joined"])["version"]
            events = len(c.portal.call(server.db.events_of, code))  # type: ignore[union-attr]
            for _ in range(1000):
                wb.send_json({"type": "join", "name": "Ben"})
            answers = [receive_until(wb, lambda m: m["type"] != "presence") for _ in range(1000)]
            assert {a["type"] for a in answers} == {"joined"} and "already" in answers[0]["message"]
            for _ in range(30):      # presence: coming and going
                with c.websocket_connect(keyed(f"/ws/{code}")) as wa:
                    hello(wa, asha)
            wb.send_json({"type": "ping"})
            assert receive_until(wb, lambda m: m["type"] == "pong")["version"] == version
        assert len(c.portal.call(server.db.events_of, code)) == events  # type: ignore[union-attr]
        assert c.get(keyed(f"/api/tables/{code}")).json()["version"] == version


def test_renames_are_limited(tmp_path: Any) -> None:
    with _app(tmp_path, renames_per_hour=2) as c:
        asha = player(c, "Asha")
        code = create(c, asha, preset="56-4")
        with c.websocket_connect(keyed(f"/ws/{code}")) as wa:
            hello(wa, asha)
            for name in ("A2", "A3", "A4"):
                wa.send_json({"type": "join", "name": name})
            got = [receive_until(wa, lambda m: m["type"] in ("event", "error")) for _ in range(3)]
            assert [g["type"] for g in got] == ["event", "event", "error"]
            assert "2 times an hour" in got[2]["message"] and got[1]["table"]["host_name"] == "A3"



def test_seat_and_host_changes_are_limited_so_the_log_grows_with_play(db: str) -> None:
    """A member sitting and standing, and the host pausing and resuming, as fast as the message limit
    lets them: the log takes a burst of changes, then refusals that name the limit (it took every one)."""
    with client(db, message_rate=10**6, message_burst=10**6) as c:
        asha, ben = player(c, "Asha"), player(c, "Ben")
        code = create(c, asha, preset="56-4", fill="random")
        server = c.app.state.server  # type: ignore[attr-defined]
        limits = server.hub.limits
        with c.websocket_connect(keyed(f"/ws/{code}")) as wa, c.websocket_connect(keyed(f"/ws/{code}")) as wb:
            hello(wa, asha)
            hello(wb, ben)
            wb.send_json({"type": "join", "name": "Ben"})
            receive_until(wb, lambda m: is_snapshot(m) and m["you"]["joined"])
            before = len(c.portal.call(server.db.events_of, code))  # type: ignore[union-attr]
            for i in range(60):
                wb.send_json({"type": "sit", "seat": 2} if i % 2 == 0 else {"type": "stand"})
            answers = [receive_until(wb, lambda m: m["type"] in ("event", "error")) for _ in range(60)]
            kinds = [a["type"] for a in answers]
            assert kinds.count("event") == limits.change_burst and kinds[limits.change_burst] == "error"
            refusal = answers[limits.change_burst]["message"]
            assert f"at most {limits.changes_per_minute} a minute" in refusal and "each person" in refusal
            wa.send_json({"type": "start"})
            receive_until(wa, lambda m: is_snapshot(m) and m["table"]["status"] == "playing")
            for i in range(60):
                wa.send_json({"type": "pause"} if i % 2 == 0 else {"type": "resume"})
            answers = [receive_until(wa, lambda m: m["type"] == "error" or (is_snapshot(m) and m["event"]["kind"]
                                                                            in ("pause", "resume")))
                       for _ in range(60)]
            logged = sum(1 for a in answers if a["type"] == "event")
            assert logged <= limits.change_burst and "seat and table changes" in answers[-1]["message"]
        after = len(c.portal.call(server.db.events_of, code))  # type: ignore[union-attr]
        assert after - before <= 2 * limits.change_burst + 1 + 60     # the start, and the bots' moves meanwhile


def test_seat_changes_of_all_members_together_are_limited(tmp_path: Any) -> None:
    with _app(tmp_path, table_changes_per_minute=6, table_change_burst=3) as c:
        asha = player(c, "Asha")
        code = create(c, asha, preset="56-4")
        got, socks = [], {}
        with contextlib.ExitStack() as stack:
            for name in ("Ben", "Cy", "Dev"):
                ws = socks[name] = stack.enter_context(c.websocket_connect(keyed(f"/ws/{code}")))
                hello(ws, player(c, name))
                ws.send_json({"type": "join", "name": name})
                receive_until(ws, lambda m: is_snapshot(m) and m["you"]["joined"])
            for name, msg in (("Ben", {"type": "sit", "seat": 1}), ("Cy", {"type": "sit", "seat": 2}),
                              ("Dev", {"type": "sit", "seat": 3}), ("Ben", {"type": "stand"})):
                socks[name].send_json(msg)
                got.append(receive_until(socks[name], lambda m, name=name: m["type"] == "error" or (
                    is_snapshot(m) and m["event"].get("name") == name)))
        assert [g["type"] for g in got] == ["event", "event", "event", "error"]
        assert "at this table: at most 6 a minute and 3 at once" in got[3]["message"]

# -- 6. moves around a dropped connection ------------------------------------------------------------------
def test_a_move_id_is_applied_once_and_listed_on_reconnect(db: str) -> None:
    with client(db) as c:
        asha = player(c, "Asha")
        code = create(c, asha, preset="56-4", fill="random", options={"tables": 500})
        with c.websocket_connect(keyed(f"/ws/{code}")) as ws:
            hello(ws, asha)
            ws.send_json({"type": "start"})
            turn = receive_until(ws, my_turn)
            before = turn["version"]
            ws.send_json({"type": "move", "move": turn["view"]["legal"][0], "id": "c-17"})
        # the connection dropped before the answer was read: the reconnect says the move was applied
        with c.websocket_connect(keyed(f"/ws/{code}")) as ws:
            ws.send_json({"type": "hello", "token": asha, "version": before})
            # the missed events then ``synced``, or (if the table could not replay them) a full ``state``: both
            # list the applied ids
            synced = receive_until(ws, lambda m: m["type"] == "synced" or (m["type"] == "state" and "applied" in m))
            assert synced["applied"] == ["c-17"]
            now = synced["version"]
            assert now > before
            ws.send_json({"type": "move", "move": turn["view"]["legal"][0], "id": "c-17"})   # resent
            again = receive_until(ws, lambda m: m["type"] in ("moved", "error"))    # bots may move meanwhile
            assert again == {"type": "moved", "id": "c-17", "version": before + 1, "again": True}
            ws.send_json({"type": "move", "move": "ZZZ", "id": "c-18"})
            err = receive_until(ws, lambda m: m["type"] == "error")
            assert err["type"] == "error" and err["id"] == "c-18"
            ws.send_json({"type": "move", "move": "P", "id": "x" * 40})
            assert "move id" in receive_until(ws, lambda m: m["type"] == "error")["message"]
    # after a restart: still known, still not applied twice
    with client(db) as c, c.websocket_connect(keyed(f"/ws/{code}")) as ws:
        state = hello(ws, asha)
        assert state["applied"] == ["c-17"]
        ws.send_json({"type": "move", "move": turn["view"]["legal"][0], "id": "c-17"})
        assert receive_until(ws, lambda m: m["type"] in ("moved", "error"))["again"] is True
        events = c.portal.call(c.app.state.server.db.events_of, code)  # type: ignore[attr-defined,union-attr]
        moves = [e for e in events if e.get("id") == "c-17"]
        assert len(moves) == 1 and moves[0]["player"]


def test_a_seat_hop_over_the_websocket_is_refused(db: str) -> None:
    with client(db) as c:
        asha, ben = player(c, "Asha"), player(c, "Ben")
        code = create(c, asha, preset="56-hidden", fill="random", options={"tables": 500})
        with c.websocket_connect(keyed(f"/ws/{code}")) as wa, c.websocket_connect(keyed(f"/ws/{code}")) as wb:
            hello(wa, asha)
            hello(wb, ben)
            wb.send_json({"type": "join", "name": "Ben"})     # a member, watching when the deal starts
            receive_until(wb, lambda m: is_snapshot(m) and m["you"]["joined"])
            wa.send_json({"type": "start"})
            receive_until(wb, lambda m: is_snapshot(m) and m["table"]["status"] == "playing")
            for seat in (1, 2, 3):   # "Sit here" on a computer player's seat during the deal
                wb.send_json({"type": "sit", "seat": seat})
                err = receive_until(wb, lambda m: m["type"] in ("error", "event") and
                                    (m["type"] == "error" or m["event"]["kind"] == "sit"))
                assert err["type"] == "error" and "computer player plays seat" in err["message"]
            wa.send_json({"type": "stand"})
            receive_until(wa, lambda m: is_snapshot(m) and m["you"]["seat"] is None)
            wa.send_json({"type": "sit", "seat": 1})
            err = receive_until(wa, lambda m: m["type"] == "error")
            assert "only go back to your own seat 0" in err["message"]


def test_limits_are_set_by_name_and_bad_ones_are_refused() -> None:
    from fiftysix.server.edge.limits import limits_from

    changed = limits_from(["tables_per_hour_address=500", "lookup_rate=0.5"], Limits())
    assert changed.tables_per_hour_address == 500 and changed.lookup_rate == 0.5
    assert changed.spectators == Limits().spectators
    for bad, words in ((["nope=1"], "unknown limit 'nope'"), (["spectators=many"], "needs a number"),
                       (["members=-1"], "must not be negative")):
        with pytest.raises(ValueError, match=words):
            limits_from(bad, Limits())
    import io

    from fiftysix.cli.main import main

    err = io.StringIO()
    assert main(["serve", "--limit", "spectators=many"], stdout=io.StringIO(), stderr=err) == 2   # never serves
    assert "limit spectators needs a number" in err.getvalue()


def test_an_ipv6_client_counts_as_its_64_network() -> None:
    """One machine may pick any address of its /64: the per-address limits count the network."""
    from types import SimpleNamespace

    from fiftysix.server.serving import address_of as _address

    def of(host: str) -> str:
        return _address(SimpleNamespace(client=SimpleNamespace(host=host)))  # type: ignore[arg-type]

    assert of("2001:db8::1") == of("2001:db8::ffff:1234") == "2001:db8::/64"
    assert of("2001:db8:0:1::1") != of("2001:db8::1")
    assert of("::ffff:10.0.0.1") == of("10.0.0.1") == "10.0.0.1"


def test_a_log_from_before_the_seat_rule_still_replays_and_shows_no_hopped_hand() -> None:
    """A table logged before the rule (no ``seat_rule`` in its create event) may hold a hop: it replays, and
    the hopper is shown no hand that was not theirs when the deal started."""
    create_event = creation_event("p-host", "Host", {"preset": "56-hidden", "fill": "random"}).to_json()
    for key in ("seat_rule", "private", "secret"):
        create_event.pop(key)
    log = [create_event, {"kind": "join", "player": "p-ben", "name": "Ben"},
           {"kind": "sit", "player": "p-ben", "seat": 1},
           {"kind": "start", "player": "p-host", "seed": 3, "dealer": 0},
           {"kind": "stand", "player": "p-ben"}, {"kind": "sit", "player": "p-ben", "seat": 2}]
    state = replay("OLD", log)
    assert state.seat_of("p-ben") == 2 and not state.private
    msg = snapshot(state, Presence(), "p-ben")
    assert msg["view"]["hand"] is None and msg["you"]["waiting"]


def test_a_quota_refusal_is_one_sentence_in_the_players_language(tmp_path: Any) -> None:
    """Each quota's refusal is a whole catalogue sentence (not glued English parts), so it reaches a Malayalam
    player in Malayalam with the numbers and the hint filled in; English is as before."""
    ml = {"accept-language": "ml-IN,ml;q=0.9"}
    with _app(tmp_path, tables_per_hour=2, open_tables=100, search_tables=1) as c:
        asha = player(c, "Asha")
        create(c, asha, preset="56-4")
        create(c, asha, preset="56-4")
        english = c.post("/api/tables", json={"token": asha, "preset": "56-4"})
        malayalam = c.post("/api/tables", json={"token": asha, "preset": "56-4"}, headers=ml)
        assert english.json()["error"] == ("you created 2 tables in the last hour, the most allowed (2 an hour); "
                                           "try again later")
        assert malayalam.status_code == 429
        assert malayalam.json()["error"] == ("കഴിഞ്ഞ ഒരു മണിക്കൂറിൽ നിങ്ങൾ 2 ടേബിളുകൾ ഉണ്ടാക്കി, അനുവദിച്ചതിൽ ഏറ്റവും "
                                             "കൂടുതൽ (മണിക്കൂറിൽ 2); പിന്നീട് വീണ്ടും ശ്രമിക്കൂ")
        ben = player(c, "Ben")
        create(c, ben, preset="56-4", fill="pimc")
        refused = c.post("/api/tables", json={"token": ben, "preset": "56-4", "fill": "pimc"}, headers=ml).json()
        # the hint is a sentence of its own, translated inside the refusal; the bots' names stay as written
        assert refused["error"].endswith("random or rules കമ്പ്യൂട്ടർ കളിക്കാരെ തിരഞ്ഞെടുക്കൂ"), refused

"""The no-early-view rule of club nights (issue 44), as properties over random event progress: a board not
finished at every table never reaches anyone, whether through the standings, a board page, a table's facts, a deal
or match record download, a deal's review, an ask to see a hand or the socket, while the event runs; closing opens
everything."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_nights import as_, club_of_three

from fiftysix.server.clubs.routes import clubs_of
from fiftysix.server.edge.limits import Buckets
from fiftysix.server.nights.routes import nights_of
from fiftysix.server.nights.scoring import Seat, standings
from fiftysix.server.nights.visibility import Progress, board_shown, may_watch, shown_boards
from fiftysix.server.pages.peek import peeks_of
from helpers.nights import finish_board, table_reads
from helpers.server import client

Finished = frozenset[tuple[int, int]]


@st.composite
def progress(draw: st.DrawFn) -> Progress:
    tables, boards = draw(st.integers(2, 4)), draw(st.integers(1, 4))
    pairs = [(t, b) for t in range(1, tables + 1) for b in range(1, boards + 1)]
    finished = frozenset(draw(st.sets(st.sampled_from(pairs))))
    seated = {f"p{t}": t for t in range(1, tables + 1)}
    return Progress(draw(st.sampled_from(["open", "running", "paused", "closed"])), tables, boards, finished, seated)


@given(progress())
def test_a_shown_board_is_finished_at_every_table_unless_the_event_is_closed(p: Progress) -> None:
    for board in shown_boards(p):
        assert p.status == "closed" or all((t, board) in p.finished for t in range(1, p.tables + 1))
    for board in range(1, p.boards + 1):
        if any((t, board) not in p.finished for t in range(1, p.tables + 1)):
            assert board_shown(p, board) == (p.status == "closed")


@given(progress(), st.integers(1, 4))
def test_a_seated_player_watches_only_their_own_table_while_the_event_is_not_closed(p: Progress, t: int) -> None:
    for viewer, own in p.seated.items():
        assert may_watch(p, viewer, t) == (p.status == "closed" or own == t)
    assert may_watch(p, None, t) and may_watch(p, "someone-not-seated", t)


EVENTS = itertools.count(1)


@st.composite
def runs(draw: st.DrawFn) -> tuple[int, int, Finished, bool]:
    tables, boards = draw(st.integers(2, 3)), draw(st.integers(1, 3))
    pairs = [(t, b) for t in range(1, tables + 1) for b in range(1, boards + 1)]
    return tables, boards, frozenset(draw(st.sets(st.sampled_from(pairs)))), draw(st.booleans())


def secret(night: str, t: int, b: int) -> str:
    return f"SECRET-{night}-{t}-{b}"


def result(t: int, b: int) -> int:
    return (t * 7 + b * 3) % 11 - 5


def probe_peeks(c: Any, code: str, key: str, token: str, allowed: bool) -> str:
    """Ask to see a hand at table ``code``, the player named by the cookie and then by the body's token alone
    (the route acts for the body's player): refused (403) where that player may not watch; the answers' text."""
    served = ""
    for path in (f"/api/tables/{code}/peek", f"/api/tables/{code}/peek/answer"):
        body = {"seat": 0, "watcher": "someone", "answer": "allow"}
        for by_cookie in (True, False):
            cookies = dict(c.cookies)
            if not by_cookie:
                c.cookies.clear()
            ask = c.post(path, params={"k": key}, json=body if by_cookie else {**body, "token": token})
            c.cookies.update(cookies)
            if not allowed:
                assert ask.status_code == 403, (path, by_cookie, ask.text)
            elif by_cookie:      # (the club's gate reads the cookie: a member without one is refused)
                assert ask.status_code != 403, (path, ask.text)
            served += ask.text
    return served


def check_run(c: Any, club: str, people: dict[str, tuple[str, str]],
              run: tuple[int, int, Finished, bool], watchers: bool = False) -> None:
    """One event: made, its tables made, some boards finished, maybe closed; then every member probes every
    read (``watchers``: the club lets people outside it watch, so only the event's rule stands in the way)."""
    tables, boards, finished, closed = run
    store = nights_of(c.app.state.server)
    if hasattr(c.app.state, "club_guard"):     # each run is a fresh evening, not one address's flood
        delattr(c.app.state, "club_guard")
    peeks_of(c.app.state.server).limits = (Buckets(1000.0, 1000), Buckets(1000.0, 1000))
    as_(c, people["Asha"][1])
    assert c.post(f"/api/clubs/{club}/settings", json={"watchers": watchers}).status_code == 200
    r = c.post(f"/api/clubs/{club}/nights", json={"name": f"Night {next(EVENTS)}", "preset": "56-6",
                                                  "boards": boards, "tables": tables})
    assert r.status_code == 200, r.text
    night = r.json()["id"]
    names = ["Asha", "Babu", "Chinnu"][:tables]
    codes = {}
    for t, n in enumerate(names, 1):
        as_(c, people[n][1])
        assert c.post(f"/api/nights/{night}/teams", json={"name": n, "table": t, "direction": 0}).status_code == 200
        # made as the club route makes them, from an address of its own (the quota is not under test here)
        hub = c.app.state.server.hub
        k = next(EVENTS)    # a host of its own too: one person's open tables are capped
        table = c.portal.call(hub.create, f"host{k}", "Host", {"preset": "56-6", "fill": "random", "public": False},
                              f"10.{k // 250 % 250}.{k % 250}.{t}")
        clubs = clubs_of(c.app.state.server)
        c.portal.call(clubs.add_table, table.code, club)
        c.portal.call(store.add_table, night, t, table.code)
        codes[t] = (table.code, table.state.secret)
    for t, b in sorted(finished):
        c.portal.call(finish_board, c.app.state.server, night, t, b, [result(t, b), -result(t, b)],
                      {"note": secret(night, t, b)})
    if closed:
        as_(c, people["Asha"][1])
        assert c.post(f"/api/nights/{night}/close", json={}).status_code == 200
    everywhere = [b for b in range(1, boards + 1) if all((t, b) in finished for t in range(1, tables + 1))]
    shown = list(range(1, boards + 1)) if closed else everywhere
    expected = standings({(t, b): [result(t, b), -result(t, b)] for t, b in finished if b in everywhere},
                         tables, boards, {n: Seat(t, 0) for t, n in enumerate(names, 1)})
    for n in names:
        as_(c, people[n][1])
        view = c.get(f"/api/nights/{night}")
        assert view.status_code == 200
        assert view.json()["boards_shown"] == shown
        assert [(s["team"], s["score"]) for s in view.json()["standings"]] == [
            (s.team, round(float(s.score), 2)) for s in expected]
        served = view.text
        for b in range(1, boards + 1):
            page = c.get(f"/api/nights/{night}/boards/{b}")
            assert page.status_code == (200 if b in shown else 403)
            served += page.text
        for t, (code, key) in codes.items():
            own = names[t - 1] == n
            for path in table_reads(code, boards):
                read = c.get(path, params={"k": key})
                assert read.status_code in ((200, 202, 404) if closed or own else (403,)), (path, n, t)
                served += read.text
            served += probe_peeks(c, code, key, people[n][1], allowed=closed or own)
            if not (closed or own):      # the socket of another table of the running event: refused, nothing sent
                with c.websocket_connect(f"/ws/{code}?k={key}") as ws:
                    ws.send_json({"type": "hello", "token": people[n][1]})
                    message = ws.receive_json()
                    while message.get("type") != "error":
                        assert message.get("view") is None and "table" not in message, message
                        message = ws.receive_json()
                    served += json.dumps(message)
        for t, b in finished:
            assert (secret(night, t, b) in served) == (b in shown)


def test_no_page_standings_or_table_read_leaks_an_unfinished_board(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        club, people = club_of_three(c)

        @settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        @given(runs(), st.booleans())
        def check(run: tuple[int, int, Finished, bool], watchers: bool) -> None:
            check_run(c, club, people, run, watchers)
        check()

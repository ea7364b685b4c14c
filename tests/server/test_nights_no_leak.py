"""The no-early-view rule of club nights (issues 44 and 55), as properties over random event progress, random
readers and every route: nothing of a board that some table has not finished (its cards, calls, contract, result,
score) reaches anyone but the people seated at the table that played it, whether through the standings, a board
page, a table's facts, its deals, a deal or match record download, a deal's review, an ask to see a hand, the
socket, the club page, a history or the lobby, while the event runs; closing opens everything.

The readers are every kind of person who could break it: a player seated at the table, one seated at another
table, a member in no team, the club's owner who runs the event and sits at none, a person's second player who
joined the club by the same invite link, an outsider holding the table's link (at a club that lets outsiders
watch, or not) and a signed-out device holding the link."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_nights import as_, who

from fiftysix.server.clubs.routes import clubs_of
from fiftysix.server.edge.access import Lookups
from fiftysix.server.edge.limits import Buckets
from fiftysix.server.nights.routes import nights_of
from fiftysix.server.nights.scoring import Seat, standings
from fiftysix.server.nights.visibility import LIVE, Progress, board_shown, may_read, shown_boards
from fiftysix.server.pages.peek import peeks_of
from helpers.nights import finish_board
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


READERS = st.sampled_from([None, "p1", "p2", "p3", "p4", "not-seated", "owner"])


@given(progress(), READERS, st.integers(1, 4), st.one_of(st.none(), st.integers(0, 6)))
def test_only_the_table_s_own_players_read_an_unfinished_board(p: Progress, reader: str | None, table: int,
                                                                through: int | None) -> None:
    """A read of table ``table`` through deal ``through`` (None: as it is now) is allowed exactly when the event
    is closed, the reader sits at that table, or every board it reaches is finished at every table."""
    allowed = may_read(p, reader, table, through)
    own = reader is not None and p.seated.get(reader) == table
    reached = [] if through is None else range(1, through + 1)
    opened = through is not None and all(p.finished_everywhere(b) for b in reached)
    assert allowed == (p.status == "closed" or own or opened)
    if allowed and not own and p.status != "closed":      # nothing of a board some table has not finished
        assert through is not None and all(all((t, b) in p.finished for t in range(1, p.tables + 1))
                                           for b in reached)
    assert may_read(p, reader, table, LIVE) == (p.status == "closed" or own)     # the table as it plays


EVENTS = itertools.count(1)


@st.composite
def runs(draw: st.DrawFn) -> tuple[int, int, Finished, bool]:
    tables, boards = draw(st.integers(2, 3)), draw(st.integers(1, 4))
    pairs = [(t, b) for t in range(1, tables + 1) for b in range(1, boards + 1)]
    return tables, boards, frozenset(draw(st.sets(st.sampled_from(pairs)))), draw(st.booleans())


STALLED = (3, 4, frozenset((t, b) for t in (1, 2) for b in range(1, 5)), False)
"""The outside probe's evening: three tables of four boards, tables 1 and 2 done, table 3 stalled on board 1."""


def secret(night: str, t: int, b: int) -> str:
    return f"SECRET-{night}-{t}-{b}"


def result(t: int, b: int) -> int:
    return (t * 7 + b * 3) % 11 - 5


TEAMS = ("Babu", "Chinnu", "Dev")        # who plays at tables 1, 2, 3


@dataclass(frozen=True)
class Reader:
    """A kind of person reading: their player (``None``: a device with no player), token and club membership."""

    name: str
    player: str | None
    token: str | None
    member: bool


def community(c: Any) -> tuple[str, dict[str, Reader]]:
    """A club (owner Asha, who runs the events and sits at none) with a team player per table, a member in no
    team (Esha), Babu's second player (joined by the same invite link), an outsider (Faiz) and a device with no
    player; the club's id and the readers by name."""
    ids = {n: who(c, n) for n in ("Asha", *TEAMS, "Esha", "Babu's phone", "Faiz")}
    as_(c, ids["Asha"][1])
    made = c.post("/api/clubs", json={"name": "Thrissur 56"}).json()
    for n in (*TEAMS, "Esha", "Babu's phone"):
        as_(c, ids[n][1])
        assert c.post("/api/clubs/join", json={"invite": made["invite"]}).status_code == 200
    readers = {n: Reader(n, pid, token, n != "Faiz") for n, (pid, token) in ids.items()}
    readers["signed out"] = Reader("signed out", None, None, False)
    return str(made["id"]), readers


def read_as(c: Any, reader: Reader) -> None:
    c.cookies.clear()
    if reader.token is not None:
        c.cookies.set("fiftysix_player", reader.token)


def table_routes(code: str, boards: int) -> list[tuple[str, int | None]]:
    """Every GET route that reads a table, with how far into its deals it reads (None: the table as it is now):
    its facts, its deals, and each deal's record, review (with the double-dummy marks) and match record."""
    return [(f"/api/tables/{code}", LIVE), (f"/api/tables/{code}/deals?before={boards + 1}", 0),
            *((f"/api/tables/{code}/{path}", b) for b in range(1, boards + 1)
              for path in (f"deals/{b}.json", f"deals/{b}/review")),
            *((f"/api/tables/{code}/matches/{m}.json", LIVE) for m in range(1, boards + 1))]


def socket_read(c: Any, code: str, key: str, reader: Reader, allowed: bool) -> str:
    """The socket of table ``code`` for ``reader``: its state when allowed, else an error and nothing of it."""
    with c.websocket_connect(f"/ws/{code}?k={key}") as ws:
        ws.send_json({"type": "hello", **({"token": reader.token} if reader.token else {})})
        message = ws.receive_json()
        served = json.dumps(message)
        while message.get("type") not in ("error", "state"):
            assert message.get("view") is None and "table" not in message, message
            message = ws.receive_json()
            served += json.dumps(message)
        if message.get("type") == "error" and "not valid" in str(message.get("message")):
            message = ws.receive_json()     # (a token the server does not know: told, then watching)
            served += json.dumps(message)
        assert (message.get("type") == "state") == allowed, (reader.name, code, message)
        return served


def peek_read(c: Any, code: str, key: str, reader: Reader, allowed: bool) -> str:
    """Ask to see a hand at table ``code`` for ``reader`` (the body's token: the route acts for that player)."""
    if reader.token is None:
        return ""
    served = ""
    for path in (f"/api/tables/{code}/peek", f"/api/tables/{code}/peek/answer"):
        ask = c.post(path, params={"k": key}, json={"seat": 0, "watcher": "someone", "answer": "allow",
                                                      "token": reader.token})
        assert (ask.status_code != 403) == allowed, (path, reader.name, ask.text)
        served += ask.text
    return served


def make_event(c: Any, club: str, readers: dict[str, Reader], tables: int, boards: int,
               watchers: bool) -> tuple[str, dict[int, tuple[str, str]]]:
    """An event of ``tables`` tables with a team of one at each, its tables made (the codes and secrets)."""
    store = nights_of(c.app.state.server)
    read_as(c, readers["Asha"])
    assert c.post(f"/api/clubs/{club}/settings", json={"watchers": watchers}).status_code == 200
    r = c.post(f"/api/clubs/{club}/nights", json={"name": f"Night {next(EVENTS)}", "preset": "56-6",
                                                  "boards": boards, "tables": tables})
    assert r.status_code == 200, r.text
    night = r.json()["id"]
    codes = {}
    for t, n in enumerate(TEAMS[:tables], 1):
        read_as(c, readers[n])
        assert c.post(f"/api/nights/{night}/teams", json={"name": n, "table": t, "direction": 0}).status_code == 200
        # made as the club route makes them, from an address of its own (the quota is not under test here)
        hub = c.app.state.server.hub
        k = next(EVENTS)    # a host of its own too: one person's open tables are capped
        table = c.portal.call(hub.create, f"host{k}", "Host", {"preset": "56-6", "fill": "random", "public": False},
                              f"10.{k // 250 % 250}.{k % 250}.{t}")
        c.portal.call(clubs_of(c.app.state.server).add_table, table.code, club)
        c.portal.call(store.add_table, night, t, table.code)
        codes[t] = (table.code, table.state.secret)
    return night, codes


def event_pages(c: Any, club: str, night: str, boards: int, shown: list[int], reader: Reader,
                players: list[str]) -> str:
    """The event's page, its board pages, the club page, the lobby and the seated players' histories."""
    view = c.get(f"/api/nights/{night}")
    assert (view.status_code == 200) == reader.member, view.text
    served = view.text
    if reader.member:
        assert view.json()["boards_shown"] == shown
    for b in range(1, boards + 1):
        page = c.get(f"/api/nights/{night}/boards/{b}")
        assert (page.status_code == 200) == (b in shown and reader.member), page.text
        served += page.text
    served += c.get(f"/api/clubs/{club}").text + c.get("/api/lobby").text
    for player in players:
        served += c.get(f"/api/players/{player}/history").text
    return served


def rule(closed: bool, everywhere: list[int], own: int | None, table: int, through: int | None) -> bool:
    """The spec's rule restated, the test's oracle: may a reader sitting at table ``own`` read ``table`` through
    deal ``through`` (None: as it is now)?"""
    return closed or own == table or (through is not None and all(b in everywhere for b in range(1, through + 1)))


def fresh_limits(c: Any) -> None:
    """Each reader asks from an address of their own (the limits on one address's asks are not under test)."""
    for name in ("club_guard", "history_guard"):
        if hasattr(c.app.state, name):
            delattr(c.app.state, name)
    server = c.app.state.server
    peeks_of(server).limits = (Buckets(1000.0, 1000), Buckets(1000.0, 1000))
    server.lookups = Lookups(server.settings.limits)


def check_run(c: Any, club: str, readers: dict[str, Reader], run: tuple[int, int, Finished, bool],
              watchers: bool) -> None:
    """One event: made, its tables made, some boards finished, maybe closed; then every reader probes every
    read, and what each was served holds a board's secret only where the rule lets them read it."""
    tables, boards, finished, closed = run
    fresh_limits(c)
    night, codes = make_event(c, club, readers, tables, boards, watchers)
    for t, b in sorted(finished):
        c.portal.call(finish_board, c.app.state.server, night, t, b, [result(t, b), -result(t, b)],
                      {"note": secret(night, t, b)}, True, {"hands": secret(night, t, b)})
    if closed:
        read_as(c, readers["Asha"])
        assert c.post(f"/api/nights/{night}/close", json={}).status_code == 200
    seated = {readers[n].player: t for t, n in enumerate(TEAMS[:tables], 1)}
    everywhere = [b for b in range(1, boards + 1) if all((t, b) in finished for t in range(1, tables + 1))]
    shown = list(range(1, boards + 1)) if closed else everywhere
    expected = standings({(t, b): [result(t, b), -result(t, b)] for t, b in finished if b in everywhere},
                         tables, boards, {n: Seat(t, 0) for t, n in enumerate(TEAMS[:tables], 1)})
    players = [p for p in seated if p is not None]
    for reader in readers.values():
        fresh_limits(c)
        read_as(c, reader)
        served = event_pages(c, club, night, boards, shown, reader, players)
        if reader.member:
            assert [(s["team"], s["score"]) for s in c.get(f"/api/nights/{night}").json()["standings"]] == [
                (s.team, round(float(s.score), 2)) for s in expected]
        own = seated.get(reader.player) if reader.player is not None else None

        for t, (code, key) in codes.items():
            club_lets = reader.member or watchers
            for path, through in table_routes(code, boards):
                read = c.get(path, params={"k": key})
                allowed = club_lets and rule(closed, everywhere, own, t, through)
                assert (read.status_code != 403) == allowed, (path, reader.name, t, read.text)
                served += read.text
            allowed = club_lets and rule(closed, everywhere, own, t, LIVE)
            served += peek_read(c, code, key, reader, allowed) + socket_read(c, code, key, reader, allowed)
        for t, b in finished:       # a board's secret only where the reader may read it
            may = b in shown or own == t
            assert (secret(night, t, b) in served) <= may, (reader.name, t, b, closed)
            if b in shown and reader.member:
                assert secret(night, t, b) in served       # the board page shows what each table did


def test_no_route_serves_a_board_before_every_table_finished_it_to_any_reader(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        club, readers = community(c)

        @settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        @given(runs(), st.booleans())
        @example(STALLED, False)
        @example(STALLED, True)
        def check(run: tuple[int, int, Finished, bool], watchers: bool) -> None:
            check_run(c, club, readers, run, watchers)
        check()

"""One tap to a game (issue 58 item 3): the matching on its own (hypothesis), which seats a table offers, and
``POST /api/play`` with many people arriving at once at a live server."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fiftysix.server.play.matching import WINDOWS, Opening, choose, distance, ranked, seat_all
from fiftysix.server.play.routes import playable, takeable
from fiftysix.server.state import events as ev
from fiftysix.server.state.table import DEAL_OVER, PLAYING, TableError, TableState
from fiftysix.server.storage.db import Database
from fiftysix.server.table.connection import Connection
from fiftysix.server.table.hub import Hub, creation_event
from fiftysix.server.table.live import LiveTable, Timing
from fiftysix.server.table.messages import you as message_you
from helpers.live import LiveServer
from helpers.snapshot import FileSnapshots, changed

SEATS = 6

openings = st.lists(st.builds(
    Opening, code=st.text("ABCDEFGH", min_size=3, max_size=3), host=st.just("h"),
    seats=st.lists(st.integers(1, SEATS - 1), unique=True, max_size=SEATS - 1).map(lambda s: tuple(sorted(s))),
    ratings=st.lists(st.integers(900, 2100), min_size=1, max_size=SEATS - 1).map(tuple),
    since=st.floats(0, 100), now=st.booleans()), max_size=8, unique_by=lambda o: o.code)
arrivals = st.lists(st.tuples(st.sampled_from([f"p{i}" for i in range(12)]), st.integers(900, 2100)), max_size=20)


@settings(max_examples=300, deadline=None)
@given(openings, arrivals)
def test_seating_never_overfills_never_seats_twice_and_picks_the_nearest(tables: list[Opening],
                                                                          people: list[tuple[str, int]]) -> None:
    picks = seat_all(people, tables, SEATS)
    assert len(picks) == len({p for p, _ in people})                           # each person placed once
    assert len({p.player for p in picks}) == len(picks)
    taken = Counter((p.code, p.seat) for p in picks if p.code is not None)
    assert all(n == 1 for n in taken.values())                                 # no seat given twice
    free = {o.code: set(o.seats) for o in tables}
    opened = {f"new-{i}": set(range(1, SEATS)) for i, p in enumerate(picks) if p.code is None}
    for p in picks:
        if p.code is not None:                                                 # only seats that were free
            assert p.seat in {**free, **opened}[p.code], (p, free)
    # replayed one by one: each pick is the nearest table within the narrowest window, or none was in reach
    state, rating = list(tables), dict(reversed(people))       # a second tap's rating is not read
    for p in picks:
        if p.code is None:
            assert all(distance(rating[p.player], o) > WINDOWS[-1] for o in state if o.seats and o.ratings)
            state.append(Opening(f"new-{picks.index(p)}", p.player, tuple(range(1, SEATS)), (rating[p.player],),
                                 float(picks.index(p)), now=False))
            continue
        chosen = next(o for o in state if o.code == p.code)
        d = distance(rating[p.player], chosen)
        narrowest = next(w for w in WINDOWS if d <= w)
        assert all(distance(rating[p.player], o) >= d for o in state if o.seats and o.ratings)
        assert not any(distance(rating[p.player], o) <= narrowest and (distance(rating[p.player], o), not o.now,
                                                                       o.since) < (d, not chosen.now, chosen.since)
                       for o in state if o.seats and o.ratings)
        state[state.index(chosen)] = Opening(chosen.code, chosen.host,
                                             tuple(s for s in chosen.seats if s != p.seat),
                                             (*chosen.ratings, rating[p.player]), chosen.since, chosen.now)


def test_the_nearest_wins_and_a_tie_goes_to_the_table_waiting_longest() -> None:
    far, near, older = (Opening("FAR", "a", (1,), (1800,), 0.0), Opening("NEAR", "b", (1,), (1540,), 5.0),
                        Opening("OLD", "c", (2,), (1460,), 1.0))
    assert choose(1500, [far, near]) == near
    assert choose(1500, [near, older, far]) == older                     # 40 from both: the older waits longer
    assert [o.code for o in ranked(1500, [far, near, older])] == ["OLD", "NEAR", "FAR"]
    assert choose(1000, [far]) is None                                   # 800 away: beyond the widest window
    assert choose(1500, [Opening("FULL", "d", (), (1500,), 0.0)]) is None          # no seat to take
    assert choose(1500, [Opening("EMPTY", "e", (1,), (), 0.0)]) is None            # nobody there to play with
    mid_deal = Opening("MID", "f", (3,), (1460,), 0.5, now=False)
    assert choose(1500, [mid_deal, older]) == older                     # as near: a seat played at once first
    nearer = Opening("MID2", "g", (3,), (1490,), 9.0, now=False)
    assert choose(1500, [nearer, near]) == nearer                       # nearer wins over playing at once


def _play_out(state: TableState) -> None:
    while state.status == PLAYING:
        seat = state.to_move_table_seat()
        assert seat is not None and state.deal is not None
        person = state.seats[seat].player
        state.apply({"kind": "move", "seat": seat, "move": str(state.deal.legal_moves()[0]),
                     "by": "player" if person else "bot", **({"player": person} if person else {})})


def test_a_computer_seat_is_offered_between_deals_and_the_newcomer_plays_it_from_the_next_deal() -> None:
    state = TableState("X")
    state.apply_event(creation_event("p-host", "Host", {"preset": "56-6", "fill": "rules", "public": True}))
    assert playable(state) and takeable(state) == (1, 2, 3, 4, 5)        # before the match: every free seat
    state.apply({"kind": "start", "player": "p-host", "seed": 5, "dealer": 0})
    state.apply({"kind": "pause", "player": "p-host"})
    assert takeable(state) == ()                                         # paused by its host: nothing
    state.apply({"kind": "resume", "player": "p-host"})
    _play_out(state)
    assert state.status == DEAL_OVER and takeable(state) == (1, 2, 3, 4, 5)   # between deals: the computers'
    state.apply({"kind": "join", "player": "p-new", "name": "New"})
    state.apply({"kind": "sit", "player": "p-new", "seat": 2})
    state.apply({"kind": "next", "player": "p-host", "seed": 6})
    assert state.seats[2].player == "p-new" and state.seers[2] == "p-new"
    private = TableState("Y")
    private.apply_event(creation_event("p-host", "Host", {"preset": "56-6"}))
    other = TableState("Z")
    other.apply_event(creation_event("p-host", "Host", {"preset": "56-4", "public": True}))
    assert not playable(private) and not playable(other)                 # private, or not the default game


def test_a_computer_seat_claimed_mid_deal_is_the_claimants_from_the_next_deal() -> None:
    state = TableState("X")
    state.apply_event(creation_event("p-host", "Host", {"preset": "56-6", "fill": "rules", "public": True}))
    for who in ("p-ann", "p-bo"):
        state.apply({"kind": "join", "player": who, "name": who})
    with pytest.raises(TableError, match="no deal is in progress"):
        state.apply({"kind": "claim", "player": "p-ann", "seat": 2})
    state.apply({"kind": "start", "player": "p-host", "seed": 5, "dealer": 0})
    assert takeable(state) == (1, 2, 3, 4, 5)
    with pytest.raises(TableError, match="no computer player"):
        state.apply({"kind": "claim", "player": "p-ann", "seat": 0})               # the host's own seat
    state.apply({"kind": "claim", "player": "p-ann", "seat": 2})
    assert state.seats[2].player is None and takeable(state) == (1, 3, 4, 5)       # the computer plays this deal
    with pytest.raises(TableError, match="takes seat 2 from the next deal"):
        state.apply({"kind": "claim", "player": "p-bo", "seat": 2})
    with pytest.raises(TableError, match="a seat at this table already"):
        state.apply({"kind": "claim", "player": "p-ann", "seat": 3})
    _play_out(state)
    with pytest.raises(TableError, match="takes seat 2 from the next deal"):
        state.apply({"kind": "sit", "player": "p-bo", "seat": 2})                 # between deals: still Ann's
    state.apply({"kind": "next", "player": "p-host", "seed": 6})
    assert state.seats[2].player == "p-ann" and state.seers[2] == "p-ann" and state.claims == {}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("play") / "t.db", bot_delay=0.3) as server:
        yield server


async def _taps(url: str, names: list[str]) -> tuple[list[str], list[dict[str, Any]]]:
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        tokens = []
        for n in names:
            http.cookies.clear()                                # a new browser each: no earlier player's cookie
            tokens.append((await http.post("/api/player", json={"name": n})).json()["token"])
        http.cookies.clear()
        made = [(await http.post("/api/tables", json={"token": host, "public": True, "preset": "56-6"})).json()
                for host in tokens[:2]]                         # Anu's and Bina's tables: 5 free seats each
        taps = tokens[2:] + [tokens[2]]                         # one person taps twice at once
        answers = await asyncio.gather(*(http.post("/api/play", json={"token": t}) for t in taps))
        assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
        tables = {a.json()["code"] for a in answers} | {m["code"] for m in made}
        states = {code: (await http.get(f"/api/tables/{code}")).json() for code in tables}
        return taps, [{**a.json(), "table": states[a.json()["code"]]} for a in answers]


def test_many_people_tapping_play_at_once_fill_the_open_tables_then_get_new_ones(live: LiveServer) -> None:
    names = ["Anu", "Bina", *[f"P{i}" for i in range(14)]]
    taps, answers = asyncio.run(_taps(live.url, names))
    seated = Counter(a["outcome"] for a in answers)
    # 14 people: 5 + 5 free seats, then a new table with computers whose 5 computers' seats the next 3 take from
    # its next deal (the new table deals at once)
    assert seated == {"seated": 10, "new": 1, "next_deal": 3, "already": 1}, seated
    by_person: dict[str, set[str]] = {}
    for token, a in zip(taps, answers, strict=True):
        by_person.setdefault(token, set()).add(a["code"])
        assert a["message"] and a["seat"] is not None                  # each told what happened, and where
        people = [s for s in a["table"]["seats"] if s.get("kind") == "player"]
        assert len(people) <= len(a["table"]["seats"])
        if a["outcome"] == "seated":
            assert a["message"] == f"Seated at {a['host']}'s table" and a["host"] in ("Anu", "Bina")
        if a["outcome"] == "next_deal":
            new = next(b for b in answers if b["outcome"] == "new")
            assert a["code"] == new["code"] and a["table"]["claimed"] and a["seat"] in a["table"]["claimed"]
        if a["outcome"] == "new":
            assert a["message"].startswith("No table had a free seat near your rating")
    assert all(len(codes) == 1 for codes in by_person.values())       # nobody seated at two tables
    seats = Counter((a["code"], a["seat"]) for a in answers if a["outcome"] != "already")
    assert len(seats) == 14
    assert all(n == 1 for n in seats.values()), seats                  # no seat given twice


def test_play_asks_for_a_name_first(live: LiveServer) -> None:
    r = httpx.post(f"{live.url}/api/play", json={}, headers={"accept-language": "ml"}, timeout=10)
    assert r.status_code == 400 and r.json()["error"] != "choose your name first"
    assert httpx.post(f"{live.url}/api/play", json={}, timeout=10).json()["error"] == "choose your name first"


def test_a_guest_at_a_table_near_their_rating_is_preferred(tmp_path: Path) -> None:
    """With no rated people the guests all count at the start rating: the table waiting longest fills first."""
    older, newer = Opening("OLD", "a", (1, 2), (1500,), 1.0), Opening("NEW", "b", (1, 2), (1500,), 2.0)
    assert [p.code for p in seat_all([("x", 1500), ("y", 1500), ("z", 1500)], [newer, older], SEATS)] == \
        ["OLD", "OLD", "NEW"]


async def _claimed_table(tmp_path: Path) -> tuple[Database, Hub, LiveTable]:
    """A public table mid-deal with computers in the empty seats, its host here, and a grace of 0.2 s."""
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'claims.db'}")
    await db.migrate()
    hub = Hub(db, Timing(bot_delay=0.01, next_delay=3600.0))   # the computers play up to the host's turn, then wait
    table = await hub.create("p-host", "Host", {"preset": "56-6", "fill": "random", "public": True, "grace": 0.2})
    await table.connect(Connection("p-host"), None)
    await table.submit(ev.Start(player="p-host", seed=5, dealer=0))
    for who in ("p-ann", "p-bo"):
        await table.submit(ev.Join(player=who, name=who))
    return db, hub, table


async def _until(check: Callable[[], bool], seconds: float = 10.0) -> bool:
    for _ in range(int(seconds / 0.02)):
        if check():
            return True
        await asyncio.sleep(0.02)
    return check()


def test_a_claimant_who_never_comes_loses_the_claim_after_the_tables_grace(tmp_path: Path) -> None:
    """Item 2: Play's claim of a computer's seat mid-deal counts its person as dropped until they connect; after the
    table's grace the claim lapses (stored as the claimant's ``stand``): the computer keeps the seat and it is
    takeable again.  One who comes keeps theirs, and one who comes late may claim again."""
    async def run() -> None:
        db, hub, table = await _claimed_table(tmp_path)
        try:
            await table.submit(ev.Claim(player="p-ann", seat=2))
            await table.submit(ev.Claim(player="p-bo", seat=3))
            bo = Connection("p-bo")
            await table.connect(bo, None)                                   # Bo comes, Ann never does
            assert table.state.claims == {2: "p-ann", 3: "p-bo"} and takeable(table.state) == (1, 4, 5)
            assert await _until(lambda: 2 not in table.state.claims), table.state.claims
            assert table.state.claims == {3: "p-bo"}
            assert table.state.seats[2].player is None and table.state.seats[2].bot == "random"
            assert takeable(table.state) == (1, 2, 4, 5)                    # free to take again
            stored = await db.events_of(table.code)
            assert [e for e in stored if e["kind"] == "stand"] == [{"kind": "stand", "player": "p-ann"}]   # once
            await asyncio.sleep(0.4)                                        # Bo's claim outlives the grace
            assert table.state.claims == {3: "p-bo"}
            table.disconnect(bo)                                            # ... until Bo goes for longer
            assert await _until(lambda: not table.state.claims)
            await table.connect(Connection("p-ann"), None)                  # Ann comes late: she claims again
            await table.submit(ev.Claim(player="p-ann", seat=2))
            await asyncio.sleep(0.4)
            assert table.state.claims == {2: "p-ann"}
        finally:
            await hub.stop()
            await db.close()

    asyncio.run(run())


def test_a_claimant_may_give_the_claim_up_and_a_person_without_one_may_not_stand() -> None:
    state = TableState("X")
    state.apply_event(creation_event("p-host", "Host", {"preset": "56-6", "fill": "rules", "public": True}))
    state.apply({"kind": "join", "player": "p-ann", "name": "Ann"})
    state.apply({"kind": "start", "player": "p-host", "seed": 5, "dealer": 0})
    with pytest.raises(TableError, match="you have no seat"):
        state.apply({"kind": "stand", "player": "p-ann"})
    state.apply({"kind": "claim", "player": "p-ann", "seat": 4})
    assert message_you(state, "p-ann")["claimed"] == 4 and message_you(state, "p-host")["claimed"] is None
    state.apply({"kind": "stand", "player": "p-ann"})
    assert state.claims == {} and takeable(state) == (1, 2, 3, 4, 5) and state.seats[4].bot == "rules"


people = st.sampled_from(["p-ann", "p-bo", "p-cy"])
acts = st.lists(st.one_of(st.tuples(st.just("claim"), people, st.integers(0, 5)),
                          st.tuples(st.just("stand"), people, st.just(0)),
                          st.tuples(st.just("sit"), people, st.integers(0, 5))), max_size=25)


@settings(max_examples=200, deadline=None)
@given(acts)
def test_claims_and_stands_mid_deal_never_give_a_seat_twice_and_a_stand_ends_one_claim_once(
        steps: list[tuple[str, str, int]]) -> None:
    state = TableState("X")
    state.apply_event(creation_event("p-host", "Host", {"preset": "56-6", "fill": "rules", "public": True}))
    for who in ("p-ann", "p-bo", "p-cy"):
        state.apply({"kind": "join", "player": who, "name": who})
    state.apply({"kind": "start", "player": "p-host", "seed": 5, "dealer": 0})
    for kind, who, seat in steps:
        before = dict(state.claims)
        try:
            state.apply({"kind": kind, "player": who, **({} if kind == "stand" else {"seat": seat})})
        except TableError:
            assert state.claims == before                                        # a refusal changes nothing
            continue
        if kind == "stand" and who in before.values():
            assert state.claims == {s: p for s, p in before.items() if p != who}  # exactly their claim went
        claimants = list(state.claims.values())
        assert len(claimants) == len(set(claimants))                             # one claim a person
        assert all(state.seats[s].player is None and state.seats[s].bot for s in state.claims)
        assert not any(state.seat_of(p) is not None for p in claimants)          # nobody both seated and claiming


BAD_BODIES = [b"[1, 2]", b"{", b'"Asha"', b"1e999", json.dumps({"player_name": 5}).encode(),
              json.dumps({"player_name": "a\u0000b"}).encode(), json.dumps({"player_name": "x" * 40}).encode(),
              json.dumps({"player_name": "   "}).encode(), json.dumps({"token": ["t"]}).encode(), b"{}"]


def test_bad_bodies_are_refused_in_english_and_malayalam_and_change_nothing(tmp_path: Path) -> None:
    """Item 4: what a program may send wrong: not JSON, not an object, a name of the wrong type, a control character,
    too long or blank, a forged token with no name; each a 400 naming the fault in the asker's language."""
    with LiveServer(tmp_path / "bad.db", bot_delay=3600.0) as live:
        httpx.post(f"{live.url}/api/player", json={"name": "Anu"}, timeout=10)     # the database is made
        rows = FileSnapshots(str(tmp_path / "bad.db"))
        try:
            for body in BAD_BODIES:
                before = rows()
                said = {}
                for lang in ("en", "ml"):
                    r = httpx.post(f"{live.url}/api/play", content=body, timeout=10,
                                   headers={"content-type": "application/json", "accept-language": lang})
                    assert r.status_code == 400, (body, r.text)
                    said[lang] = r.json()["error"]
                assert said["en"] and said["en"].isascii(), (body, said)
                assert said["ml"] != said["en"] and any("\u0d00" <= ch <= "\u0d7f" for ch in said["ml"]), (body, said)
                assert not changed(before, rows()), body
        finally:
            rows.close()

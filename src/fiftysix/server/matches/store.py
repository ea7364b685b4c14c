"""The rows of finished deals and matches, and the rating update, written inside the transaction that stores
the event which finished them (:meth:`fiftysix.server.storage.db.Database.append`).

Exactly once: the event that finishes a match is stored only once (the log's version check), and
:func:`record_match` inserts the match's row keyed by its id with "on conflict do nothing" and updates the
ratings only when that insert made a row.  So a redelivered or replayed match end changes nothing, and a
process killed before the commit leaves neither the event, the match nor the ratings: the table's new writer
(after a restart, or another process after the lease) plays that last card again and stores all three.
Ratings rows are locked in player order (``FOR UPDATE`` on PostgreSQL), so two processes finishing matches
of the same person at once update one after the other.  Each person's stats rows (``person_stats``, ``_forms``,
``_partners``) are added to by the same rule, in the same transaction, after the match's row was made: once.
"""

from __future__ import annotations

import logging
import os
import signal
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict, cast

from sqlalchemy import Insert, Table, and_, case, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection

from ..state.typed_json import Received
from . import rating, tally
from .capture import DealFacts, MatchEnd
from .schema import COUNTS, deal_seats, match_players, matches, person_forms, person_partners, person_stats, ratings
from .tally import MatchSummary, PersonStats

KILL_BEFORE_RATING = "FIFTYSIX_TEST_KILL_BEFORE_RATING"
"""Tests only: a file path; the first match end in a process with it set kills the process (SIGKILL) after
its match row is written and before the ratings, once (the file is made first)."""

log = logging.getLogger("fiftysix.server")

DEAL_SEATS_SQL = "INSERT INTO deal_seats (table_code, number, match_no, facts) VALUES (?, ?, ?, ?)"


class DealSeatRow(TypedDict):
    """A row of ``deal_seats``: who played one finished deal."""

    table_code: str
    number: int
    match_no: int
    facts: DealFacts


def deal_row(code: str, number: int, match_no: int, facts: DealFacts) -> DealSeatRow:
    return {"table_code": code, "number": number, "match_no": match_no, "facts": facts}


async def write_deals(conn: AsyncConnection, rows: list[DealSeatRow]) -> None:
    if rows:
        await conn.execute(deal_seats.insert(), rows)


def _insert(conn: AsyncConnection, table: Table) -> Any:
    """The dialect's ``INSERT`` (both have ``on_conflict_do_nothing`` / ``_do_update``)."""
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert
        return pg_insert(table)
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert
    return sqlite_insert(table)


def insert_once(conn: AsyncConnection, table: Table) -> Insert:
    return _insert(conn, table).on_conflict_do_nothing()  # type: ignore[no-any-return]


class _Tally:
    """What the match's deals say of each person and each seat."""

    def __init__(self, end: MatchEnd, facts: list[DealFacts]) -> None:
        self.seat_deals: dict[str, Counter[int]] = defaultdict(Counter)     # person -> seat -> deals
        self.stats: dict[str, PersonStats] = {}
        self.seat_bots: dict[int, Counter[str]] = defaultdict(Counter)      # seat -> bot -> deals
        self.seat_people: Counter[int] = Counter()
        before = list(end.start)
        for f in facts:
            after = [int(s) for s in f["standings"]]
            for seat in f["played"]:
                person, bot = f["people"][seat], f["bots"][seat]
                if bot is not None:
                    self.seat_bots[seat][bot] += 1
                if person is None:
                    continue
                self.seat_people[seat] += 1
                self.seat_deals[person][seat] += 1
                team = end.team_of[seat]
                self._deal(person, f, seat, after[team] - before[team] if team < len(after) else 0)
            before = after

    def _deal(self, person: str, f: DealFacts, seat: int, gain: int) -> None:
        s = self.stats.setdefault(person, {"deals": 0, "declared": 0, "made": 0, "forms": {}, "gain": 0})
        s["deals"] += 1
        s["gain"] += gain
        if f.get("declarer") == seat:
            s["declared"] += 1
            s["made"] += 1 if f.get("made") else 0
            if f.get("form"):
                form = s["forms"].setdefault(str(f["form"]), [0, 0])
                form[0] += 1
                form[1] += 1 if f.get("made") else 0

    def team_of_person(self, end: MatchEnd, person: str) -> int:
        """The team of the seat the person played most (the later seat on a tie)."""
        seats = self.seat_deals[person]
        seat = max(seats, key=lambda s: (seats[s], s))
        return end.team_of[seat]

    def anchors(self, end: MatchEnd) -> dict[int, list[str]]:
        """Per team, the computer player of each seat a computer played more deals of than people did."""
        out: dict[int, list[str]] = defaultdict(list)
        for seat, bots in sorted(self.seat_bots.items()):
            if sum(bots.values()) > self.seat_people[seat]:
                out[end.team_of[seat]].append(bots.most_common(1)[0][0])
        return out


async def _facts(conn: AsyncConnection, end: MatchEnd) -> list[DealFacts]:
    """The match's deals' facts as :func:`.capture.deal_facts` wrote them (a fault in them is caught where
    :class:`_Tally` reads them)."""
    rows = await conn.execute(select(deal_seats.c.facts).where(
        deal_seats.c.table_code == end.code, deal_seats.c.number >= end.first_deal,
        deal_seats.c.number <= end.last_deal).order_by(deal_seats.c.number))
    return [cast(DealFacts, _json(r[0])) for r in rows]


def _json(value: object) -> Received:
    """A JSON column's object as read back (SQLite's driver gives text, PostgreSQL's a dict already)."""
    import json
    loaded = json.loads(value) if isinstance(value, str) else value
    if not isinstance(loaded, dict):
        raise ValueError(f"a JSON object was expected, not {type(loaded).__name__}")
    return loaded


async def _current(conn: AsyncConnection, family: str, people: list[str]) -> dict[str, rating.Entry]:
    """The people's ratings, locked until the transaction ends (PostgreSQL; SQLite has one writer).  A missing
    row is made first (or found made by another process), so there is always a row to lock."""
    if people:
        await conn.execute(insert_once(conn, ratings), [
            {"player_id": p, "family": family, "mu": rating.MODEL.mu, "sigma": rating.MODEL.sigma, "matches": 0,
             "last_match": ""} for p in people])
    query = (select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma, ratings.c.matches)
             .where(ratings.c.family == family, ratings.c.player_id.in_(people))
             .order_by(ratings.c.player_id).with_for_update())
    found = {r[0]: rating.Entry(r[0], float(r[1]), float(r[2]), int(r[3])) for r in await conn.execute(query)}
    return {p: found.get(p) or rating.new_entry(p) for p in people}


@dataclass
class _Plan:
    """What a match end writes, computed before any write."""

    summary: MatchSummary
    people: list[str]
    team_of: dict[str, int]
    stats: dict[str, PersonStats]
    new: dict[str, tuple[float, float]]


def _plan(end: MatchEnd, tally: _Tally, current: dict[str, rating.Entry]) -> _Plan:
    people = sorted(tally.stats)
    team_of = {p: tally.team_of_person(end, p) for p in people}
    anchors = tally.anchors(end)
    summary: MatchSummary = {"team_of": list(end.team_of), "ranks": list(end.ranks), "standings": list(end.standings),
                             "people": team_of, "bots": {str(t): b for t, b in anchors.items()},
                             "names": {p: n for p, n in end.names if p in team_of}}
    teams: list[list[rating.Entry]] = [[current[p] for p in people if team_of[p] == t]
                                       + [rating.anchor(end.game, b) for b in anchors.get(t, [])]
                                       for t in range(len(end.ranks))]
    new = _new_ratings(teams, list(end.ranks)) if end.rated else {}
    return _Plan(summary, people, team_of, tally.stats, new)


def _new_ratings(teams: list[list[rating.Entry]], ranks: list[int]) -> dict[str, tuple[float, float]]:
    """The people's new ratings when ``teams`` finish at ``ranks``: each team with a person by the library's update
    over it and the teams that judge it (:func:`rating.judged`; one update when every team judges every other);
    empty teams take no part and anchors' values are thrown away."""
    playing = [members for members in teams if members]
    places = [ranks[t] for t, members in enumerate(teams) if members]
    new: dict[str, tuple[float, float]] = {}
    done: dict[tuple[int, ...], list[list[tuple[float, float]]]] = {}
    for t, members in enumerate(playing):
        match = tuple(rating.judged(playing, t))
        if not match:
            continue
        if match not in done:
            done[match] = rating.rate([playing[u] for u in match], [places[u] for u in match])
        values = done[match][match.index(t)]
        new.update({e.player: value for e, value in zip(members, values, strict=True) if e.player is not None})
    return new


async def record_match(conn: AsyncConnection, end: MatchEnd) -> bool:
    """Store a finished match, its people and their new ratings; ``False`` (nothing changed) when it is stored
    already, or when its facts cannot be read (logged: a fault here must not stop the table's last move)."""
    facts = await _facts(conn, end)
    try:
        tally = _Tally(end, facts)
    except Exception:
        log.exception("match %s: its deals' facts do not add up; the match is not recorded", end.id)
        return False
    current = await _current(conn, end.game, sorted(tally.stats))
    try:
        plan = _plan(end, tally, current)
    except Exception:
        log.exception("match %s: the rating update failed; the match is not recorded", end.id)
        return False
    made = await conn.execute(insert_once(conn, matches).values(
        id=end.id, table_code=end.code, match_no=end.match_no, game=end.game, preset=end.preset,
        finished=end.finished, first_deal=end.first_deal, last_deal=end.last_deal, summary=plan.summary,
        rated=bool(plan.new)))
    if made.rowcount == 0:      # stored already: this match end was seen before
        return False
    _kill_for_test()
    if not plan.people:      # computers only: the match is listed nowhere and rates no one
        return True
    await conn.execute(match_players.insert(), [
        {"match_id": end.id, "player_id": p, "finished": end.finished, "team": plan.team_of[p],
         "rank": end.ranks[plan.team_of[p]], "stats": plan.stats[p],
         "rating": {"before": [current[p].mu, current[p].sigma], "after": list(plan.new[p])}
         if p in plan.new else None}
        for p in plan.people])
    await _add_stats(conn, end, plan)
    await _write_ratings(conn, end.game, end.id, current, plan.new)
    return True


async def _add_stats(conn: AsyncConnection, end: MatchEnd, plan: _Plan) -> None:
    """Each person's share of the match added to their stats rows (a row made at their first match)."""
    family = end.game
    counted: list[dict[str, object]] = []
    forms: list[dict[str, object]] = []
    partners: list[dict[str, object]] = []
    for p in plan.people:
        team = plan.team_of[p]
        part = tally.share(p, team, end.ranks[team], plan.stats[p], plan.summary)
        counted.append({"player_id": p, "family": family, **part.counts})
        forms += [{"player_id": p, "family": family, "form": form, "declared": d, "made": m}
                  for form, (d, m) in part.forms.items()]
        partners += [{"player_id": p, "family": family, "partner_id": q, "matches": 1, "won": part.counts["won"],
                      "name": name, "last_finished": end.finished, "last_match": end.id} for q, name in part.partners]
    await _add(conn, person_stats, ("player_id", "family"), COUNTS, counted)
    await _add(conn, person_forms, ("player_id", "family", "form"), ("declared", "made"), forms)
    await _add(conn, person_partners, ("player_id", "family", "partner_id"), ("matches", "won"), partners,
               newest=("name", "last_finished", "last_match"))


async def _add(conn: AsyncConnection, table: Table, keys: tuple[str, ...], sums: tuple[str, ...],
               rows: list[dict[str, object]], newest: tuple[str, ...] = ()) -> None:
    """Rows added to ``table`` by key: ``sums`` added up, ``newest`` taken from the newer match (its
    ``last_finished``, then ``last_match``, as the history's order), in one statement however many rows."""
    if not rows:
        return
    stmt = _insert(conn, table)
    new = stmt.excluded
    changes: dict[str, Any] = {c: table.c[c] + new[c] for c in sums}
    if newest:
        newer = or_(new.last_finished > table.c.last_finished,
                    and_(new.last_finished == table.c.last_finished, new.last_match > table.c.last_match))
        changes |= {c: case((newer, new[c]), else_=table.c[c]) for c in newest}
    await conn.execute(stmt.on_conflict_do_update(index_elements=list(keys), set_=changes), rows)


async def _write_ratings(conn: AsyncConnection, family: str, key: str, current: dict[str, rating.Entry],
                         new: dict[str, tuple[float, float]]) -> None:
    """The people's new ratings of ``family``, one more rated match each, ``key`` their last match."""
    for p, (mu, sigma) in sorted(new.items()):
        await conn.execute(ratings.update().where(ratings.c.player_id == p, ratings.c.family == family)
                           .values(mu=mu, sigma=sigma, matches=current[p].matches + 1, last_match=key))


def _kill_for_test() -> None:
    marker = os.environ.get(KILL_BEFORE_RATING)
    if marker and not Path(marker).exists():
        Path(marker).write_text(str(os.getpid()))
        os.kill(os.getpid(), signal.SIGKILL)


async def rate_teams(conn: AsyncConnection, family: str, teams: list[list[str]], ranks: list[int],
                     key: str) -> dict[str, tuple[float, float]]:
    """Rate people's teams by their places (0 best, ties equal) as one match of ``family``, in ``conn``'s
    transaction (the caller makes it happen once: a club night's close); ``key`` is noted as each rated
    person's last match.  The "who is rated" rule applies as for a table's match.  Returns the new ratings."""
    people = sorted({p for team in teams for p in team})
    current = await _current(conn, family, people)
    new = _new_ratings([[current[p] for p in team] for team in teams], ranks)
    await _write_ratings(conn, family, key, current, new)
    return new


async def rate_places(conn: AsyncConnection, family: str, places: dict[str, int],
                      key: str) -> dict[str, tuple[float, float]]:
    """Rate people placed in one field (``places``: person -> place, 0 best, ties equal), each a team of one, by
    one update of the library over all of them, as one rated match of ``family`` noted ``key``, in ``conn``'s
    transaction (the caller makes it happen once).  A field of fewer than two rates no one.  Returns the new
    ratings."""
    people = sorted(places)
    if len(people) < 2:
        return {}
    current = await _current(conn, family, people)
    values = rating.rate([[current[p]] for p in people], [places[p] for p in people])
    new = {p: team[0] for p, team in zip(people, values, strict=True)}
    await _write_ratings(conn, family, key, current, new)
    return new

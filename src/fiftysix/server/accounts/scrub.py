"""A deleted account's name taken out of everything stored, in the deletion's transaction.

Every name the person went by is gathered first (the account's, the name they joined tables and clubs under, the
host's name of their tables, the one they asked to see a hand under, the one finished matches kept), then each
place that keeps one says :data:`FORMER` instead, or drops it: the table events that named them (``create`` as the
host, ``join``, ``admit``), the names they gave their own tables (a default "NAME's table" in any language
included), their clubs' and events' names, the names of the event teams they are in, their asks to see a hand and
finished matches' summaries.  Ids stay (other players' records, ratings and the tables' logs keep working); no
stored text links them to a person any more.  What other people typed about them (a table named after them by its
host) is those people's words and stays.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from sqlalchemy import String, and_, cast, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from ..clubs.store import club_members, clubs
from ..edge.names import TABLE_NAME
from ..matches.schema import matches, person_partners
from ..nights.store import events as nights
from ..nights.store import teams
from ..pages.peek_store import peeks
from ..state.typed_json import Received
from ..storage.columns import NAME
from ..storage.db import events
from .schema import accounts

FORMER = "a former player"
NAME_LENGTH = NAME.length or 64


def unnamed(text: str, names: Iterable[str], longest: int) -> str:
    """``text`` with each of ``names`` said as :data:`FORMER`, cut to ``longest``: the longest name first, in one
    pass (a name inside the words put in stays), and only where it is not part of a longer word (a person called
    "a" leaves the "a" of "table" alone)."""
    found = sorted({n for n in names if n}, key=len, reverse=True)
    if not found:
        return text[:longest]
    return re.sub(rf"(?<!\w)(?:{'|'.join(map(re.escape, found))})(?!\w)", FORMER, text)[:longest]


def scrub_event(data: Received, player_id: str, names: Iterable[str] = ()) -> Received | None:
    """A stored event, ``data``, with ``player_id``'s name replaced, or ``None`` when it names them nowhere: the
    host's name and the table's name (``names``: every name they went by) of a table they created, the name they
    joined under, the name a host admitted them under."""
    out = dict(data)
    kind = data.get("kind")
    if kind == "create":
        if data.get("host") == player_id:
            out["host_name"] = FORMER
            if isinstance(name := data.get("name"), str):
                out["name"] = unnamed(name, names, TABLE_NAME)
    elif data.get("who" if kind == "admit" else "player") == player_id and "name" in data:
        out["name"] = FORMER
    return out if out != data else None


def names_in_events(rows: Iterable[Received], player_id: str) -> set[str]:
    """The names table events ``rows`` knew ``player_id`` by."""
    found: set[str] = set()
    for data in rows:
        kind = data.get("kind")
        if kind == "create" and data.get("host") == player_id:
            found.add(str(data.get("host_name", "")))
        elif data.get("who" if kind == "admit" else "player") == player_id and "name" in data:
            found.add(str(data["name"]))
    return found


async def scrub_names(conn: AsyncConnection, player_id: str) -> None:
    """Take ``player_id``'s names out of every stored place (run before their account and memberships go)."""
    # the id is 16 hex digits: a text match finds the few events and matches that can name the person
    logged = [(code, version, data) for code, version, data in await conn.execute(
        select(events.c.table_code, events.c.version, events.c.data)
        .where(cast(events.c.data, String).contains(player_id))) if isinstance(data, dict)]
    summaries = [(match_id, summary) for match_id, summary in await conn.execute(
        select(matches.c.id, matches.c.summary).where(cast(matches.c.summary, String).contains(player_id)))
        if isinstance(summary, dict)]
    names = await _names_kept(conn, player_id) | names_in_events((d for _, _, d in logged), player_id)
    for _, summary in summaries:
        kept = summary.get("names")
        if isinstance(kept, dict) and isinstance(kept.get(player_id), str):
            names.add(kept[player_id])
    names.discard("")
    names.discard(FORMER)
    for code, version, data in logged:
        changed = scrub_event(data, player_id, names)
        if changed is not None:
            await conn.execute(update(events).where(and_(events.c.table_code == code, events.c.version == version))
                               .values(data=changed))
    for match_id, summary in summaries:
        kept = summary.get("names")
        if isinstance(kept, dict) and player_id in kept:
            await conn.execute(update(matches).where(matches.c.id == match_id)
                               .values(summary={**summary, "names": {p: n for p, n in kept.items() if p != player_id}}))
    await conn.execute(update(person_partners).where(person_partners.c.partner_id == player_id).values(name=""))
    await conn.execute(update(peeks).where(peeks.c.watcher == player_id, peeks.c.name.is_not(None))
                       .values(name=FORMER))
    await _rename_owned(conn, player_id, names)
    await _rename_teams(conn, player_id, names)


async def _names_kept(conn: AsyncConnection, player_id: str) -> set[str]:
    """The names kept beside ``player_id`` outside the table logs: the account's, the clubs', the asks'."""
    found: set[str] = set()
    for query in (select(accounts.c.name).where(accounts.c.id == player_id),
                  select(club_members.c.name).where(club_members.c.player == player_id),
                  select(peeks.c.name).where(peeks.c.watcher == player_id, peeks.c.name.is_not(None))):
        found |= {str(r[0]) for r in await conn.execute(query)}
    return found


async def _rename_owned(conn: AsyncConnection, player_id: str, names: set[str]) -> None:
    """The names of the clubs and club events ``player_id`` owns, without their names."""
    for table in (clubs, nights):
        for row_id, name in list(await conn.execute(select(table.c.id, table.c.name)
                                                    .where(table.c.owner == player_id))):
            if (new := unnamed(name, names, NAME_LENGTH)) != name:
                await conn.execute(update(table).where(table.c.id == row_id).values(name=new))


async def _rename_teams(conn: AsyncConnection, player_id: str, names: set[str]) -> None:
    """The event teams ``player_id`` is in, without their names (a name another team has: the team's place is
    added, as the draw does)."""
    rows = await conn.execute(select(teams.c.event_id, teams.c.name, teams.c.table_no, teams.c.direction)
                              .where(teams.c.players.contains(f'"{player_id}"')))
    for event_id, name, table_no, direction in list(rows):
        new = unnamed(name, names, NAME_LENGTH)
        for candidate in (new, f"{new[:NAME_LENGTH - 8]} ({table_no}-{direction + 1})"):
            if candidate == name:
                break
            try:
                async with conn.begin_nested():
                    await conn.execute(update(teams).where(teams.c.event_id == event_id, teams.c.name == name)
                                       .values(name=candidate))
                break
            except IntegrityError:
                continue

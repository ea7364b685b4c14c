"""Reading a person's history, stats and ratings (one person at a time; never a list of everyone)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, Generic, NotRequired, TypedDict, TypeVar

from sqlalchemy import Select, and_, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import rating, tally
from .schema import COUNTS, match_players, matches, person_forms, person_partners, person_stats, ratings
from .tally import FamilyStats, MatchSummary

PAGE = 50
"""Matches a page of the history lists (newest first)."""


async def played_together(engine: AsyncEngine, a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` have a finished match in common (who may see whose profile)."""
    other = match_players.alias("other")
    query = (select(match_players.c.match_id)
             .join(other, other.c.match_id == match_players.c.match_id)
             .where(match_players.c.player_id == a, other.c.player_id == b).limit(1))
    async with engine.connect() as conn:
        return (await conn.execute(query)).first() is not None


T = TypeVar("T")


def _obj(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


Withheld = Callable[[list[str]], Awaitable[set[str]]]
"""Which of the given table codes' matches may not be shown now."""
Pending = Callable[[AsyncConnection], Awaitable[list[int]]]
"""The ids of the matches a ``Withheld`` may name (a running club night's: server/nights sets it on the server),
found without reading a person's matches."""


class Rating(TypedDict):
    """A rating as a profile shows it (``shown``: the conservative figure; ``display``: the page's)."""

    mu: float
    sigma: float
    shown: float
    display: int
    matches: int
    provisional: bool


class Profile(TypedDict):
    player: str
    ratings: dict[str, Rating]              # by family
    stats: dict[str, FamilyStats]           # by family
    matches: list[PlayedMatch]              # a page, newest first
    more: bool


async def profile(engine: AsyncEngine, player: str, before: int | None = None,
                  withheld: Withheld | None = None, pending_matches: Pending | None = None) -> Profile:
    """A person's ratings, stats over every finished match, results by partner, and a page of matches
    (finished before unix time ``before``, newest first); matches at tables ``withheld`` names are left out of
    the matches and the stats (a running club night's tables: their boards are not shown yet).  The stats are
    the person's kept sums (:mod:`.tally`), less the matches withheld: no read grows with their matches."""
    async with engine.connect() as conn:
        pending = await _pending(conn, player, pending_matches) if withheld is not None else []
        hidden = await withheld(sorted({r.table_code for r in pending})) if withheld is not None and pending \
            else set()
        page, more = await _page(conn, player, before, hidden)
        families = await _kept(conn, player)
        await _take_off(conn, player, families, [r for r in pending if r.table_code in hidden], hidden)
        rated = list(await conn.execute(select(ratings.c.family, ratings.c.mu, ratings.c.sigma, ratings.c.matches)
                                        .where(ratings.c.player_id == player, ratings.c.matches > 0)))
    return Profile(player=player,
                   ratings={r.family: _rating(float(r.mu), float(r.sigma), int(r.matches)) for r in rated},
                   stats=tally.shown(families),
                   matches=[_match(player, r) for r in page],
                   more=more)


def _newest(player: str) -> Select[Any]:
    """A person's rows newest first, by the ``match_players_player`` index (the id breaks a tie)."""
    return (select(match_players.c.team, match_players.c.rank, matches.c.table_code, matches.c.game)
            .join(matches, matches.c.id == match_players.c.match_id)
            .where(match_players.c.player_id == player)
            .order_by(match_players.c.finished.desc(), match_players.c.match_id.desc()))


async def _pending(conn: AsyncConnection, player: str, pending_matches: Pending | None) -> list[Any]:
    """A person's rows among the matches ``pending_matches`` finds (those a ``withheld`` may name), by key: it
    costs those matches, never the person's."""
    running = await pending_matches(conn) if pending_matches is not None else []
    if not running:
        return []
    return list(await conn.execute(
        select(match_players.c.team, match_players.c.rank, matches.c.table_code, matches.c.game,
               match_players.c.stats, matches.c.summary, matches.c.id)
        .join(matches, matches.c.id == match_players.c.match_id)
        .where(match_players.c.match_id.in_(running), match_players.c.player_id == player)))


async def _kept(conn: AsyncConnection, player: str) -> dict[str, tally.Family]:
    """The person's stats rows: a row per family, per form declared, per partner."""
    out: dict[str, tally.Family] = {}
    for r in await conn.execute(select(person_stats).where(person_stats.c.player_id == player)):
        out[r.family] = tally.Family(counts={c: int(getattr(r, c)) for c in COUNTS})
    for r in await conn.execute(select(person_forms).where(person_forms.c.player_id == player)):
        out.setdefault(r.family, tally.Family()).forms[r.form] = [int(r.declared), int(r.made)]
    for r in await conn.execute(select(person_partners).where(person_partners.c.player_id == player)):
        out.setdefault(r.family, tally.Family()).partners[r.partner_id] = tally.Partner(
            int(r.matches), int(r.won), str(r.name), str(r.last_match))
    return out


async def _take_off(conn: AsyncConnection, player: str, families: dict[str, tally.Family], rows: list[Any],
                    hidden: set[str]) -> None:
    """The withheld matches ``rows`` taken off the sums; a partner whose kept name came from one of them gets
    the name of their newest match shown."""
    gone = {r.id for r in rows}
    for r in rows:
        if r.game in families:
            families[r.game].take_off(tally.share(player, r.team, r.rank, _obj(r.stats), _obj(r.summary)))
    for game, family in families.items():
        for partner, entry in family.partners.items():
            if entry.last_match in gone and entry.matches > 0:
                entry.name = await _name_shown(conn, player, partner, game, hidden)


async def _name_shown(conn: AsyncConnection, player: str, partner: str, game: str, hidden: set[str]) -> str:
    """The name ``partner`` had in their newest match shown as ``player``'s partner in ``game``."""
    other = match_players.alias("other")
    query = (_newest(player).add_columns(matches.c.summary)
             .join(other, and_(other.c.match_id == match_players.c.match_id, other.c.player_id == partner,
                               other.c.team == match_players.c.team))
             .where(matches.c.game == game, matches.c.table_code.not_in(sorted(hidden))).limit(1))
    row = (await conn.execute(query)).first()
    return "" if row is None else dict(_obj(row.summary).get("names", {})).get(partner, "")


async def _page(conn: AsyncConnection, player: str, before: int | None,
                hidden: set[str]) -> tuple[list[Any], bool]:
    """The page of matches finished before ``before`` (newest first) and whether more follow: a keyset read of
    the page's rows only (``PAGE`` + 1 shown ones; more when withheld ones are passed over), never an OFFSET."""
    query = _newest(player).add_columns(
        match_players.c.stats, match_players.c.rating, matches.c.id, matches.c.match_no, matches.c.preset,
        matches.c.finished, matches.c.first_deal, matches.c.last_deal, matches.c.summary, matches.c.rated)
    if before is not None:
        query = query.where(match_players.c.finished < before)
    shown: list[Any] = []
    last: Any = None
    while True:
        want = PAGE + 1 - len(shown) + len(hidden)      # enough however many of them are withheld
        after = query if last is None else query.where(
            or_(match_players.c.finished < last.finished,
                and_(match_players.c.finished == last.finished, match_players.c.match_id < last.id)))
        rows = list(await conn.execute(after.limit(want)))
        shown.extend(r for r in rows if r.table_code not in hidden)
        if len(shown) > PAGE or len(rows) < want:
            return shown[:PAGE], len(shown) > PAGE
        last = rows[-1]


async def ratings_of(engine: AsyncEngine, wanted: set[tuple[str, str]]) -> dict[tuple[str, str], Rating]:
    """The ratings of the (player, family) pairs ``wanted``, in one query, each as a profile shows it; a pair with
    no rated match is left out."""
    if not wanted:
        return {}
    query = (select(ratings.c.player_id, ratings.c.family, ratings.c.mu, ratings.c.sigma, ratings.c.matches)
             .where(ratings.c.player_id.in_(sorted({p for p, _ in wanted})),
                    ratings.c.family.in_(sorted({f for _, f in wanted})), ratings.c.matches > 0))
    async with engine.connect() as conn:
        rows = list(await conn.execute(query))
    return {(r.player_id, r.family): _rating(float(r.mu), float(r.sigma), int(r.matches))
            for r in rows if (r.player_id, r.family) in wanted}


def _rating(mu: float, sigma: float, count: int) -> Rating:
    return Rating(mu=round(mu, 2), sigma=round(sigma, 2), shown=round(rating.shown(mu, sigma), 1),
                  display=rating.display(mu), matches=count, provisional=count < rating.PROVISIONAL)


def _change(stored: Any) -> Any:
    """A match's stored rating change (``before``/``after`` as ``[mu, sigma]``) with the figures a page shows:
    ``display_before``, ``display_after`` and ``display_change`` (after - before of those figures, so it adds up)."""
    if not isinstance(stored, dict) or "before" not in stored or "after" not in stored:
        return stored
    before, after = rating.display(float(stored["before"][0])), rating.display(float(stored["after"][0]))
    return {**stored, "display_before": before, "display_after": after, "display_change": after - before}


def _level(game: str, bot: str) -> str | None:
    """The level (beginner, club, expert) of a computer player's bot (options after a comma), None for others."""
    from ...bots.levels import levels_for  # the bots when a history with a computer is read

    base = bot.split(",")[0]
    return next((lv for lv, name in levels_for(game).items() if name.split(",")[0] == base), None)


class Side(TypedDict):
    """A partner or an opponent in a match (an opponent with their team)."""

    id: str
    name: str
    team: NotRequired[int]


def _sides(player: str, team: int, summary: MatchSummary) -> tuple[list[Side], list[Side]]:
    names = summary.get("names", {})
    people = summary.get("people", {})
    partners: list[Side] = [{"id": p, "name": names.get(p, "")} for p, t in people.items() if t == team and p != player]
    opponents: list[Side] = [{"id": p, "name": names.get(p, ""), "team": t} for p, t in people.items() if t != team]
    return partners, opponents


class BySide(TypedDict, Generic[T]):
    partners: list[T]
    opponents: list[T]


class DealLink(TypedDict):
    number: int
    record: str         # the deal's record's address
    review: str         # its review page's


class PlayedMatch(TypedDict):
    """One of a person's matches as their profile lists it."""

    id: int
    table: str
    match: int
    game: str
    preset: str | None
    finished: int
    team: int
    place: int
    won: bool
    partners: list[Side]
    opponents: list[Side]
    computers: BySide[str]                  # the computer players' bots
    computer_levels: BySide[str | None]     # ... and their levels
    rated: bool
    rating: Any                             # the stored change with its shown figures (:func:`_change`)
    record: str
    deals: list[DealLink]


def _match(player: str, r: Any) -> PlayedMatch:
    summary: MatchSummary = _obj(r.summary)
    partners, opponents = _sides(player, r.team, summary)
    bots = summary.get("bots", {})
    code = r.table_code
    ours = bots.get(str(r.team), [])
    theirs = [b for t, bs in bots.items() if t != str(r.team) for b in bs]
    return PlayedMatch(
        id=r.id, table=code, match=r.match_no, game=r.game, preset=r.preset,
        finished=r.finished, team=r.team, place=r.rank, won=r.rank == 0,
        partners=partners, opponents=opponents,
        computers=BySide(partners=ours, opponents=theirs),
        computer_levels=BySide(partners=[_level(r.game, b) for b in ours],
                               opponents=[_level(r.game, b) for b in theirs]),
        rated=bool(r.rated), rating=_change(_obj(r.rating)),
        record=f"/api/tables/{code}/matches/{r.match_no}.json",
        deals=[DealLink(number=n, record=f"/api/tables/{code}/deals/{n}.json", review=f"/review?table={code}&deal={n}")
               for n in range(r.first_deal, r.last_deal + 1)])

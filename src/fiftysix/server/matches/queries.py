"""Reading a person's history, stats and ratings (one person at a time; never a list of everyone)."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, NotRequired, TypedDict, TypeVar, cast

from sqlalchemy import Select, and_, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import rating
from .schema import match_players, matches, ratings
from .store import MatchSummary, PersonStats

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
                  withheld: Withheld | None = None) -> Profile:
    """A person's ratings, stats over every finished match, results by partner, and a page of matches
    (finished before unix time ``before``, newest first); matches at tables ``withheld`` names are left out of
    the matches and the stats (a running club night's tables: their boards are not shown yet)."""
    async with engine.connect() as conn:
        counted = list(await conn.execute(_counted(player)))
        hidden = await withheld(sorted({r.table_code for r in counted})) if withheld is not None and counted \
            else set()
        page, more = await _page(conn, player, before, hidden)
        rated = list(await conn.execute(select(ratings.c.family, ratings.c.mu, ratings.c.sigma, ratings.c.matches)
                                        .where(ratings.c.player_id == player, ratings.c.matches > 0)))
    return Profile(player=player,
                   ratings={r.family: _rating(float(r.mu), float(r.sigma), int(r.matches)) for r in rated},
                   stats=_stats(player, [r for r in counted if r.table_code not in hidden]),
                   matches=[_match(player, r) for r in page],
                   more=more)


def _newest(player: str) -> Select[Any]:
    """A person's rows newest first, by the ``match_players_player`` index (the id breaks a tie)."""
    return (select(match_players.c.team, match_players.c.rank, matches.c.table_code, matches.c.game)
            .join(matches, matches.c.id == match_players.c.match_id)
            .where(match_players.c.player_id == player)
            .order_by(match_players.c.finished.desc(), match_players.c.match_id.desc()))


def _counted(player: str) -> Select[Any]:
    """What the stats count of each of a person's matches: only the columns they read."""
    return _newest(player).add_columns(match_players.c.stats, matches.c.summary)


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


class PartnerStats(TypedDict):
    id: str
    name: str
    matches: int
    won: int


class FamilyStats(TypedDict):
    """A person's results in one family of games (the profile's ``stats``)."""

    matches: int
    won: int
    deals: int
    declared: int
    made: int
    forms: dict[str, dict[str, int]]    # the form of a winning bid -> {declared, made}
    per_deal: float
    partners: list[PartnerStats]


@dataclass
class _Tally:
    """A family's counts while the rows are read."""

    matches: int = 0
    won: int = 0
    deals: int = 0
    declared: int = 0
    made: int = 0
    gain: int = 0
    forms: dict[str, list[int]] = field(default_factory=dict)


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


def _stats(player: str, rows: list[Any]) -> dict[str, FamilyStats]:
    """Per family: matches, won, deals, contracts declared and made (56: by bid form), the average tables (56)
    or points (55) a deal, and results by partner."""
    out: dict[str, _Tally] = {}
    partners: dict[str, dict[str, PartnerStats]] = defaultdict(dict)
    for r in rows:
        s = cast(PersonStats, _obj(r.stats))
        f = out.setdefault(r.game, _Tally())
        f.matches += 1
        f.won += r.rank == 0
        f.deals += int(s.get("deals", 0))
        f.declared += int(s.get("declared", 0))
        f.made += int(s.get("made", 0))
        f.gain += int(s.get("gain", 0))
        for form, (declared, made) in s.get("forms", {}).items():
            both = f.forms.setdefault(form, [0, 0])
            both[0] += declared
            both[1] += made
        for p in _sides(player, r.team, _obj(r.summary))[0]:
            entry = partners[r.game].setdefault(p["id"], {"id": p["id"], "name": p["name"], "matches": 0, "won": 0})
            entry["matches"] += 1
            entry["won"] += r.rank == 0
    return {game: {"matches": f.matches, "won": f.won, "deals": f.deals, "declared": f.declared, "made": f.made,
                   "forms": {k: {"declared": v[0], "made": v[1]} for k, v in sorted(f.forms.items())},
                   # (a person's row is written only for a match they played a deal of: ``deals`` is never 0)
                   "per_deal": round(f.gain / f.deals, 2) if f.deals else 0.0,
                   "partners": sorted(partners[game].values(), key=lambda e: (-e["matches"], e["name"], e["id"]))}
            for game, f in out.items()}

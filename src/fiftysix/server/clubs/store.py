"""The clubs' rows: clubs, members, the club's tables; each change one short transaction.

A club's id and its invite secret are both 128 random bits.  Only the invite's SHA-256 is stored, so a copy of
the database does not hand out working invites; making a new invite replaces the hash (old links fail).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TypedDict

from sqlalchemy import Boolean, MetaData, String, Table, delete, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ..matches.rating import PROVISIONAL, display
from ..matches.schema import match_players, matches, ratings
from ..storage.columns import CODE, ID, NAME, SECONDS, key, optional, required

metadata = MetaData()

clubs = Table(
    "clubs", metadata,
    *key(id=ID),
    *required(name=NAME, owner=String(64)),
    *optional(invite_hash=String(64)),
    *required(watchers=Boolean, created=SECONDS),
)
club_members = Table("club_members", metadata, *key(club_id=ID, player=String(64)),
                     *required(name=NAME, joined=SECONDS))
club_tables = Table("club_tables", metadata, *key(code=CODE), *required(club_id=ID, created=SECONDS))


def invite_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class Club(TypedDict):
    """A club's row as its pages read it."""

    id: str
    name: str
    owner: str
    watchers: bool      # whether people outside the club may watch its tables


class Member(TypedDict):
    id: str
    name: str


class MyClub(TypedDict):
    """A club in a person's list: ``owner``, whether they own it."""

    id: str
    name: str
    owner: bool


class Clubs:
    """The clubs in the database (``engine``: the server's)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._table_club: dict[str, str | None] = {}    # table code -> club id (a table never changes club)

    async def create(self, owner: str, owner_name: str, name: str) -> tuple[str, str]:
        """A new club owned (and joined) by ``owner``: its id and invite secret."""
        club_id, invite = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
        now = int(time.time())
        async with self.engine.begin() as conn:
            await conn.execute(clubs.insert().values(id=club_id, name=name, owner=owner, watchers=False,
                                                     invite_hash=invite_hash(invite), created=now))
            await conn.execute(club_members.insert().values(club_id=club_id, player=owner, name=owner_name,
                                                            joined=now))
        return club_id, invite

    async def get(self, club_id: str) -> Club | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(clubs.c.id, clubs.c.name, clubs.c.owner, clubs.c.watchers)
                                      .where(clubs.c.id == club_id))).first()
        return None if row is None else {"id": row.id, "name": row.name, "owner": row.owner, "watchers": row.watchers}

    async def members(self, club_id: str) -> list[Member]:
        """The members, ordered by name (then id, so the order is stable)."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(club_members.c.player, club_members.c.name)
                                       .where(club_members.c.club_id == club_id)
                                       .order_by(club_members.c.name, club_members.c.player))).all()
        return [{"id": r.player, "name": r.name} for r in rows]

    async def is_member(self, club_id: str, player: str | None) -> bool:
        if player is None:
            return False
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(club_members.c.player).where(
                club_members.c.club_id == club_id, club_members.c.player == player))).first()
        return row is not None

    async def mine(self, player: str) -> list[MyClub]:
        """The clubs ``player`` is a member of, by name."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(clubs.c.id, clubs.c.name, clubs.c.owner)
                                       .join(club_members, club_members.c.club_id == clubs.c.id)
                                       .where(club_members.c.player == player).order_by(clubs.c.name))).all()
        return [{"id": r.id, "name": r.name, "owner": r.owner == player} for r in rows]

    async def invited_to(self, invite: str) -> str | None:
        """The name of the club whose current invite is ``invite`` (to greet the invitee), else ``None``."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(clubs.c.name).where(clubs.c.invite_hash == invite_hash(invite)))).first()
        return None if row is None else str(row.name)

    async def join(self, invite: str, player: str, name: str) -> str | None:
        """The club whose current invite is ``invite``, with ``player`` a member now; ``None``: no such invite
        (forged or revoked), and nothing changed."""
        async with self.engine.begin() as conn:
            row = (await conn.execute(select(clubs.c.id).where(clubs.c.invite_hash == invite_hash(invite)))).first()
            if row is None:
                return None
            found = (await conn.execute(select(club_members.c.player).where(
                club_members.c.club_id == row.id, club_members.c.player == player))).first()
            if found is None:
                await conn.execute(club_members.insert().values(club_id=row.id, player=player, name=name,
                                                                joined=int(time.time())))
            return str(row.id)

    async def new_invite(self, club_id: str) -> str:
        """A new invite secret; the old one fails from now on."""
        invite = secrets.token_urlsafe(16)
        async with self.engine.begin() as conn:
            await conn.execute(update(clubs).where(clubs.c.id == club_id).values(invite_hash=invite_hash(invite)))
        return invite

    async def revoke_invite(self, club_id: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(clubs).where(clubs.c.id == club_id).values(invite_hash=None))

    async def remove(self, club_id: str, player: str) -> bool:
        async with self.engine.begin() as conn:
            result = await conn.execute(delete(club_members).where(club_members.c.club_id == club_id,
                                                                   club_members.c.player == player))
        return bool(result.rowcount)

    async def hand_over(self, club_id: str, player: str) -> bool:
        """Make member ``player`` the owner; ``False`` (nothing changed) when they are not a member."""
        async with self.engine.begin() as conn:
            member = (await conn.execute(select(club_members.c.player).where(
                club_members.c.club_id == club_id, club_members.c.player == player))).first()
            if member is None:
                return False
            await conn.execute(update(clubs).where(clubs.c.id == club_id).values(owner=player))
        return True

    async def set_watchers(self, club_id: str, allowed: bool) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(clubs).where(clubs.c.id == club_id).values(watchers=allowed))

    async def add_table(self, code: str, club_id: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(club_tables.insert().values(code=code, club_id=club_id, created=int(time.time())))
        self._table_club[code] = club_id

    async def club_of_table(self, code: str) -> str | None:
        """The club a table was made for, or ``None`` (cached: a table's club never changes)."""
        if code in self._table_club:
            return self._table_club[code]
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(club_tables.c.club_id).where(club_tables.c.code == code))).first()
        club = None if row is None else str(row.club_id)
        if len(self._table_club) > 50_000:
            self._table_club.clear()
        self._table_club[code] = club
        return club

    async def tables(self, club_id: str) -> list[str]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(club_tables.c.code).where(club_tables.c.club_id == club_id)
                                       .order_by(club_tables.c.created.desc()).limit(200))).all()
        return [str(r.code) for r in rows]

    async def recent_matches(self, club_id: str, limit: int = 20,
                             withheld: Callable[[list[str]], Awaitable[set[str]]] | None = None,
                             ) -> list[ClubMatch]:
        """The latest finished matches at the club's tables (but those at tables ``withheld`` names now)."""
        # the club's tables by their index, each table's matches by ``matches_table`` (which covers the id): only
        # the ids and times of the club's matches are sorted, and only the newest ``limit`` rows are read whole
        newest = (select(matches.c.id).join(club_tables, club_tables.c.code == matches.c.table_code)
                  .where(club_tables.c.club_id == club_id)
                  .order_by(matches.c.finished.desc(), matches.c.id.desc()).limit(limit))
        async with self.engine.connect() as conn:
            rows = (await conn.execute(
                select(matches.c.id, matches.c.table_code, matches.c.game, matches.c.preset, matches.c.finished,
                       matches.c.first_deal, matches.c.summary).where(matches.c.id.in_(newest.scalar_subquery()))
                .order_by(matches.c.finished.desc(), matches.c.id.desc()))).all()
        hidden = await withheld(sorted({r.table_code for r in rows})) if withheld is not None and rows else set()
        return [ClubMatch(id=r.id, table_code=r.table_code, game=r.game, preset=r.preset, finished=r.finished,
                          summary=r.summary, first_deal=r.first_deal) for r in rows if r.table_code not in hidden]

    async def leaderboard(self, club_id: str, family: str) -> list[Standing]:
        """The members by rating in ``family`` ("56" or "55"), best first (``rating``: the figure every page shows,
        :func:`..matches.rating.display`; ``mu`` and ``sigma`` for tools), whether it is still provisional, the rated
        matches and when each last finished a match of the family; members without a rated match last, by name."""
        # one statement: the members, their rating (if any) and their last match of the family, found by walking
        # that member's matches newest first (the player/finished index) to the first of the family, not by
        # grouping all of them (a regular has hundreds)
        member = club_members.c.player
        last = (select(match_players.c.finished).join(matches, matches.c.id == match_players.c.match_id)
                .where(match_players.c.player_id == member, matches.c.game == family)
                .order_by(match_players.c.finished.desc()).limit(1).scalar_subquery())
        query = (select(member, club_members.c.name, ratings.c.mu, ratings.c.sigma, ratings.c.matches,
                        last.label("last_played"))
                 .select_from(club_members.outerjoin(ratings, (ratings.c.player_id == member)
                                                     & (ratings.c.family == family)))
                 .where(club_members.c.club_id == club_id).order_by(club_members.c.name, member))
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        board = [Standing(id=r.player, name=r.name, rating=display(r.mu) if r.mu is not None else None,
                          mu=r.mu, sigma=r.sigma, provisional=r.mu is None or r.matches < PROVISIONAL,
                          matches=r.matches or 0, last_played=r.last_played) for r in rows]
        return sorted(board, key=_board_order)


class ClubMatch(TypedDict):
    """A finished match at a club's table, as the club page lists it (``summary``: as the match stored it)."""

    id: int
    table_code: str
    game: str
    preset: str | None
    finished: int
    summary: object
    first_deal: int


class Standing(TypedDict):
    """A member on the club's leaderboard of a family (``rating``: the figure every page shows)."""

    id: str
    name: str
    rating: int | None
    mu: float | None
    sigma: float | None
    provisional: bool
    matches: int
    last_played: int | None     # unix time of their last match of the family


async def forget(conn: AsyncConnection, player: str) -> None:
    """A deleted account leaves every club, in the deletion's transaction (``conn``): its memberships (and the
    name kept with each) go, and each club it owned passes to its longest-standing remaining member (the earliest
    joined; the smaller id on a tie), or is deleted when no member remains.  A deleted club's tables stay tied
    to it, so with no members nobody may sit or watch there; its finished matches stay in the records."""
    owned = [str(r.id) for r in await conn.execute(select(clubs.c.id).where(clubs.c.owner == player))]
    await conn.execute(delete(club_members).where(club_members.c.player == player))
    for club_id in owned:
        heir = (await conn.execute(select(club_members.c.player).where(club_members.c.club_id == club_id)
                                   .order_by(club_members.c.joined, club_members.c.player).limit(1))).first()
        if heir is not None:
            await conn.execute(update(clubs).where(clubs.c.id == club_id).values(owner=heir.player))
        else:
            await conn.execute(delete(clubs).where(clubs.c.id == club_id))


def _board_order(row: Standing) -> tuple[bool, float, str]:
    """Rated members first, best first, then by name."""
    rating = row["rating"]
    return (rating is None, -float(rating) if rating is not None else 0.0, row["name"])

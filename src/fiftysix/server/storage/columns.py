"""The column notation of the live tables and of the migrations: a table's columns by role, in order.

    Table("deal_seats", metadata, *key(table_code=CODE, number=Integer), *required(match_no=Integer, facts=JSON))

makes ``table_code`` and ``number`` the primary key, then ``match_no`` and ``facts`` NOT NULL; ``optional``
makes columns that may be NULL.  Keyword order is column order.  A column with more to it (a server default,
``unique``, an index) is still written as a plain ``Column`` between the calls.

Frozen: the Alembic migrations build every deployed database with these helpers and kinds, so what each one
makes must never change (that would rewrite history: a fresh database would no longer match an upgraded
one).  A new need gets a new name; a changed column gets a new migration, and its live table stops using the
old kind (which stays, for the migrations that used it).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import BigInteger, Column, String
from sqlalchemy.types import TypeEngine

Kind = TypeEngine[Any] | type[TypeEngine[Any]]

CODE = String(16)
"""A table's code (``tables.code``), wherever a row belongs to a table."""
PLAYER = String(32)
"""A player's id, which is also their account's id."""
ID = String(40)
"""A 40-character id: a club's and a club night's (random, too long to guess), a finished match's
("<table code>/<match number>")."""
FAMILY = String(8)
"""A game's family: "56" or "55"."""
NAME = String(64)
"""A name people give: a player's, a club's, a club night's, a team's."""
SECONDS = BigInteger
"""A moment, in whole seconds since 1970 (unix time)."""


def key(**kinds: Kind) -> list[Column[Any]]:
    """The primary key's columns.  The database never makes a key up (codes, ids and numbers come from the
    server), so none autoincrements."""
    return [Column(name, kind, primary_key=True, autoincrement=False) for name, kind in kinds.items()]


def required(**kinds: Kind) -> list[Column[Any]]:
    """Columns that are never NULL."""
    return [Column(name, kind, nullable=False) for name, kind in kinds.items()]


def optional(**kinds: Kind) -> list[Column[Any]]:
    """Columns that may be NULL."""
    return [Column(name, kind, nullable=True) for name, kind in kinds.items()]

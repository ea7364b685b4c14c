"""The tables of finished matches and ratings (created by migration 0006)."""

from __future__ import annotations

from sqlalchemy import JSON, BigInteger, Boolean, Column, Float, Index, Integer, MetaData, String, Table

metadata = MetaData()

deal_seats = Table(
    "deal_seats", metadata,
    # who played each table seat of a finished deal, and the facts the stats need (capture.DealFacts)
    Column("table_code", String(16), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("match_no", Integer, nullable=False),
    Column("facts", JSON, nullable=False),
)

matches = Table(
    "matches", metadata,
    # one row per finished match: its id is the exactly-once key of the rating update
    Column("id", String(40), primary_key=True),          # "<table code>/<match number>"
    Column("table_code", String(16), nullable=False),
    Column("match_no", Integer, nullable=False),
    Column("game", String(8), nullable=False),           # the family: "56" or "55"
    Column("preset", String(32), nullable=False),
    Column("finished", BigInteger, nullable=False),      # unix seconds
    Column("first_deal", Integer, nullable=False),
    Column("last_deal", Integer, nullable=False),
    Column("summary", JSON, nullable=False),             # teams, ranks, standings, seats (people and bots)
    Column("rated", Boolean, nullable=False),
)

match_players = Table(
    "match_players", metadata,
    Column("match_id", String(40), primary_key=True),
    Column("player_id", String(32), primary_key=True),
    Column("finished", BigInteger, nullable=False),
    Column("team", Integer, nullable=False),
    Column("rank", Integer, nullable=False),             # 0: won
    Column("stats", JSON, nullable=False),               # deals, declared, made, by form, gain
    Column("rating", JSON, nullable=True),               # {"before": [mu, sigma], "after": [mu, sigma]} if rated
    Index("match_players_player", "player_id", "finished"),
)

ratings = Table(
    "ratings", metadata,
    Column("player_id", String(32), primary_key=True),
    Column("family", String(8), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("matches", Integer, nullable=False),          # rated matches so far
    Column("last_match", String(40), nullable=False),
)

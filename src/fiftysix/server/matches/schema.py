"""The tables of finished matches and ratings (created by migration 0006)."""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Float, Index, Integer, MetaData, String, Table

from ..storage.columns import CODE, FAMILY, ID, PLAYER, SECONDS, key, optional, required

metadata = MetaData()

deal_seats = Table(
    "deal_seats", metadata,
    # who played each table seat of a finished deal, and the facts the stats need (capture.DealFacts)
    *key(table_code=CODE, number=Integer),
    *required(match_no=Integer, facts=JSON),
)

matches = Table(
    "matches", metadata,
    # one row per finished match: its id ("<table code>/<match number>") is the exactly-once key of the rating update
    *key(id=ID),
    *required(table_code=CODE, match_no=Integer, game=FAMILY, preset=String(32), finished=SECONDS,
              first_deal=Integer, last_deal=Integer,
              summary=JSON,         # teams, ranks, standings, seats (people and bots)
              rated=Boolean),
    Index("matches_table", "table_code", "finished", "id"),     # migration 0013: a club's recent matches
)

match_players = Table(
    "match_players", metadata,
    *key(match_id=ID, player_id=PLAYER),
    *required(finished=SECONDS, team=Integer,
              rank=Integer,         # 0: won
              stats=JSON),          # deals, declared, made, by form, gain
    *optional(rating=JSON),         # {"before": [mu, sigma], "after": [mu, sigma]} if rated
    Index("match_players_player", "player_id", "finished"),
)

ratings = Table(
    "ratings", metadata,
    *key(player_id=PLAYER, family=FAMILY),
    *required(mu=Float, sigma=Float,
              matches=Integer,      # rated matches so far
              last_match=ID),
)

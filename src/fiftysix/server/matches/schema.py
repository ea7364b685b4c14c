"""The tables of finished matches and ratings (created by migration 0006), and each person's stats kept as the
matches finish (migration 0014)."""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Float, Index, Integer, MetaData, String, Table, Text

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

# A person's stats, added to in the transaction that stores each of their matches (matches/store.py), so the
# history page reads a row per family, form and partner instead of every match they played (issue 59).
COUNTS = ("matches", "won", "deals", "declared", "made", "gain")
"""What ``person_stats`` adds up per person and family (``gain``: tables or points won over their deals)."""

person_stats = Table(
    "person_stats", metadata,
    *key(player_id=PLAYER, family=FAMILY),
    *required(**{name: Integer for name in COUNTS}),
)

person_forms = Table(
    "person_forms", metadata,
    # 56: the contracts a person declared and made by the form of the winning bid
    *key(player_id=PLAYER, family=FAMILY, form=String(64)),
    *required(declared=Integer, made=Integer),
)

person_partners = Table(
    "person_partners", metadata,
    # the matches a person played with each partner (a person of their team) and won; the partner's name as the
    # newest of those matches kept it ("" once their account is deleted), and which match that was
    *key(player_id=PLAYER, family=FAMILY, partner_id=PLAYER),
    *required(matches=Integer, won=Integer, name=Text, last_finished=SECONDS, last_match=ID),
)

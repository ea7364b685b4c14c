"""Each person's stats kept as their matches finish (issue 59): ``person_stats`` (per family: matches, won, deals,
contracts declared and made, the tables or points gained), ``person_forms`` (56: by the winning bid's form) and
``person_partners`` (matches and wins with each partner, the partner's newest name), added up here from the
matches stored so far; from now on the match's own transaction adds to them (matches/store.py).  And
``club_events_open``: the nights not closed, so a person's matches at running nights are found from those nights
(few) rather than from all the person's matches.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

from fiftysix.server.storage.columns import FAMILY, ID, PLAYER, SECONDS, key, required

revision = "0014_person_stats"
down_revision = "0013_page_indexes"

COUNTS = ("matches", "won", "deals", "declared", "made", "gain")


def upgrade() -> None:
    stats = op.create_table("person_stats", *key(player_id=PLAYER, family=FAMILY),
                            *required(**{name: sa.Integer for name in COUNTS}))
    forms = op.create_table("person_forms", *key(player_id=PLAYER, family=FAMILY, form=sa.String(64)),
                            *required(declared=sa.Integer, made=sa.Integer))
    partners = op.create_table("person_partners", *key(player_id=PLAYER, family=FAMILY, partner_id=PLAYER),
                               *required(matches=sa.Integer, won=sa.Integer, name=sa.Text, last_finished=SECONDS,
                                         last_match=ID))
    op.create_index("club_events_open", "club_events", ["id"],
                    sqlite_where=sa.text("status <> 'closed'"), postgresql_where=sa.text("status <> 'closed'"))
    assert stats is not None and forms is not None and partners is not None
    _backfill(op.get_bind(), stats, forms, partners)


def _obj(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _backfill(conn: sa.Connection, stats: sa.Table, forms: sa.Table, partners: sa.Table) -> None:
    """The sums of every stored match, as the store would have added them one by one (each match's share as
    matches/tally.py counts it; a migration imports no feature, so it is written out here, frozen), read in one
    pass in match order so each summary is read once."""
    sums: dict[tuple[str, str], dict[str, int]] = {}
    declared: dict[tuple[str, str, str], list[int]] = {}
    met: dict[tuple[str, str, str], dict[str, Any]] = {}
    rows = conn.execute(sa.text(
        "SELECT mp.match_id, mp.player_id, mp.team, mp.rank, mp.stats, mp.finished, m.game, m.summary "
        "FROM match_players mp JOIN matches m ON m.id = mp.match_id ORDER BY mp.match_id"))
    last_id, summary = None, {}
    for match_id, player, team, rank, person, finished, game, text in rows:
        if match_id != last_id:
            last_id, summary = match_id, _obj(text)
        person, won = _obj(person), int(rank == 0)
        total = sums.setdefault((player, game), dict.fromkeys(COUNTS, 0))
        total["matches"] += 1
        total["won"] += won
        for name in ("deals", "declared", "made", "gain"):
            total[name] += int(person.get(name, 0))
        for form, (d, m) in person.get("forms", {}).items():
            both = declared.setdefault((player, game, form), [0, 0])
            both[0] += int(d)
            both[1] += int(m)
        names = summary.get("names", {})
        for partner, their_team in summary.get("people", {}).items():
            if their_team != team or partner == player:
                continue
            name = names.get(partner, "")
            entry = met.setdefault((player, game, partner), {"matches": 0, "won": 0, "name": name,
                                                             "last_finished": finished, "last_match": match_id})
            entry["matches"] += 1
            entry["won"] += won
            if (finished, match_id) > (entry["last_finished"], entry["last_match"]):
                entry.update(name=name, last_finished=finished, last_match=match_id)
    _insert(conn, stats, [{"player_id": p, "family": f, **c} for (p, f), c in sums.items()])
    _insert(conn, forms, [{"player_id": p, "family": f, "form": form, "declared": d, "made": m}
                          for (p, f, form), (d, m) in declared.items()])
    _insert(conn, partners, [{"player_id": p, "family": f, "partner_id": q, **e} for (p, f, q), e in met.items()])


def _insert(conn: sa.Connection, table: sa.Table, rows: list[dict[str, Any]]) -> None:
    for start in range(0, len(rows), 10_000):
        conn.execute(table.insert(), rows[start:start + 10_000])


def downgrade() -> None:
    op.drop_index("club_events_open", table_name="club_events")
    for name in ("person_partners", "person_forms", "person_stats"):
        op.drop_table(name)

"""A person's stats as sums (pure): one finished match's share of them, and the sums as the history page shows
them.  The store adds a match's share to the ``person_*`` rows when it stores the match, migration 0014 adds up
the matches stored before it, and the page takes off the shares of matches not shown yet (a running club
night's), so all three count alike."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict


class PersonStats(TypedDict):
    """A person's deals in one match, stored in ``match_players.stats``."""

    deals: int
    declared: int
    made: int
    forms: dict[str, list[int]]     # the form of a winning bid -> [declared, made]
    gain: int


class MatchSummary(TypedDict):
    """A finished match as ``matches.summary`` stores it."""

    team_of: list[int]
    ranks: list[int]
    standings: list[int]
    people: dict[str, int]          # person -> team
    bots: dict[str, list[str]]      # team (as text) -> the computers that anchored it
    names: dict[str, str]           # person -> the name they had at the table


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


def partners_of(player: str, team: int, summary: MatchSummary) -> list[tuple[str, str]]:
    """The people of ``player``'s team in a match (id, the name the match kept; "" when it kept none)."""
    names = summary.get("names", {})
    return [(p, names.get(p, "")) for p, t in summary.get("people", {}).items() if t == team and p != player]


@dataclass(frozen=True)
class Share:
    """One match's share of a person's stats in its family."""

    counts: dict[str, int]                  # schema.COUNTS
    forms: dict[str, tuple[int, int]]       # form -> (declared, made)
    partners: list[tuple[str, str]]         # (id, name)


def share(player: str, team: int, rank: int, stats: PersonStats, summary: MatchSummary) -> Share:
    won = int(rank == 0)
    counts = {"matches": 1, "won": won, "deals": int(stats.get("deals", 0)),
              "declared": int(stats.get("declared", 0)), "made": int(stats.get("made", 0)),
              "gain": int(stats.get("gain", 0))}
    forms = {form: (int(d), int(m)) for form, (d, m) in stats.get("forms", {}).items()}
    return Share(counts, forms, partners_of(player, team, summary))


@dataclass
class Partner:
    matches: int
    won: int
    name: str
    last_match: str = ""


@dataclass
class Family:
    """A family's sums: the ``person_*`` rows of one person, less what is not shown yet."""

    counts: dict[str, int] = field(default_factory=dict)
    forms: dict[str, list[int]] = field(default_factory=dict)
    partners: dict[str, Partner] = field(default_factory=dict)

    def take_off(self, part: Share) -> None:
        """Leave out a match the sums hold (a withheld one)."""
        for name, value in part.counts.items():
            self.counts[name] = self.counts.get(name, 0) - value
        for form, (declared, made) in part.forms.items():
            both = self.forms.setdefault(form, [0, 0])
            both[0] -= declared
            both[1] -= made
        for p, _name in part.partners:
            if p in self.partners:
                self.partners[p].matches -= 1
                self.partners[p].won -= part.counts["won"]


def shown(families: dict[str, Family]) -> dict[str, FamilyStats]:
    """Per family: matches, won, deals, contracts declared and made (56: by bid form), the average tables (56)
    or points (55) a deal, and results by partner; a family, form or partner left with no match is left out."""
    out: dict[str, FamilyStats] = {}
    for game, f in families.items():
        c = f.counts
        if c.get("matches", 0) <= 0:
            continue
        partners: list[PartnerStats] = [{"id": p, "name": e.name, "matches": e.matches, "won": e.won}
                                        for p, e in f.partners.items() if e.matches > 0]
        out[game] = {"matches": c["matches"], "won": c["won"], "deals": c["deals"], "declared": c["declared"],
                     "made": c["made"],
                     "forms": {k: {"declared": v[0], "made": v[1]} for k, v in sorted(f.forms.items())
                               if v != [0, 0]},
                     # (a person's row is written only for a match they played a deal of: ``deals`` is never 0)
                     "per_deal": round(c["gain"] / c["deals"], 2) if c["deals"] else 0.0,
                     "partners": sorted(partners, key=lambda e: (-e["matches"], e["name"], e["id"]))}
    return out

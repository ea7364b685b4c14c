"""Team-aware ratings: openskill's Thurstone-Mosteller (full pairing) model over the teams of a finished match.

One rating per game family (56, 55): the families score differently and people who play both are not equally
good at both; presets of a family share one (the same cards and judgement, and a finer split would leave most
ratings provisional for ever).

- Each person is a ``(mu, sigma)``; a team is its members; the match's places (0 won) are the ranks.
- Computer players are fixed anchors, one per level (:data:`ANCHORS`): they enter the update with a small
  sigma and their new values are thrown away, so a group that plays with computers gets numbers on one scale.
- A rating is **provisional** until :data:`PROVISIONAL` rated matches; every page and API ``display`` field
  shows it as one figure, :func:`display`: ``mu`` on an Elo-like scale where a new player is 1500 (a win raises
  it, a loss lowers it, as on chess sites), never below 0; pages mark a provisional figure "1500?".
- **Who is rated** (:func:`judges`): a person's rating moves only against opponents whose strength is known.
  A team *judges* when it is all computers or has a person whose rating is established (:data:`PROVISIONAL`
  rated matches); a computer beside only provisional people does not make a team judge.  Each team is rated
  against the opposing teams that judge it and no others (in a two-team match: only when the other team
  judges; none: not rated).  So "me + a computer against my new second account + a computer" at an empty
  table moves neither rating, as a new account's thrown losses would otherwise lift mine; the new account's
  own rating moves against an established one, and a newcomer's against the regulars.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import ThurstoneMostellerFull

MODEL = ThurstoneMostellerFull()
"""The library's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300."""

PROVISIONAL = 10
"""Rated matches before a rating is established (shown plainly, and counted as an opponent's anchor)."""

ANCHORS: dict[str, float] = {"beginner": 18.0, "club": 25.0, "expert": 29.0}
"""Each computer level's fixed mu: the club level is a new person's starting mu; beginner and expert sit
about 1.7 beta either side, roughly the 60-65% share of deal pairs the levels win against each other
(bots/levels.py FIGURES)."""

ANCHOR_SIGMA = 1.0


@dataclass(frozen=True)
class Entry:
    """One member of a team in an update: a person (``player`` id) or a computer anchor (``player`` None)."""

    player: str | None
    mu: float
    sigma: float
    matches: int = 0

    @property
    def established(self) -> bool:
        return self.player is None or self.matches >= PROVISIONAL


def new_entry(player: str) -> Entry:
    return Entry(player, MODEL.mu, MODEL.sigma, 0)


def anchor(game: str, bot: str) -> Entry:
    """The fixed anchor of the computer player ``bot`` (a level's bot name, options after a comma) in
    ``game``; a bot that is no level counts as a beginner."""
    from ...bots.levels import levels_for  # the bots when a match with a computer is rated: a quick start

    base = bot.split(",")[0]
    level = next((lv for lv, name in levels_for(game).items() if name.split(",")[0] == base), "beginner")
    return Entry(None, ANCHORS.get(level, ANCHORS["beginner"]), ANCHOR_SIGMA)


def judges(members: list[Entry]) -> bool:
    """Whether a team's result says something of its opponents: all computers, or an established person in it."""
    return all(e.player is None for e in members) or any(e.player is not None and e.established for e in members)


def judged(teams: list[list[Entry]], team: int) -> list[int]:
    """The teams ``team`` is rated against: itself and the other teams that judge, in the match's order; empty
    when no other team judges (or ``team`` has no person), and then it is not rated."""
    others = [u for u, members in enumerate(teams) if u != team and judges(members)]
    if not others or all(e.player is None for e in teams[team]):
        return []
    return sorted([team, *others])


def rate(teams: list[list[Entry]], ranks: list[int]) -> list[list[tuple[float, float]]]:
    """Every member's new ``(mu, sigma)`` (the library's own update; ranks: 0 best, ties equal)."""
    rated = MODEL.rate([[MODEL.rating(mu=e.mu, sigma=e.sigma) for e in members] for members in teams],
                       ranks=[float(r) for r in ranks])
    return [[(float(r.mu), float(r.sigma)) for r in members] for members in rated]


def shown(mu: float, sigma: float) -> float:
    """The conservative estimate ``mu - 3 sigma`` (the value the player is 99.7% likely to be above): for tools."""
    return mu - 3 * sigma


START = 1500
"""The figure of a new player (the library's starting mu), as on chess sites."""

SCALE = 50
"""Figure points per unit of mu: 400 points (about 8 mu, ~1.9 beta sqrt 2) is the Elo scale's 10-to-1 odds."""


def display(mu: float) -> int:
    """The one rating figure every page shows: ``max(0, round(1500 + 50 (mu - 25)))``."""
    return max(0, round(START + SCALE * (mu - MODEL.mu)))

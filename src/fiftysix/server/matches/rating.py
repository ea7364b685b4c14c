"""Team-aware ratings: openskill's Thurstone-Mosteller (full pairing) model over the teams of a finished match.

One rating per game family (56, 55): the families score differently and people who play both are not equally
good at both; presets of a family share one (the same cards and judgement, and a finer split would leave most
ratings provisional for ever).

- Each person is a ``(mu, sigma)``; a team is its members; the match's places (0 won) are the ranks.
- Computer players are fixed anchors, one per level (:data:`ANCHORS`): they enter the update with a small
  sigma and their new values are thrown away, so a group that plays with computers gets numbers on one scale.
- A rating is **provisional** until :data:`PROVISIONAL` rated matches; it is shown as ``mu - 3 sigma``
  (:func:`shown`), the value the player is 99.7% likely to be above, which rises as the uncertainty falls.
- **Who counts** (:func:`counts`): a person's match is rated only if some other team has a computer anchor or
  a person whose rating is no longer provisional.  Two new accounts alone at a table rate nothing, so a
  second account made for farming must first play :data:`PROVISIONAL` matches against computers or people.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import ThurstoneMostellerFull

from ...bots.levels import levels_for

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
    base = bot.split(",")[0]
    level = next((lv for lv, name in levels_for(game).items() if name.split(",")[0] == base), "beginner")
    return Entry(None, ANCHORS.get(level, ANCHORS["beginner"]), ANCHOR_SIGMA)


def counts(teams: list[list[Entry]], team: int) -> bool:
    """Whether a person of ``team`` is rated: some other team has an anchor or an established person."""
    return any(e.established for t, members in enumerate(teams) if t != team for e in members)


def rate(teams: list[list[Entry]], ranks: list[int]) -> list[list[tuple[float, float]]]:
    """Every member's new ``(mu, sigma)`` (the library's own update; ranks: 0 best, ties equal)."""
    rated = MODEL.rate([[MODEL.rating(mu=e.mu, sigma=e.sigma) for e in members] for members in teams],
                       ranks=[float(r) for r in ranks])
    return [[(float(r.mu), float(r.sigma)) for r in members] for members in rated]


def shown(mu: float, sigma: float) -> float:
    """The conservative figure a page shows: ``mu - 3 sigma``."""
    return mu - 3 * sigma

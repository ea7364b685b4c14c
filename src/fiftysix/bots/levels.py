"""Levels for the table page: what a beginner, a club player and an expert partner or opponent is, by game
(each game's kit names them: ``GameKit.levels``), and what each level is measured to gain over the level it is
compared with (:data:`FIGURES`, shown where a host picks the computer players).

Each level is a bot the server offers (a plain name, so a table's ``fill`` can be it). The measurements and
their commands are in docs/bots.md ("Levels" and "Panel"): in 56 ``rules`` < ``pimc`` < ``sage``, in 55
``random`` < ``rules`` < ``pimc``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from .kits import KITS


@dataclass(frozen=True)
class LevelFigure:
    """A level's measured strength, one of two kinds.

    ``kind == "rating"`` (56): the panel's Bradley-Terry rating of the level's bot (docs/bots.md "Panel"), as the
    share of duplicate deal pairs it wins against the ``over`` level's bot (``value``, percent, with the 95%
    interval ``low``-``high``), over every pairing of the panel on ``preset`` (presets joined by commas).
    ``kind == "difference"`` (55): the paired duplicate difference a deal of its bot over the ``over`` level's
    bot in a duel, in ``unit`` (points), with its 95% interval.  ``pairs``: the deal pairs of each pairing.
    """

    kind: str
    value: float
    low: float
    high: float
    over: str
    preset: str
    pairs: int
    unit: str = ""


FIGURES: dict[str, dict[str, LevelFigure]] = {
    # the panel on the reporting seeds (5628), fast settings (docs/bots.md "Panel results"): the lines
    # .venv/bin/python bench/level_figures.py docs/arena/panel-56.json prints
    "56": {
        # pimc: rating +0.385 [+0.297, +0.486]
        "club": LevelFigure("rating", 59.5, 57.4, 61.9, "beginner", "56-4,56-6", 400),
        # sage: rating +0.586 [+0.500, +0.672] (sage a member since issue 47: pimc played it too)
        "expert": LevelFigure("rating", 64.2, 62.2, 66.2, "beginner", "56-4,56-6", 400),
    },
    "55": {
        # fiftysix arena --rules 55 --bot rules --bot random --deals 1000 --seed 5628
        "club": LevelFigure("difference", +23.942, +23.350, +24.535, "beginner", "55", 1000, "points"),
        # fiftysix arena --rules 55 --bot pimc --bot rules --deals 2000 --seed 1 (docs/arena/pimc-vs-rules-55.json)
        "expert": LevelFigure("difference", +1.609, +1.273, +1.945, "club", "55", 2000, "points"),
    },
}


def levels_for(game: str) -> dict[str, str]:
    """Level → bot name for ``game``, from the game's kit (empty for a game without bots)."""
    kit = KITS.get(game)
    return dict(kit.levels) if kit is not None else {}


def club_bot(game: str) -> str:
    """The computer player a host gets unless they ask for another: the club level (``random`` only by name)."""
    levels = levels_for(game)
    return levels.get("club") or next(iter(levels.values()), "random")


def figures_for(game: str) -> dict[str, dict[str, object]]:
    """Level → its :class:`LevelFigure` as JSON (the server keeps those of the levels it offers)."""
    return {level: asdict(f) for level, f in FIGURES.get(game, {}).items()}

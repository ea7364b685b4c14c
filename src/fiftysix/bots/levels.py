"""Levels for the table page: what a beginner, a club player and an expert partner or opponent is, by game
(each game's kit names them: ``GameKit.levels``).

Each level is a bot the server offers (a plain name, so a table's ``fill`` can be it). Measured strength is in
docs/bots.md ("Levels"): in 56 ``rules`` < ``pimc`` (+0.375 tables a deal at 56-6, +0.409 at 56-4 against
``rules`` over 2,000 pairs) < ``sage`` (+0.90 at 56-4 against ``pimc``, 2,000 pairs, fast setting). In 55:
``random`` < ``rules`` < ``pimc``.
"""

from __future__ import annotations

from .kits import KITS


def levels_for(game: str) -> dict[str, str]:
    """Level → bot name for ``game``, from the game's kit (empty for a game without bots)."""
    kit = KITS.get(game)
    return dict(kit.levels) if kit is not None else {}

"""The bots' kit for 56 (:class:`~fiftysix.bots.kits.GameKit`): the ``rules`` player, the ISMCTS policy,
the ``pimc`` auction and trump choice by simulation, how deep the play is solved, and what a trusted partner does
not do."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from ..kits import CardModel, Chooser, Trust, register_kit
from . import cardmodel56, pimc_auction56, trust56
from .policy56 import Policy56


class Goal56:
    """The declaring team wants its contract, the others its defeat; with two teams the points are zero-sum."""

    scale = 56.0
    cap: int | None = None
    zero_sum = True

    def defence(self, defeat: float, n_teams: int) -> float:
        return defeat


class Kit56:
    name = "56"
    goal = Goal56()
    pimc_choosers: Mapping[str, Chooser] = {"auction": pimc_auction56.choose_call,
                                            "trump": pimc_auction56.choose_trump}
    replays_from_hands = True
    levels: Mapping[str, str] = {"beginner": "rules", "club": "pimc", "expert": "sage"}
    """The table page's levels, each a bot the server offers (measured in docs/bots.md, "Levels")."""
    trust: Trust | None = trust56
    sage_bid_margin: float | None = 0.4
    """Tables a bid must gain over passing (pimc: 0.05). With pimc's margin the calls' chances of making
    run high (over 197 self-play contracts at 56-6 the chance foreseen was 0.66 on average, 0.54 came true); the
    sweep at 200 pairs against pimc gave +0.64 (0.2), +0.96 (0.4), +0.82 (0.6), +0.76 (0.8) tables a deal at 56-6
    and +1.25 (0.4) at 56-4 (docs/bots.md, "sage")."""

    @property
    def card_model(self) -> CardModel:
        return cardmodel56.shipped()    # read from the package when first asked for

    ismcts_policy = staticmethod(cache(Policy56))
    """The ISMCTS rollout policy: one, built when first asked for."""

    def dd_tricks(self, players: int, fast: bool = False) -> tuple[int, int]:
        """Chosen from ``bench/pimc_speed.py`` (CPU time of one core, 8 sampled deals solved for every card;
        measured with an earlier solver, slower than today's, and the depths were kept, so these are upper
        bounds): at six players, 5 cards held 34 ms median (p90 72 ms), 6 cards 126 ms (p90 400 ms), 7 cards
        0.7 s (p90 2.3 s, some 10 s); at four players (12 tricks) 7 cards 20 ms, 8 cards 76 ms (p90 230 ms); at
        eight players 4 cards 14 ms, 5 cards 95 ms (p90 0.74 s).  A null-window question per card costs about a
        third of the exact values."""
        exact, reach = {4: (7, 8), 6: (5, 6), 8: (4, 5)}.get(players, (4, 5))
        return (exact - 1, reach - 1) if fast else (exact, reach)

    def search_depth(self, players: int) -> int:
        return self.dd_tricks(players)[1]


KIT = Kit56()
register_kit(KIT)

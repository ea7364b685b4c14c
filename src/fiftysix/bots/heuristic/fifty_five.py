"""The bots' kit for 55 (:class:`~fiftysix.bots.kits.GameKit`): the ``rules`` player, the ISMCTS policy,
the ``pimc`` bids, discard and trump choice by simulation, and how deep the play is solved."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from ..kits import CardModel, Chooser, Trust, register_kit
from . import pimc55
from .policy55 import Policy55


class Goal55:
    """The bidder's side wants its bid (60: all five tricks, 30 points); every other side wants points, and a
    little the bidder's defeat."""

    scale = 30.0
    cap: int | None = 30
    zero_sum = False

    def defence(self, defeat: float, n_teams: int) -> float:
        return 0.5 * defeat / max(n_teams - 1, 1)


class Kit55:
    name = "55"
    goal = Goal55()
    pimc_choosers: Mapping[str, Chooser] = {"auction": pimc55.choose_call, "discard": pimc55.choose_discard,
                                            "trump": pimc55.choose_trump}
    replays_from_hands = False      # the kitty and the discards are not in the seats' hands
    levels: Mapping[str, str] = {"beginner": "random", "club": "rules", "expert": "pimc"}
    trust: Trust | None = None      # not defined for 55 (issue 18 asks it of 56)
    card_model: CardModel | None = None     # none trained for 55
    sage_bid_margin: float | None = None    # not measured for 55: sage calls as pimc

    ismcts_policy = staticmethod(cache(Policy55))
    """The ISMCTS rollout policy: one, built when first asked for."""

    def dd_tricks(self, players: int, fast: bool = False) -> tuple[int, int]:
        """55 deals (five tricks) at up to six players take a few ms to solve; at more players some take
        minutes."""
        depth = 5 if players <= 6 else 3
        return (depth - 1, depth - 1) if fast else (depth, depth)

    def search_depth(self, players: int) -> int:
        return 99     # 55's hands are short: the play is always searched


KIT = Kit55()
register_kit(KIT)

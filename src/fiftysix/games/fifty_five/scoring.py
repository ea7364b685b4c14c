"""55 scoring: what a deal is worth to each side, and who reached the target first.

Every side except the bidder's adds what it took (5 a trick, 5 more for the highest trump of the deal).
The bidder's side adds its points if they reach the bid and loses the bid otherwise; a bid of 60 scores
+60 for all five tricks and ``-sixty_fail`` otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence

from .auction import Contract
from .rules import BONUS, SLAM, TRICK_POINTS, TRICKS, Rules55


def is_made(contract: Contract, points: Sequence[int], tricks_won: Sequence[int]) -> bool:
    """Whether the bidder's side made its contract (60: all five tricks; otherwise the points)."""
    if contract.value == SLAM:
        return tricks_won[contract.team] == TRICKS
    return points[contract.team] >= contract.value


def deal_score(rules: Rules55, contract: Contract, points: Sequence[int], made: bool) -> list[int]:
    """The change this deal makes to each side's score."""
    score = list(points)
    if contract.value == SLAM:
        score[contract.team] = SLAM if made else -rules.sixty_fail
    elif not made:
        score[contract.team] = -contract.value
    return score


def first_to_reach(rules: Rules55, before: Sequence[int], score: Sequence[int], trick_sides: Sequence[int],
                   bonus_trick: int | None, contract: Contract | None) -> int | None:
    """The side that wins the match in this deal, or ``None`` if no side reaches the target.

    :param before: each side's score before the deal.
    :param score: what the deal changes per side.
    :param trick_sides: the side that won each trick, in order.
    :param bonus_trick: the index of the trick in which the highest trump of the deal was played.

    When several sides reach the target, the one that got there first wins, counting trick by trick: the
    highest-trump bonus counts at its trick, and the bidder's side counts only if it made its contract
    (with ``bidder_first``, a bidder's side that made its contract and reached the target wins outright).
    """
    target = rules.target
    reached = [s for s in range(len(before)) if before[s] + score[s] >= target]
    if len(reached) <= 1:
        return reached[0] if reached else None
    # A side that reaches the target gained points, so a bidder's side among them made its contract.
    bidder_side = contract.team if contract is not None else None
    if rules.bidder_first and bidder_side in reached:
        return bidder_side
    running = list(before)
    for k, side in enumerate(trick_sides):
        # The highest trump of the deal wins its own trick, so one side gains per trick: no ties.
        running[side] += TRICK_POINTS + (BONUS if k == bonus_trick else 0)
        if running[side] >= target and side in reached:
            return side
    return reached[0]  # pragma: no cover - the tricks add up to the deal's points

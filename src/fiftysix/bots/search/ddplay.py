"""Card play by Perfect Information Monte Carlo: sample deals, solve each double dummy, average.

Every sampled deal (the game's sampler, :func:`fiftysix.bots.sampling.sampler_for`, at the view's position) is
solved with
:func:`fiftysix.solver.card_values`, which gives for each legal card the points the bot's side can force
from the cards still to be played.  A card's score is the share of samples in which its side then
reaches its goal, plus ``points_weight`` times its average points over 56 (or 30 in 55).  Deeper in the
deal, where exact values cost too much, only the goal is asked (:func:`fiftysix.solver.can_reach` after
each card) and ties go to the ``rules`` bot's card.  The goals:

* 56: the declaring team wants its contract, the others its defeat.  With two teams the values say both
  (the points are zero-sum); with more teams a defending card is judged by
  :func:`fiftysix.solver.can_reach` (can the declaring team still make it against everybody else?).
* 55: the bidder's side wants its bid; every other side wants points, and a little the bidder's defeat.
"""

from __future__ import annotations

from collections.abc import Callable

from ...core.cards import Card
from ...games.spec import Observation
from ...solver import Position, can_reach, card_values
from ..base import clock
from ..kits import Decision, SearchContext, kit_for
from ..kits import Goal as GoalRule

CanReach = Callable[[Position, int, int], bool]


def choose_card(ctx: SearchContext, cards: list[str], n: int, exact: bool = True,
                preferred: str | None = None, spent: float = 0.0) -> Decision:
    """The card with the best average score over up to ``n`` sampled deals (fewer if time runs out).

    :param exact: solve each deal for the value of every card (:func:`~fiftysix.solver.card_values`);
        otherwise only ask, card by card, whether the goal can still be reached (null-window searches,
        several times faster on deep positions), and break ties with ``preferred``.
    :param spent: CPU seconds this decision has used already (they count against the bot's time limit).
    """
    start = clock()
    sampler = ctx.sampler()
    goal = Goal(ctx.obs, ctx.kit.goal)
    time_limit, points_weight = ctx.settings.time_limit, ctx.settings.points_weight
    totals = dict.fromkeys(cards, 0.0)
    parsed = {c: Card.parse(c) for c in cards}
    done = 0
    limit = None if time_limit is None else time_limit - spent
    for _ in range(n):
        if limit is not None and done >= 2:
            used = clock() - start
            if used + used / done > limit:
                break
        deal = sampler.sample(ctx.rng)
        pos = Position.from_deal(deal)
        if exact:
            values = card_values(pos)
            for c in cards:
                v = values[parsed[c]]
                totals[c] += goal.reached(pos, parsed[c], v, can_reach) + points_weight * goal.points_share(v)
        else:
            for c in cards:
                totals[c] += goal.reachable(pos, parsed[c], can_reach)
        done += 1
    if not done:
        return Decision(preferred if preferred is not None and preferred in cards else cards[0])
    if preferred in totals:
        totals[preferred] += 0.01 * done   # a tie goes to the heuristic's choice
    best = max(cards, key=lambda c: totals[c])
    return Decision(best, {"how": "solver" if exact else "reach", "samples": done,
                           "scores": {c: round(totals[c] / done, 3) for c in cards}})


class Goal:
    """What the side to move plays for, read from its observation (the game's kit says how a side's goal is
    valued)."""

    def __init__(self, obs: Observation, rule: GoalRule | None = None) -> None:
        self.rule = rule if rule is not None else kit_for(obs.game).goal
        self.team: int | None = obs.contract_team
        self.value: int = obs.contract_value
        if self.rule.cap is not None and self.value > self.rule.cap:
            self.value = self.rule.cap   # 55's 60: all five tricks, which also brings the highest trump
        assert obs.seat is not None
        self.my_team = obs.rules.team_of[obs.seat]
        self.scale = self.rule.scale
        self.n_teams = len(obs.points) or 2

    def points_share(self, value: int) -> float:
        return value / self.scale

    def reachable(self, pos: Position, card: Card, can_reach: CanReach) -> float:
        """1 if after ``card`` the side still reaches its goal (null-window searches only)."""
        if self.team is None:
            return 0.0
        ok = can_reach(pos.play(card), self.team, self.value)
        if self.team == self.my_team:
            return 1.0 if ok else 0.0
        return self.rule.defence(0.0 if ok else 1.0, self.n_teams)

    def reached(self, pos: Position, card: Card, value: int, can_reach: CanReach) -> float:
        """1 if after ``card`` (worth ``value`` to the side to move) the side reaches its goal."""
        if self.team is None:
            return 0.0
        mine = pos.points[self.my_team] + value
        if self.team == self.my_team:
            return 1.0 if mine >= self.value else 0.0
        if self.rule.zero_sum and self.n_teams == 2:
            theirs = pos.points[self.team] + pos.points_left() - value
            return 1.0 if theirs < self.value else 0.0
        defeat = 0.0 if can_reach(pos.play(card), self.team, self.value) else 1.0
        return self.rule.defence(defeat, self.n_teams)

"""56 scoring: the payment table, the multiplier, and how payments move tables or points."""

from __future__ import annotations

from collections.abc import Sequence

from .auction import Contract
from .rules import Rules56


def payment(value: int) -> tuple[int, int]:
    """(paid to the declaring team when made, paid by it when failed) per other team, undoubled."""
    if value <= 39:
        return 1, 2
    if value <= 47:
        return 2, 3
    if value <= 55:
        return 3, 4
    return 4, 5


def amounts(rules: Rules56, contract: Contract) -> tuple[int, int]:
    """Payment per other team when made and when failed, with the double applied."""
    made, failed = payment(contract.value)
    m = contract.multiplier
    if rules.multiplier == "x2x4":
        return made * m, failed * m
    add = {1: 0, 2: 1, 4: 2}[m]
    return made + add, failed + add


def is_made(contract: Contract, points: Sequence[int]) -> bool:
    """Whether the declaring team reached its bid with these card points per team."""
    return points[contract.team] >= contract.value


def deal_score(rules: Rules56, contract: Contract, made: bool) -> list[int]:
    """What this deal changes per team, before any cap on what a team holds.

    ``tables``: payments move between teams.  ``points``: payments are credited to the receiver and
    nothing is taken from the payer.
    """
    t = rules.n_teams
    win, lose = amounts(rules, contract)
    score = [0] * t
    others = [i for i in range(t) if i != contract.team]
    if rules.scoring == "tables":
        if made:
            score[contract.team] = win * len(others)
            for i in others:
                score[i] = -win
        else:
            score[contract.team] = -lose * len(others)
            for i in others:
                score[i] = lose
    else:
        if made:
            score[contract.team] = win * len(others)
        else:
            for i in others:
                score[i] = lose
    return score


def pay_tables(rules: Rules56, contract: Contract, made: bool, tables: list[int]) -> list[int]:
    """The real change in tables when teams can pay at most what they hold.

    A made contract: each other team pays what it can.  A failed one: the declaring team pays the other
    teams in seat order after the declarer until it has nothing left.
    """
    win, lose = amounts(rules, contract)
    change = [0] * len(tables)
    d = contract.team
    if made:
        for i in range(len(tables)):
            if i != d:
                paid = min(win, tables[i])
                change[i] -= paid
                change[d] += paid
        return change
    left = tables[d]
    seen: list[int] = []
    for k in range(1, rules.players):
        team = rules.team_of[(contract.declarer + k) % rules.players]
        if team != d and team not in seen:
            seen.append(team)
    for team in seen:
        paid = min(lose, left)
        left -= paid
        change[team] += paid
        change[d] -= paid
    return change

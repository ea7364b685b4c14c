"""Pure-Python double-dummy search: a plain minimax and an alpha-beta with a transposition table.

Slow but simple enough to be obviously right; the fast kernel (:mod:`fiftysix.solver.kernel`) is tested
against it.  Every value is in points for one team (``team``) from the position on, counting the cards of
the current trick; every other team together plays against it.
"""

from __future__ import annotations

from ..core.cards import Card
from .position import Position

Table = dict[tuple[object, ...], tuple[int, int]]


def minimax(position: Position, team: int | None = None) -> int:
    """Exhaustive minimax (for tiny endings): the points ``team`` (default: the side to move) can force."""
    side = position.team_to_move if team is None else team
    return _minimax(position, side)


def _minimax(pos: Position, team: int) -> int:
    if pos.is_over:
        return 0
    values = [_gain(pos, nxt, team) + _minimax(nxt, team) for nxt in (pos.play(c) for c in pos.legal())]
    return max(values) if pos.team_to_move == team else min(values)


def _gain(before: Position, after: Position, team: int) -> int:
    return after.points[team] - before.points[team]


def alphabeta(position: Position, team: int, alpha: int, beta: int, table: Table | None = None) -> int:
    """Fail-soft alpha-beta: the exact value if it lies strictly inside ``(alpha, beta)``, else a bound
    on the same side of the window.  ``table`` keeps bounds of positions at trick starts between calls."""
    return _ab(position, team, alpha, beta, {} if table is None else table)


def _ab(pos: Position, team: int, alpha: int, beta: int, table: Table) -> int:
    if pos.is_over:
        return 0
    key: tuple[object, ...] | None = None
    if not pos.trick:
        key = (pos.hands, pos.leader, team)
        lo, hi = table.get(key, (0, pos.points_left()))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        alpha, beta = max(alpha, lo), min(beta, hi)
    a0, b0 = alpha, beta
    maximize = pos.team_to_move == team
    best = -1 if maximize else 1000
    for card in pos.legal():
        nxt = pos.play(card)
        g = _gain(pos, nxt, team)
        v = g + _ab(nxt, team, alpha - g, beta - g, table)
        if maximize:
            best = max(best, v)
            alpha = max(alpha, best)
        else:
            best = min(best, v)
            beta = min(beta, best)
        if alpha >= beta:
            break
    if key is not None:
        lo, hi = table.get(key, (0, pos.points_left()))
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        table[key] = (lo, hi)
    return best


def solve(position: Position) -> int:
    """The points the side to move can force from the remaining cards (current trick included)."""
    return alphabeta(position, position.team_to_move, -1, position.points_left() + 1)


def card_values(position: Position) -> dict[Card, int]:
    """For each legal card, the points the side to move can force after playing it (that card's points
    and the rest of the current trick included)."""
    team = position.team_to_move
    table: Table = {}
    out: dict[Card, int] = {}
    for card in position.legal():
        nxt = position.play(card)
        g = _gain(position, nxt, team)
        out[card] = g + alphabeta(nxt, team, -1, nxt.points_left() + 1, table)
    return out


def can_reach(position: Position, team: int, target: int) -> bool:
    """Whether ``team`` can still reach ``target`` card points in the whole deal (points already taken
    count), whatever the other teams play.

    :raises ValueError: if ``team`` is not a team of the position.
    """
    need = position.still_needed(team, target)
    if need is None or need == 0:
        return need == 0        # out of reach, or reached already
    return alphabeta(position, team, need - 1, need) >= need

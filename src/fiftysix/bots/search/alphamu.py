"""αμ in short endings (Cazenave and Ventos, 2019): one plan of ours across all sampled deals.

``pimc`` solves each sampled deal as if it would know that deal at its next move, so it may count on playing
one card in one deal and another in the next from the same visible position (strategy fusion).  αμ keeps our
next ``moves`` cards one plan: a card of ours is chosen once for every deal that reaches the same visible
position.  The opponents choose per deal, against our plan, as in ``pimc``; a partner plays its double-dummy
best card in each deal (were it to choose for our plan, seeing the deal, its card would tell us the deal).

Each node holds the sampled deals (worlds) still consistent with the cards played on the way to it; a
*front* is a set of outcomes, each the set of worlds (a bit mask) in which one plan of ours reaches our
side's goal, with dominated outcomes (subsets of another) dropped.

* our move with more than one planned move left: the union of the cards' fronts (we pick one plan);
* our last planned move: for each card, the worlds in which the card reaches the goal double dummy
  (:func:`fiftysix.solver.card_values`, one solve a world);
* an opponent's move: every combination of the cards' outcomes, each world getting the worst of the cards
  legal in it; a partner's move: its best card in each world, the outcomes of the worlds joined;
* the end of the play: the worlds whose points reach the goal.

At the root a card's score is ``pimc``'s (its share of deals reaching the goal plus ``points_weight`` times
its average points) less what fusion added to it: the share of deals ``pimc`` counted as reached that no one
plan reaches.  Where no fusion is found the card is ``pimc``'s on the same samples; ``moves=1`` is ``pimc``.
The search costs about ``held ** seats`` solves a world, so it runs only where that is small (56-4 from three
cards a hand); past its time budget it gives up and ``pimc`` plays.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...core.cards import Card
from ...solver import Position, can_reach, card_values
from ..base import clock
from ..kits import Decision, SearchContext
from .ddplay import Goal

BUDGET = 4000
"""About the most leaf solves (worlds × ``held ** seats``) αμ plans for: it searches over fewer of the sampled
deals where the tree is larger."""
MIN_WORLDS = 12
"""Fewest sampled deals αμ plans over; where the budget allows fewer, ``pimc`` plays."""
MAX_FRONT = 64
"""Most outcomes a front keeps (the largest first), so that no front grows without bound."""


class OutOfTime(Exception):
    """αμ's time budget ran out; ``pimc`` plays instead."""


def worlds_for(players: int, held: int, samples: int, moves: int) -> int:
    """How many of ``samples`` sampled deals αμ plans over (within :data:`BUDGET`), 0 where it does not run:
    a plan of one move is ``pimc``'s, and with two cards our last is forced."""
    if moves < 2 or held < 3:
        return 0
    worlds = min(samples, BUDGET // held ** players)
    return worlds if worlds >= MIN_WORLDS else 0


def prune(masks: Iterable[int]) -> list[int]:
    """The outcomes no other outcome contains, largest first (at most :data:`MAX_FRONT`)."""
    kept: list[int] = []
    for m in sorted(set(masks), key=lambda x: (-x.bit_count(), x)):
        if not any(m & ~k == 0 for k in kept):
            kept.append(m)
            if len(kept) == MAX_FRONT:
                break
    return kept


class Search:
    """One αμ decision over ``worlds`` (positions, one per sampled deal, our seat to move)."""

    def __init__(self, worlds: list[Position], goal: Goal, moves: int, deadline: float | None) -> None:
        self.worlds = worlds
        self.goal = goal
        self.moves = moves
        self.deadline = deadline
        root = worlds[0]
        self.seat = root.to_move
        self.team = root.team_of[self.seat]
        self.solves = 0

    def card_front(self, card: Card) -> list[int]:
        """The front after our root card ``card`` (legal in every world: our hand and the trick are seen)."""
        if self.moves <= 1:
            return [self._last_move(dict(enumerate(self.worlds)))[card]]
        return self._node({w: p.play(card) for w, p in enumerate(self.worlds)}, self.moves - 1)

    def _node(self, worlds: dict[int, Position], moves_left: int) -> list[int]:
        """The front of a node; ``moves_left``: our planned moves from here, this one included."""
        if self.deadline is not None and clock() > self.deadline:
            raise OutOfTime
        any_pos = next(iter(worlds.values()))
        if any_pos.is_over:
            return [self._mask(w for w, p in worlds.items() if self._made(p))]
        seat = any_pos.to_move
        if seat == self.seat:
            if moves_left <= 1:
                return prune(self._last_move(worlds).values())
            cards = any_pos.legal()     # our hand and the trick: the same in every world
            return prune(m for c in cards for m in self._node({w: p.play(c) for w, p in worlds.items()},
                                                                moves_left - 1))
        if any_pos.team_of[seat] == self.team:
            return self._partner(worlds, moves_left)
        children: dict[Card, dict[int, Position]] = {}
        for w, p in worlds.items():
            for c in p.legal():
                children.setdefault(c, {})[w] = p.play(c)
        valid = self._mask(worlds)
        acc = [valid]
        for sub in children.values():     # each world: the worst of the opponent's cards legal in it
            front = self._node(sub, moves_left)
            legal_in = self._mask(sub)
            acc = prune(a & (f | ~legal_in) & valid for a in acc for f in front)
        return acc

    def _partner(self, worlds: dict[int, Position], moves_left: int) -> list[int]:
        """A partner plays its double-dummy best card in each world (the first of equals), whatever our plan:
        were it to choose for our plan, seeing the world, its card would tell us the world."""
        children: dict[Card, dict[int, Position]] = {}
        for w, p in worlds.items():
            legal = p.legal()
            if len(legal) > 1:
                values = card_values(p)
                self.solves += 1
                card = max(legal, key=lambda c: values[c])
            else:
                card = legal[0]
            children.setdefault(card, {})[w] = p.play(card)
        acc = [0]
        for sub in children.values():     # the children hold other worlds: their outcomes join
            front = self._node(sub, moves_left)
            acc = prune(a | f for a in acc for f in front)
        return acc

    def _last_move(self, worlds: dict[int, Position]) -> dict[Card, int]:
        """For each card of ours, the worlds in which it reaches our goal double dummy."""
        by_card: dict[Card, int] = {}
        for w, p in worlds.items():
            values = card_values(p)
            self.solves += 1
            for c, v in values.items():
                if self.goal.reached(p, c, v, can_reach):
                    by_card[c] = by_card.get(c, 0) | (1 << w)
                else:
                    by_card.setdefault(c, 0)
        return by_card

    def _made(self, pos: Position) -> bool:
        """At the end of the play: whether our side reached its goal (two sides)."""
        declared = pos.points[self.goal.team] >= self.goal.value if self.goal.team is not None else False
        return declared if self.goal.team == self.team else not declared

    @staticmethod
    def _mask(worlds: Iterable[int]) -> int:
        m = 0
        for w in worlds:
            m |= 1 << w
        return m


def choose_card(ctx: SearchContext, cards: list[str], n: int, worlds: int, moves: int,
                budget: float | None) -> Decision | None:
    """The card with the best score over ``n`` sampled deals: ``pimc``'s score less what strategy fusion
    added to it over the first ``worlds`` of them (where αμ's best plan reaches the goal in fewer deals than
    ``pimc`` counted); ``None`` when αμ ran out of ``budget`` CPU seconds (then ``pimc`` chooses)."""
    start = clock()
    goal = Goal(ctx.obs, ctx.kit.goal)
    if goal.team is None or goal.n_teams != 2 or not goal.rule.zero_sum:     # two sides, points zero-sum
        return None
    sampler = ctx.sampler()
    positions = [Position.from_deal(sampler.sample(ctx.rng)) for _ in range(n)]
    points_weight = ctx.settings.points_weight
    parsed = {c: Card.parse(c) for c in cards}
    scores = dict.fromkeys(cards, 0.0)
    counted = dict.fromkeys(cards, 0)      # deals among the first ``worlds`` in which pimc counts the goal reached
    for w, pos in enumerate(positions):
        values = card_values(pos)
        for c in cards:
            reached = goal.reached(pos, parsed[c], values[parsed[c]], can_reach)
            scores[c] += (reached + points_weight * goal.points_share(values[parsed[c]])) / n
            if w < worlds:
                counted[c] += int(reached)
    search = Search(positions[:worlds], goal, moves, None if budget is None else start + budget)
    fusion: dict[str, float] = {}
    try:
        for c in cards:
            best = max((m.bit_count() for m in search.card_front(parsed[c])), default=0)
            fusion[c] = (counted[c] - best) / worlds
    except OutOfTime:
        return None
    final = {c: scores[c] - fusion[c] for c in cards}
    move = max(cards, key=lambda c: final[c])
    return Decision(move, {"how": "alphamu", "samples": n, "worlds": worlds, "solves": search.solves,
                           "scores": {c: round(s, 3) for c, s in final.items()},
                           "fusion": {c: round(f, 3) for c, f in fusion.items()}})

"""αμ in short endings (``pimc,alphamu=2``): the fronts against a brute force over every plan of ours, never
more hopeful than ``pimc``, ``pimc``'s choice where no fusion is found, and where it runs."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fiftysix.bots.base import observed
from fiftysix.bots.kits import kit_for
from fiftysix.bots.protocol import bot_from_spec
from fiftysix.bots.sampling import sampler_for
from fiftysix.bots.search import alphamu
from fiftysix.bots.search.ddplay import Goal
from fiftysix.bots.search.sage import SageBot
from fiftysix.core.cards import Card
from fiftysix.games import game_of_preset
from fiftysix.solver import Position, can_reach, card_values
from fiftysix.views import view


def ending(seed: int, held: int = 3) -> dict[str, Any] | None:
    """The view of the seat to move once it holds ``held`` cards (with a choice) in a 56-4 deal bid by ``rules``
    bots and played at random; ``None`` when no contract was made."""
    game = game_of_preset("56-4")
    rules = game.rules_from_json("56-4")
    match = game.new_match(rules, first_dealer=seed % 4, seed=seed)
    deal = match.new_deal(seed)
    rules_bots = [bot_from_spec("rules", seed=seed + s, game="56") for s in range(4)]
    rng = random.Random(seed)
    while not deal.is_over:
        s = deal.to_move
        v = view(deal, s, match)
        if v["phase"] == "play" and len(v["hand"]) == held and len(v["legal"]) > 1:
            return v
        move = rules_bots[s].choose(v) if v["phase"] != "play" else rng.choice(list(v["legal"]))
        deal.push(move, seat=s)
    return None


def endings(seeds: Iterable[int]) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(seed, view)`` for each of ``seeds`` whose deal reaches an ending (:func:`ending`)."""
    for seed in seeds:
        v = ending(seed)
        if v is not None:
            yield seed, v


def pimc_reached(worlds: list[Position], goal: Goal, card: Card) -> list[bool]:
    """Per world, whether ``card`` reaches the goal double dummy: what ``pimc`` counts."""
    return [bool(goal.reached(p, card, card_values(p)[card], can_reach)) for p in worlds]


def worlds_of(v: dict[str, Any], n: int, seed: int) -> list[Position]:
    sampler = sampler_for(v)
    rng = random.Random(seed)
    return [Position.from_deal(sampler.sample(rng)) for _ in range(n)]


def best_plan(worlds: list[Position], goal: Goal, root: Card, most: int = 12) -> int | None:
    """The most worlds any one plan of ours reaches the goal in (our root card ``root``, then one card at our
    next turn for each sequence of cards seen before it), the opponents choosing per world against it, a
    partner its double-dummy best card: the brute force over every plan.  ``None`` when there are more than
    ``most`` turns of ours with a choice (too many plans)."""
    seat = worlds[0].to_move
    team = worlds[0].team_of[seat]
    starts = [p.play(root) for p in worlds]
    nodes: dict[tuple[Card, ...], tuple[Card, ...]] = {}     # our next turns, by the cards seen before them
    for p in starts:
        stack: list[tuple[Position, tuple[Card, ...]]] = [(p, ())]
        while stack:
            pos, seen = stack.pop()
            if pos.is_over:
                continue
            if pos.to_move == seat:
                nodes[seen] = pos.legal()
                continue
            stack += [(pos.play(c), (*seen, c)) for c in pos.legal()]
    choices = [k for k, cards in nodes.items() if len(cards) > 1]
    if len(choices) > most:
        return None
    solved: dict[tuple[int, tuple[Card, ...]], dict[Card, int]] = {}

    def reaches(w: int, pos: Position, seen: tuple[Card, ...], plan: dict[tuple[Card, ...], Card]) -> bool:
        if pos.is_over:
            made = pos.points[goal.team] >= goal.value   # type: ignore[index]
            return made if goal.team == team else not made
        if pos.to_move == seat:
            card = plan.get(seen, nodes[seen][0])
            if (w, seen) not in solved:
                solved[(w, seen)] = card_values(pos)
            return bool(goal.reached(pos, card, solved[(w, seen)][card], can_reach))
        legal = pos.legal()
        if pos.team_of[pos.to_move] == team:    # a partner: its double-dummy best card, the first of equals
            values = card_values(pos)
            card = max(legal, key=lambda c: values[c])
            return reaches(w, pos.play(card), (*seen, card), plan)
        return all(reaches(w, pos.play(c), (*seen, c), plan) for c in legal)

    best = 0
    for choice in itertools.product(*(nodes[k] for k in choices)):
        plan = dict(zip(choices, choice, strict=True))
        best = max(best, sum(reaches(w, p, (), plan) for w, p in enumerate(starts)))
    return best


def test_the_best_plan_of_the_front_is_the_best_plan_found_by_brute_force() -> None:
    checked = 0
    for seed, v in endings(range(300)):
        worlds = worlds_of(v, 2 + seed % 2, seed)
        goal = Goal(observed(v))
        search = alphamu.Search(worlds, goal, moves=2, deadline=None)
        for root in worlds[0].legal():
            want = best_plan(worlds, goal, root)
            if want is None:
                continue
            assert max(m.bit_count() for m in search.card_front(root)) == want, (seed, v["hand"], root)
            checked += 1
        if checked >= 30:
            break
    assert checked >= 30    # random endings: fusion is rare in them; the guess below has it


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), n=st.integers(1, 6))
def test_a_plan_is_never_more_hopeful_than_pimc_and_one_world_has_no_fusion(seed: int, n: int) -> None:
    v = ending(seed)
    if v is None:
        return
    worlds = worlds_of(v, n, seed)
    goal = Goal(observed(v))
    search = alphamu.Search(worlds, goal, moves=2, deadline=None)
    for root in worlds[0].legal():
        front = search.card_front(root)
        assert all(m >> n == 0 for m in front)          # outcomes are sets of the worlds
        assert alphamu.prune(front) == front               # no outcome inside another
        pimc = sum(pimc_reached(worlds, goal, root))
        best = max(m.bit_count() for m in front)
        assert best <= pimc
        if n == 1:
            assert best == pimc


def test_one_planned_move_is_pimc() -> None:
    for seed, v in endings(range(3, 40)):
        worlds = worlds_of(v, 5, seed)
        goal = Goal(observed(v))
        search = alphamu.Search(worlds, goal, moves=1, deadline=None)
        for root in worlds[0].legal():
            want = sum(1 << w for w, made in enumerate(pimc_reached(worlds, goal, root)) if made)
            assert search.card_front(root) == [want]
        return
    pytest.fail("no ending found")


def test_prune_keeps_the_outcomes_no_other_contains() -> None:
    assert alphamu.prune([0b0011, 0b0001, 0b0110, 0b0010, 0b0011]) == [0b0011, 0b0110]
    assert alphamu.prune([0]) == [0]
    assert alphamu.prune([0b111, 0b101, 0]) == [0b111]


def test_where_it_runs() -> None:
    assert alphamu.worlds_for(players=4, held=3, samples=40, moves=2) == 40
    assert alphamu.worlds_for(players=4, held=4, samples=48, moves=2) == alphamu.BUDGET // 4 ** 4
    assert alphamu.worlds_for(players=4, held=5, samples=48, moves=2) == 0     # too large a tree
    assert alphamu.worlds_for(players=6, held=3, samples=40, moves=2) == 0
    assert alphamu.worlds_for(players=4, held=2, samples=24, moves=2) == 0     # our last card is forced
    assert alphamu.worlds_for(players=4, held=3, samples=40, moves=1) == 0     # one move: pimc
    with pytest.raises(ValueError, match="alphamu must be 0"):
        bot_from_spec("sage,alphamu=-1", seed=1, game="56")


def test_the_bot_plays_pimc_card_unless_a_plan_costs_it() -> None:
    """Same seed, same samples: where αμ finds no fusion for any card, ``sage`` with it plays ``sage``'s card."""
    checked = 0
    for seed, v in endings(range(60)):
        plain = SageBot(seed=seed, time_limit=None, game="56")
        planned = SageBot(seed=seed, time_limit=None, alphamu=2, game="56")
        a, b = plain.choose(v), planned.choose(v)
        assert planned.last["how"] == "alphamu" and b in v["legal"]
        assert planned.reason is not None and "one plan for its next cards" in planned.reason
        assert all(f >= 0 for f in planned.last["fusion"].values())
        if not any(planned.last["fusion"].values()):
            assert a == b
            assert planned.last["scores"] == pytest.approx(plain.last["scores"], abs=1e-3)
        checked += 1
        if checked == 8:
            break
    assert checked == 8


def two_worlds() -> tuple[list[Position], Goal]:
    """A discard to guess: we (seat 0, no trumps) lead the KC, the jacks of seat 1 win two tricks, and on the
    JD we keep the 9 of spades or of hearts; seat 1's last card is the AS in one world, the AH in the other,
    and we need that last trick.  Seeing each world, ``pimc`` keeps the right 9 in both; one plan, in one."""
    def world(ace: str) -> Position:
        hands = [["KC", "9S", "9H"], ["JC", "JD", ace], ["QC", "QD", "KD"], ["TC", "TD", "AD"]]
        return Position.make("56", [[Card.parse(c) for c in h] for h in hands], leader=0, trump=None,
                             points=(24, 10))
    goal = Goal.__new__(Goal)
    goal.rule, goal.team, goal.value, goal.my_team = kit_for("56").goal, 0, 28, 0
    goal.scale, goal.n_teams = 56, 2
    return [world("AS"), world("AH")], goal


def test_a_guess_later_in_the_ending_is_one_plan_not_two() -> None:
    worlds, goal = two_worlds()
    lead = Card.parse("KC")
    assert pimc_reached(worlds, goal, lead) == [True, True]     # pimc: both
    front = alphamu.Search(worlds, goal, moves=2, deadline=None).card_front(lead)
    assert sorted(front) == [0b01, 0b10]      # keep the 9 of spades, or of hearts: one world each
    assert best_plan(worlds, goal, lead) == 1
    assert alphamu.Search(worlds, goal, moves=1, deadline=None).card_front(lead) == [0b11]

"""The double-dummy solver of 56: kernel = reference = brute-force minimax, on random endings and on
positions cut from random deals; card values and the contract question agree with the value."""

from __future__ import annotations

import functools
import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fiftysix import Deal56, Rules56
from fiftysix.core.cards import SUITS, Card, parse_cards
from fiftysix.core.deal import PLAY
from fiftysix.games.fifty_six import play as play56
from fiftysix.games.fifty_six.deal import deck
from fiftysix.solver import Position, PositionError, can_reach, card_values, kernel_available, reference, solve

pytestmark = pytest.mark.skipif(not kernel_available(), reason="numba (extra 'solver') is not installed")

DECKS = {4: (48, 32), 6: (48,), 8: (64, 48)}


def random_ending(rng: random.Random, players: int, tricks: int, pairs: bool = False,
                  deck_size: int | None = None) -> Position:
    """A random position of 56 with ``tricks`` tricks left (the current one included), some of its cards
    perhaps played already; cards drawn from the deck with both copies, so duplicates are common."""
    size = deck_size or rng.choice(DECKS[players])
    rules = Rules56.preset_named("56-6", players=players, deck=size, teams="pairs" if pairs else "two")
    cards = deck(rules)
    rng.shuffle(cards)
    hands = [[cards.pop() for _ in range(tricks)] for _ in range(players)]
    trump = rng.choice([None, *SUITS])
    leader = rng.randrange(players)
    trick: list[Card] = []
    for i in range(rng.randrange(players)):
        seat = (leader + i) % players
        card = rng.choice(play56.legal_cards(tuple(hands[seat]), tuple(trick), trump))
        hands[seat].remove(card)
        trick.append(card)
    points = tuple(rng.randrange(0, 10) for _ in range(rules.n_teams))
    return Position.make("56", hands, trick, leader, trump, rules.team_of, points)


def random_cut(rng: random.Random, preset: str, tricks_left: int, **options: object) -> tuple[Deal56, Position]:
    """A random 56 deal played at random (legal cards) until ``tricks_left`` tricks remain, maybe mid-trick."""
    rules = Rules56.preset_named(preset, **options)
    deal = Deal56.from_seed(rules, rng.randrange(10**9))
    while deal.phase != PLAY:
        deal.push_unchecked(rng.choice(deal.legal_moves()))
    stop = (rules.hand_size - tricks_left) * rules.players + rng.randrange(rules.players)
    while len(deal.play_texts()) < stop:
        moves = [m for m in deal.legal_moves() if isinstance(m, Card)]
        deal.push_unchecked(rng.choice(moves))
    return deal, Position.from_deal(deal)


def engine_minimax(deal: Deal56, team: int) -> int:
    """Brute force over the rules engine itself: the card points ``team`` can force from here."""
    if deal.is_over:
        return 0
    seat = deal.to_move
    values = []
    for move in deal.legal_moves():
        if not isinstance(move, Card):
            continue
        nxt = deal.copy()
        nxt.push_unchecked(move)
        values.append(nxt.points[team] - deal.points[team] + engine_minimax(nxt, team))
    return max(values) if deal.rules.team_of[seat] == team else min(values)


def check_all_engines(pos: Position, brute: bool = True) -> int:
    v_ref = solve(pos, engine="reference")
    v_k = solve(pos, engine="kernel")
    assert v_k == v_ref, pos
    if brute:
        assert reference.minimax(pos) == v_ref, pos
    cv = card_values(pos)
    assert cv == card_values(pos, engine="reference"), pos
    assert set(cv) == set(pos.legal())
    assert max(cv.values()) == v_k
    team = pos.team_to_move
    have = pos.points[team]
    assert can_reach(pos, team, have + v_k) and not can_reach(pos, team, have + v_k + 1)
    other = (team + 1) % pos.n_teams
    v_other = reference.minimax(pos, other) if brute else reference.alphabeta(pos, other, -1, 100)
    for target in (v_other, v_other + 1):
        t = pos.points[other] + target
        assert can_reach(pos, other, t) == (target <= v_other) == can_reach(pos, other, t, engine="reference")
    return v_k


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.sampled_from([4, 6, 8]), st.booleans())
def test_two_trick_endings(seed: int, players: int, pairs: bool) -> None:
    rng = random.Random(seed)
    check_all_engines(random_ending(rng, players, 2, pairs))


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.sampled_from([4, 6]))
def test_three_trick_endings(seed: int, players: int) -> None:
    rng = random.Random(seed)
    check_all_engines(random_ending(rng, players, 3), brute=players == 4)


@pytest.mark.slow
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_three_trick_endings_eight_players(seed: int) -> None:
    rng = random.Random(seed)
    check_all_engines(random_ending(rng, 8, 3, pairs=rng.random() < 0.5), brute=False)


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["56-4", "56-6", "56-8", "56-pairs-6", "56-pairs-8"])
def test_cut_from_random_deals_against_the_engine(preset: str) -> None:
    rng = random.Random(preset)
    for _ in range(6):
        deal, pos = random_cut(rng, preset, 2)
        value = check_all_engines(pos)
        assert value == engine_minimax(deal, deal.rules.team_of[deal.to_move])


@pytest.mark.parametrize("preset", ["56-4", "56-6", "56-8", "56-pairs-6"])
def test_kernel_equals_reference_with_more_tricks_left(preset: str) -> None:
    rng = random.Random(preset + "3")
    for _ in range(5):
        _, pos = random_cut(rng, preset, 3)
        assert solve(pos) == solve(pos, engine="reference")
        cv = card_values(pos)
        assert max(cv.values()) == solve(pos)


def test_four_tricks_left_six_players() -> None:
    rng = random.Random(564)
    for _ in range(3):
        _, pos = random_cut(rng, "56-6", 4)
        assert solve(pos) == solve(pos, engine="reference")


def test_identical_cards_first_played_wins() -> None:
    # 4 players, last trick: seat 0 leads JS, seat 2 (partner) holds the other JS; the first one wins.
    pos = Position.make("56", [parse_cards(h) for h in ("JS", "QS", "JS", "KS")], leader=0)
    assert solve(pos) == 6
    pos = Position.make("56", [parse_cards(h) for h in ("JS", "JS", "QS", "KS")], leader=0)
    assert solve(pos) == 6      # seat 1's copy loses to seat 0's, played first
    assert solve(pos, engine="reference") == 6


def test_hidden_trump_acts_as_no_trump() -> None:
    rules = Rules56.preset_named("56-hidden")
    deal = Deal56.from_seed(rules, seed=5)
    rng = random.Random(5)
    while deal.phase != PLAY:
        deal.push_unchecked(rng.choice(deal.legal_moves()))
    assert not deal.revealed
    assert Position.from_deal(deal).trump is None


def test_end_of_play_and_finished_trick() -> None:
    empty = Position.make("56", [[], [], [], []], leader=2, points=(20, 36))
    assert empty.is_over and solve(empty) == 0 == solve(empty, engine="reference")
    assert card_values(empty) == {} == card_values(empty, engine="reference")
    assert can_reach(empty, 0, 20) and not can_reach(empty, 0, 21)
    last = Position.make("56", [[], [], [], parse_cards("9S")], trick=parse_cards("JS AS TS"), leader=0)
    assert solve(last) == 0 and card_values(last) == {Card.parse("9S"): 0}
    done = last.play(Card.parse("9S"))
    assert done.is_over and done.points == (7, 0) and done.leader == 0
    assert solve(done) == 0 and can_reach(done, 0, 7) and not can_reach(done, 1, 1)


def test_impossible_positions_are_refused() -> None:
    with pytest.raises(PositionError, match="hand sizes"):
        Position.make("56", [parse_cards("JS 9S"), parse_cards("JS"), [], []], leader=0)
    with pytest.raises(PositionError, match="3 times"):
        Position.make("56", [parse_cards(h) for h in ("JS", "JS", "JS", "QS")], leader=0)
    with pytest.raises(PositionError, match="may not play"):
        Position.make("56", [parse_cards(h) for h in ("JS", "QS", "JH", "KS")], leader=0).play(Card.parse("QS"))
    with pytest.raises(ValueError, match="team 5"):
        can_reach(Position.make("56", [[], [], [], []], points=(0, 0)), 5, 1)
    with pytest.raises(ValueError, match="engine"):
        solve(Position.make("56", [[], [], [], []]), engine="magic")
    deal = Deal56.from_seed(Rules56.preset_named("56-6"), seed=1)
    with pytest.raises(PositionError, match="play phase"):
        Position.from_deal(deal)


def test_hidden_trump_turned_up_must_trump_at_the_root() -> None:
    from fiftysix.core.moves import REVEAL
    rng = random.Random(77)
    found = 0
    while found < 4:
        deal = Deal56.from_seed(Rules56.preset_named("56-hidden", players=4, deck=32), seed=rng.randrange(10**9))
        while deal.phase != PLAY:
            deal.push_unchecked(rng.choice(deal.legal_moves()))
        while not deal.is_over and not (REVEAL in deal.legal_moves() and len(deal.hands[deal.to_move]) <= 3):
            deal.push_unchecked(rng.choice([m for m in deal.legal_moves() if m != REVEAL]))
        if deal.is_over or deal.trump is None:
            continue
        deal.push(REVEAL)
        pos = Position.from_deal(deal)
        assert pos.must_trump and pos.trump == deal.trump
        assert set(pos.legal()) == set(deal.legal_moves())
        value = check_all_engines(pos)
        assert value == engine_minimax(deal, deal.rules.team_of[deal.to_move])
        assert not pos.play(pos.legal()[0]).must_trump
        found += 1


@pytest.mark.slow
@pytest.mark.parametrize("bits", [4, 10, 21])
def test_kernel_equals_reference_with_crowded_and_roomy_tables(bits: int) -> None:
    """Random 56-6 and 56-4 positions (3-4 tricks left, often mid-trick) share one table of each size:
    a tiny table replaces entries all the time, a large one keeps them across positions."""
    from fiftysix.solver import fast
    tables = fast.Tables(bits)
    rng = random.Random(f"tables{bits}")
    for i in range(8):
        preset = "56-6" if i % 2 else "56-4"
        _, pos = random_cut(rng, preset, 3 + i % 2 if preset == "56-6" else 4)
        value = fast.solve(pos, tables)
        assert value == solve(pos, engine="reference"), pos
        cv = fast.card_values(pos, tables)
        assert max(cv.values()) == value
        if i < 3:
            assert cv == card_values(pos, engine="reference"), pos


@pytest.mark.slow
def test_trick_cards_below_its_winner_do_not_part_equal_cards() -> None:
    """The kernel's merging of equivalent cards looks, of the current trick, at the card winning it only:
    two equal-point cards of the seat to move with no other seat's card between them (nor the winning
    card), only trick cards that lose to the winner, are worth the same, by the reference's brute force;
    and the kernel agrees with the reference on those positions."""
    rng = random.Random("merge below the winner")
    seen = 0
    for _ in range(2500):
        _, pos = random_cut(rng, rng.choice(["56-4", "56-6", "56-8"]), rng.choice([2, 3]))
        if pos.is_over or not pos.trick:
            continue
        rules, trump = pos.rules, pos.trump
        slot = functools.partial(rules.slot, trump=trump)
        best = slot(pos.trick[rules.trick_winner(pos.trick, trump)])
        others = {slot(c) for q, h in enumerate(pos.hands) if q != pos.to_move for c in h}
        legal = sorted(set(pos.legal()), key=slot)
        for a, b in itertools.pairwise(legal):
            between = set(range(slot(a), slot(b) + 1))
            if (slot(a) >> 4 != slot(b) >> 4 or rules.POINTS[a] != rules.POINTS[b]
                    or between & others or best in between):
                continue
            if not any(slot(c) in between for c in pos.trick):
                continue  # no trick card between them: merged before this rule too
            values = card_values(pos, engine="reference")
            assert values[a] == values[b], pos
            assert card_values(pos) == values, pos
            seen += 1
    assert seen >= 10, seen


def _side_sure_to_win(pos: Position) -> tuple[bool, bool]:
    """For a trick in progress: whether no opponent of the side winning it now can beat its card, and
    whether nobody at all (that side's own players included) can."""
    rules = pos.rules
    w = rules.trick_winner(pos.trick, pos.trump)
    side = pos.team_of[(pos.leader + w) % pos.n]
    no_opponent = nobody = True
    for i in range(len(pos.trick), pos.n):
        seat = (pos.leader + i) % pos.n
        beats = any(rules.trick_winner((*pos.trick, c), pos.trump) == len(pos.trick)
                    for c in rules.legal_cards(pos.hands[seat], pos.trick, pos.trump))
        if beats:
            nobody = False
            if pos.team_of[seat] != side:
                no_opponent = False
    return no_opponent, nobody


@pytest.mark.parametrize("preset", ["56-4", "56-6"])
def test_trick_its_side_wins_whatever_its_own_players_do(preset: str) -> None:
    """The kernel cuts off at a trick that no opponent of the side winning it can still beat, though that
    side's own players may overtake: on such positions (found at random) it agrees with the reference
    and brute force, and with null windows on either side of the value (where the cut fires)."""
    rng = random.Random(preset + "side wins")
    found = 0
    while found < 12:
        _, pos = random_cut(rng, preset, 2)
        if not pos.trick or len(pos.trick) == pos.n or pos.must_trump:
            continue
        no_opponent, nobody = _side_sure_to_win(pos)
        if not no_opponent or nobody:
            continue
        found += 1
        check_all_engines(pos)


def test_table_key_up_to_plain_suits_and_relative_ranks() -> None:
    """The table's hash: equal for positions that play alike (two plain suits exchanged; cards gone from
    between), different when a card changes hands or trumps change."""
    import numpy as np

    from fiftysix.solver import kernel as k
    from fiftysix.solver.encode import encode

    def key(hands: list[str], trump: str | None) -> int:
        pos = Position.make("56", [parse_cards(h) for h in hands], (), 0,
                            None if trump is None else Card.parse("J" + trump).suit, (0, 1, 0, 1))
        e = encode(pos, 0)
        held = np.zeros(k.SLOTS, dtype=np.int64)
        h = int(k._canon_hash(e.one, e.two, 4, e.pts, e.priv, e.ctx[k.C_TRUMP], held,
                              np.zeros(4, dtype=np.int64))[1])
        assert not held.any()   # the scratch array is left clean for the next call
        return h

    base = key(["JS 9H", "AS 9S", "JH QH", "QS KH"], "C")
    assert key(["JH 9S", "AH 9H", "JS QS", "QH KS"], "C") == base      # spades and hearts exchanged
    assert key(["JS 9H", "AS 9S", "JH QH", "KS KH"], "C") == base      # QS -> KS: nothing between them
    assert key(["JS 9H", "9S AS", "JH QH", "QS KH"], "C") == base      # order within a hand
    assert key(["JS 9H", "AS 9S", "JH QH", "QS KH"], "S") != base      # trumps change
    assert key(["9S 9H", "AS JS", "JH QH", "QS KH"], "C") != base      # JS changes hands
    assert key(["JS JS", "AS 9S", "9H QH", "QS KH"], "C") != base      # one seat holds both JS
    assert key(["JS 9H", "AS JS", "9S QH", "QS KH"], "C") != key(["JS 9H", "AS 9S", "JS QH", "QS KH"], "C")


@pytest.mark.parametrize("preset", ["56-4", "56-6", "56-8"])
def test_driver_from_any_guess_gives_the_value(preset: str) -> None:
    """The null-window driver without a guess (a third of the way up) and from guesses below, at and
    above the value (galloping, then bisecting) agree with the reference, each with a fresh table."""
    from fiftysix.solver import fast
    from fiftysix.solver.encode import encode

    rng = random.Random(preset + "driver")
    for _ in range(6):
        _, pos = random_cut(rng, preset, 3)
        if pos.must_trump:
            continue
        value = solve(pos, engine="reference")
        e = encode(pos, pos.team_to_move)
        for guess in (-1, 0, 1, value - e.fixed, value - e.fixed + 3, 60):
            assert e.fixed + fast._mtdf(e, fast.Tables(10), guess) == value, (pos, guess)


@pytest.mark.parametrize("players", [4, 6])
def test_sure_points_never_exceed_what_a_side_can_force(players: int) -> None:
    """The kernel's sure points at a trick start (top trumps or the leader's cashing, with the other
    players' cheapest cards to those tricks) are a lower bound of what each side can force, checked
    against the reference on random endings; often exact, and often above the points the side holds
    itself (the other side's cards to its tricks), so neither part is idle."""
    from fiftysix.solver import kernel as k
    from fiftysix.solver.encode import encode

    rng = random.Random(f"sure points {players}")
    exact = beyond_own = 0
    for _ in range(80):
        ending = random_ending(rng, players, rng.choice([2, 3]))
        hands = [list(h) for h in ending.hands]
        size = min(len(h) for h in hands)
        pos = Position.make("56", [h[:size] for h in hands], (), ending.leader, ending.trump, ending.team_of)
        e = encode(pos, 0)
        pm = [sum(1 << s for s in range(k.SLOTS) if e.pts[s] == p) for p in range(3)]
        sure = k._sure_points(e.one, e.two, pos.n, e.team, 0, e.ctx[k.C_TRUMP], pos.leader, e.pts, *pm)
        value = reference.alphabeta(pos, 0, -1, 100)
        forced = (value, pos.points_left() - value)
        held = [sum(pos.rules.POINTS[c] for q in range(pos.n) if pos.team_of[q] == side
                    for c in pos.hands[q]) for side in (0, 1)]
        for side in (0, 1):
            assert sure[side] <= forced[side], (pos, sure, forced)
            exact += sure[side] == forced[side] > 0
            beyond_own += sure[side] > held[side]
    assert exact >= 5 and beyond_own >= 5, (exact, beyond_own)


@pytest.mark.slow
def test_search_kernel_stays_in_integers() -> None:
    """The search keeps some indices unsigned (numba then skips its negative-index wraparound); where an
    unsigned and a signed integer meet, numba computes in floating point.  The search, compiled afresh
    (numba does not show the code it loads from its cache), has no conversion to floating point and no
    floating-point comparison."""
    from numba import njit, types

    from fiftysix.solver import kernel as k

    a1, a2, a3 = (types.Array(types.int64, d, "C") for d in (1, 2, 3))
    sig = (a1, a1, a1, a1, a1, types.int64, a3, a3, a2, a2, a2, a2, a1)
    fresh = njit(k._ab.py_func)
    fresh.compile(sig)
    ir = fresh.inspect_llvm(sig)
    assert "_ab" in ir
    assert "sitofp" not in ir and "uitofp" not in ir and "fcmp" not in ir

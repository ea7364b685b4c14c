"""The vector env (fiftysix.research.vector): the same game as the single-table adapters, step by step; the
compact observation shows a seat nothing it may not see; illegal actions are refused and change nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from fiftysix.core.cards import Card  # noqa: E402
from fiftysix.core.deal import Deal  # noqa: E402
from fiftysix.core.moves import Discard, Move, TrumpChoice  # noqa: E402
from fiftysix.games.fifty_six import TRUMP_CHOICES  # noqa: E402
from fiftysix.research.table import Table, deal_from  # noqa: E402
from fiftysix.research.vector import VectorEnv, encode_view  # noqa: E402


def single_table(env: VectorEnv, i: int) -> Table:
    """The adapters' single table (the PettingZoo and OpenSpiel state) dealt the hands of table ``i``."""
    table = Table(env.enc)
    for kind in deal_from(env.enc, env.deals[i].dealt, getattr(env.deals[i], "kitty", ())):
        table.deal_card(kind)
    return table


@pytest.mark.parametrize(("preset", "seeds"), [("56-6", range(3)), ("56-4", [7]), ("56-hidden", [8]),
                                                ("56-announce", [9]), ("55", [10, 11]), ("55-6", [12]),
                                                ({"preset": "55-teams-4", "discards": "closed"}, [13, 14])])
def test_the_vector_env_equals_the_single_env_step_by_step(preset: Any, seeds: range | list[int]) -> None:
    """100 deals of 56 (20 tables, 5 resets) and 100 of 55 (with its kitty, the discard made card by card and
    closed discards): at every step the same seat to move, the same legal actions,
    the same observation for every seat as the one built from that seat's JSON view, the same rewards."""
    env = VectorEnv(preset, num_tables=20, autoreset="SameStep", reward_seat="all")
    rng = np.random.default_rng(0)
    compared = 0
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        tables = [single_table(env, i) for i in range(env.num_tables)]
        live = set(range(env.num_tables))
        while live:
            for i in live:
                t = tables[i]
                assert t.to_move == info["to_move"][i]
                assert env.legal_actions(i) == t.legal_actions()
                assert np.flatnonzero(info["action_mask"][i]).tolist() == t.legal_actions()
                assert np.array_equal(obs[i], encode_view(env.enc, t.seat_view(t.to_move)))
                for seat in range(env.n):
                    assert np.array_equal(env.observe(i, seat), encode_view(env.enc, t.seat_view(seat)))
                compared += 1
            actions = env.sample_legal(rng)
            obs, rewards, terminations, truncations, info = env.step(actions)
            assert not truncations.any()
            for i in list(live):
                tables[i].apply(int(actions[i]))
                deal = tables[i].deal
                assert deal is not None
                if terminations[i]:
                    assert deal.is_over
                    assert rewards[i].tolist() == env.enc.returns(deal)
                    live.discard(i)
                else:
                    assert not deal.is_over and not rewards[i].any()
    assert compared > 20 * len(seeds) * 30


def test_a_seed_and_the_actions_replay_every_table() -> None:
    def run(seed: int) -> list[object]:
        env = VectorEnv("56-6", num_tables=8)
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(5)
        out: list[object] = [obs.copy(), info["deal_seed"].copy()]
        for _ in range(150):
            obs, rewards, terminations, _, info = env.step(env.sample_legal(rng))
            out += [obs.copy(), rewards.copy(), terminations.copy(), info["deal_seed"].copy()]
        return out

    a, b, c = run(3), run(3), run(4)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


def test_dealing_is_the_seeded_chance_step() -> None:
    """Each deal is game.new_deal(rules, seed=info["deal_seed"][i], dealer=env.dealer); its actions replay it."""
    env = VectorEnv("56-4", num_tables=4, autoreset="SameStep", reward_seat="all")
    _, info = env.reset(seed=11)
    seeds = info["deal_seed"].tolist()
    deals = [env.game.new_deal(env.rules, seed=s, dealer=env.dealer) for s in seeds]
    assert [d.dealt for d in deals] == [d.dealt for d in env.deals]
    assert len(set(seeds)) == 4
    rng = np.random.default_rng(2)
    done = [False] * 4
    while not all(done):
        actions = env.sample_legal(rng)
        for i, a in enumerate(actions.tolist()):
            if not done[i]:
                move = env.bank.moves[a]
                deals[i].push(move)
        _, rewards, terminations, _, info = env.step(actions)
        for i in range(4):
            if terminations[i] and not done[i]:
                done[i] = True
                assert deals[i].is_over
                assert rewards[i].tolist() == env.enc.returns(deals[i])
                assert info["deal_seed"][i] != seeds[i]     # the next deal's seed
            elif not done[i]:
                assert env.deals[i].history == deals[i].history


def test_an_illegal_action_is_refused_naming_the_table_and_changes_nothing() -> None:
    env = VectorEnv("56-4", num_tables=3)
    obs, info = env.reset(seed=1)
    actions = env.sample_legal(np.random.default_rng(0))
    bad = int(np.flatnonzero(~info["action_mask"][1])[-1])     # a card: nobody plays one in the auction
    actions[1] = bad
    before = [[env.observe(i, s).copy() for s in range(env.n)] for i in range(3)]
    moves = [len(d.history) for d in env.deals]
    with pytest.raises(ValueError, match=rf"table 1: action {bad} \({env.enc.action_text(bad)}\) is not legal "
                                         r"for seat 0 now \(auction\); legal: 0 \(P\), .*28S"):
        env.step(actions)
    assert [len(d.history) for d in env.deals] == moves
    assert all(np.array_equal(env.observe(i, s), before[i][s]) for i in range(3) for s in range(env.n))
    actions[1] = env.num_actions
    with pytest.raises(ValueError, match=rf"table 1: action {env.num_actions} \(not an action: actions are 0-"):
        env.step(actions)
    with pytest.raises(ValueError, match="actions must be 3 integers"):
        env.step(actions[:2])
    with pytest.raises(ValueError, match="actions must be 3 integers"):
        env.step(actions.astype(float))
    assert [len(d.history) for d in env.deals] == moves


def test_bad_parameters_say_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="dealer must be a seat, 0-3"):
        VectorEnv("56-4", dealer=-5)
    with pytest.raises(ValueError, match="num_tables must be an int of at least 1"):
        VectorEnv("56-4", num_tables=0)
    with pytest.raises(Exception, match="unknown preset '56'"):
        VectorEnv("56")


def test_a_rules_object_plays_its_options() -> None:
    env = VectorEnv({"preset": "56-4", "trump": "hidden", "claim": True}, num_tables=16)
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(1)
    seen = set()
    for _ in range(600):
        obs, _, _, _, info = env.step(env.sample_legal(rng))
        seen |= {env.enc.action_text(int(a)) for a in np.flatnonzero(info["action_mask"].any(axis=0))}
    assert {"?", "CLAIM", "NT"} <= seen


def test_reset_to_a_chosen_deal_and_records() -> None:
    """A table can be put at any position of any deal (a deal object or a JSON deal record)."""
    env = VectorEnv("56-6", num_tables=2)
    env.reset(seed=0)
    rng = np.random.default_rng(3)
    for _ in range(30):
        env.step(env.sample_legal(rng))
    record = env.record(0)
    other = VectorEnv("56-6", num_tables=3)
    other.reset(seed=9)
    other.load_record(2, record)
    assert other.record(2) == record
    for seat in range(6):
        assert np.array_equal(other.observe(2, seat), env.observe(0, seat))
    assert other.legal_actions(2) == env.legal_actions(0)
    four = VectorEnv("56-4", num_tables=1)
    four.reset(seed=0)
    with pytest.raises(ValueError, match="table 0: the deal is of other rules"):
        four.load(0, env.deals[0])


# -- no leak: what a seat may not see does not change its observation ------------------------------------

def _replayed(env: VectorEnv, hands: list[list[Card]], history: list[tuple[int, Move]],
              trump: TrumpChoice | None) -> Deal:
    """A deal of ``hands`` with the moves of ``history`` (the trump choice replaced by ``trump`` if given);
    every move is checked by the engine."""
    deal = env.game.read_setup({}, env.rules, env.dealer, hands, None)
    for _, move in history:
        deal.push(trump if trump is not None and isinstance(move, TrumpChoice) else move)
    return deal


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(["56-4", "56-6", "56-hidden"]), seed=st.integers(0, 10_000),
       steps=st.integers(0, 70), seat=st.integers(0, 5), pick=st.integers(0, 10_000),
       trump=st.integers(0, 3))
def test_a_seat_sees_the_same_in_deals_that_differ_only_in_what_it_cannot_see(
        preset: str, seed: int, steps: int, seat: int, pick: int, trump: int) -> None:
    """Pairs of deals built by swapping cards the seat cannot see (two cards of one suit still held by two
    other seats: every move stays legal) and, while a hidden trump is not turned up, by another trump choice
    of the declarer."""
    env = VectorEnv(preset, num_tables=2)
    env.reset(seed=seed)
    deal = env.game.new_deal(env.rules, seed=seed, dealer=env.dealer)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = deal.legal_moves()
        move = legal[rng.randrange(len(legal))]
        probe = deal.copy()
        probe.push(move)
        if probe.is_over:
            break
        deal.push(move)
    seat %= env.n
    hands = [list(h) for h in deal.dealt]
    held = deal.hands
    pairs = [(a, x, b, y) for a in range(env.n) for b in range(a + 1, env.n) if seat not in (a, b)
             for x in dict.fromkeys(held[a]) for y in dict.fromkeys(held[b]) if x != y and x.suit == y.suit]
    d: Any = deal
    new_trump = None
    if d.rules.trump == "hidden" and d.trump_chosen and not d.revealed and d.contract.declarer != seat:
        others = [t for t in TRUMP_CHOICES if t.strain != d.trump]
        new_trump = others[trump % len(others)]
    assume(pairs or new_trump is not None)
    if pairs:
        a, x, b, y = pairs[pick % len(pairs)]
        hands[a][hands[a].index(x)] = y
        hands[b][hands[b].index(y)] = x
    other = _replayed(env, hands, list(deal.history), new_trump)
    env.load(0, deal)
    env.load(1, other)
    assert np.array_equal(env.observe(0, seat), env.observe(1, seat))
    if deal.to_move == seat:
        assert env.legal_actions(0) == env.legal_actions(1)
    if pairs:   # the seats holding the swapped cards do see the difference: the comparison can fail
        assert not np.array_equal(env.observe(0, a), env.observe(1, a))
    if new_trump is not None:   # and the declarer sees its other trump
        assert not np.array_equal(env.observe(0, d.contract.declarer), env.observe(1, d.contract.declarer))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(["55", "55-6", {"preset": "55", "discards": "closed"}]), seed=st.integers(0, 10_000),
       seat=st.integers(0, 5), pick=st.integers(0, 10_000), after_discard=st.booleans())
def test_a_55_seat_sees_neither_the_kitty_nor_a_closed_discard_nor_other_hands(
        rules: Any, seed: int, seat: int, pick: int, after_discard: bool) -> None:
    """55 before any card is played (so every call stays legal): in the auction, a card of the kitty swapped
    with a card of a seat the observer is not; once the discard is made, a discarded card swapped with one of
    another seat's hand, which only the bidder may tell apart when the discards are closed."""
    env = VectorEnv(rules, num_tables=2)
    env.reset(seed=seed)
    deal: Any = env.game.new_deal(env.rules, seed=seed, dealer=env.dealer)
    rng = random.Random(seed)
    while deal.phase == "auction" and (after_discard or rng.random() < 0.8):
        legal = deal.legal_moves()
        probe = deal.copy()
        move = legal[rng.randrange(len(legal))]
        probe.push(move)
        if probe.is_over:       # thrown in
            break
        deal.push(move)
    if after_discard:
        assume(deal.phase == "discard")
        legal = deal.legal_moves()
        deal.push(legal[rng.randrange(len(legal))])
    seat %= env.n
    hands, kitty = [list(h) for h in deal.dealt], list(deal.kitty)
    history = list(deal.history)
    others = [s for s in range(env.n) if s != seat and (not after_discard or s != deal.bidder)]
    assume(others and (not after_discard or seat != deal.bidder))
    b = others[pick % len(others)]
    y = hands[b][pick % len(hands[b])]
    if after_discard:
        x = deal.discard[pick % len(deal.discard)]
        where = kitty if x in kitty else hands[deal.bidder]
        history = [(s, Discard(tuple(sorted((y if c == x else c) for c in m.cards))))
                   if isinstance(m, Discard) else (s, m) for s, m in history]
    else:
        assume(not deal.kitty_taken)
        x, where = kitty[pick % len(kitty)], kitty
    where[where.index(x)] = y
    hands[b][hands[b].index(y)] = x
    other: Any = env.game.read_setup({"kitty": [str(c) for c in kitty]}, env.rules, env.dealer, hands, None)
    for _, move in history:
        other.push(move)
    env.load(0, deal)
    env.load(1, other)
    shown = after_discard and env.rules.discards == "open"     # an open discard is on the table for all
    assert np.array_equal(env.observe(0, seat), env.observe(1, seat)) == (not shown)
    assert not np.array_equal(env.observe(0, b), env.observe(1, b))   # the seat that holds it does see it
    if after_discard:
        assert not np.array_equal(env.observe(0, deal.bidder), env.observe(1, deal.bidder))
        discard = env.observe(0, seat)[env.layout.slice("discard")]
        assert np.flatnonzero(discard).tolist() == (sorted(env.enc.kinds.index(c) for c in deal.discard)
                                                     if shown else [])

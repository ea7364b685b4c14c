"""The vector env's compiled card play (fiftysix.research.vector_jit) against the engine's (``compiled=False``): the
same observations, masks, rewards, terminations and deals, step by step, over many seeds and the 56 and 55 presets."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from fiftysix.records import deal_record  # noqa: E402
from fiftysix.research.vector import VectorEnv  # noqa: E402
from fiftysix.research.vector_deal import Dealing  # noqa: E402

PRESETS: list[Any] = ["56-4", "56-6", "56-8", "56-announce", "56-pairs-6", "56-pairs-8",
                      {"preset": "56-4", "scoring": "points", "multiplier": "plus1plus2"},
                      {"preset": "56-6", "all_pass": "forced"}, {"preset": "56-4", "double": "closes"}]
PRESETS_AUCTION: list[Any] = ["56-4", "56-6", "56-pairs-6", {"preset": "56-6", "all_pass": "forced"},
                              {"preset": "56-4", "double": "closes", "multiplier": "plus1plus2"}]
PRESETS_55: list[Any] = ["55", "55-2", "55-6", "55-9", "55-teams-4", "55-teams-6",
                         {"preset": "55", "discards": "closed", "sixty_fail": 30, "all_pass": "dealer"}]


def both(rules: Any, tables: int, **kw: Any) -> tuple[VectorEnv, VectorEnv]:
    kw.setdefault("reward_seat", "all")     # (every seat's rewards compared)
    fast, ref = VectorEnv(rules, tables, compiled=True, **kw), VectorEnv(rules, tables, compiled=False, **kw)
    assert fast.compiled and not ref.compiled
    return fast, ref


def same_answer(a: tuple[Any, ...], b: tuple[Any, ...]) -> None:
    for x, y in zip(a[:-1], b[:-1], strict=True):
        assert x.dtype == y.dtype and np.array_equal(x, y)
    assert a[-1].keys() == b[-1].keys()
    for key in a[-1]:
        assert np.array_equal(a[-1][key], b[-1][key]), key


@settings(max_examples=30, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 2**32), steps=st.integers(1, 160),
       tables=st.integers(1, 9), autoreset=st.sampled_from([True, "SameStep"]))
def test_the_compiled_play_equals_the_engines_step_by_step(preset: Any, seed: int, steps: int,
                                                           tables: int, autoreset: Any) -> None:
    """A policy drawing from the mask, the same draws on both: every answer of reset and step is the same, every
    legal action list, and the deals (caught up from the compiled play) have the same histories and records;
    under either autoreset mode."""
    run_both(preset, seed, steps, tables, autoreset=autoreset)


@settings(max_examples=30, deadline=None)
@given(preset=st.sampled_from(PRESETS_55), seed=st.integers(0, 2**32), steps=st.integers(1, 200),
       tables=st.integers(1, 9), autoreset=st.sampled_from([True, "SameStep"]))
def test_the_compiled_play_of_55_equals_the_engines_step_by_step(preset: Any, seed: int, steps: int,
                                                                 tables: int, autoreset: Any) -> None:
    """The same for 55: the auction, the discard card by card and the trump choice are the engine's, then the
    kernel plays (free trumping, the renege privilege, 5 a trick, the highest trump and its bonus, the score)."""
    run_both(preset, seed, steps, tables, autoreset=autoreset)


@settings(max_examples=25, deadline=None)
@given(preset=st.sampled_from(PRESETS_AUCTION), seed=st.integers(0, 2**32), steps=st.integers(1, 120),
       tables=st.integers(1, 9), special=st.floats(0.3, 0.95), dealer=st.integers(0, 3))
def test_the_compiled_auction_equals_the_engines_with_many_passes_and_doubles(preset: Any, seed: int, steps: int,
                                                                              tables: int, special: float,
                                                                              dealer: int) -> None:
    """The compiled auction where it matters most: a policy that passes, doubles and redoubles most of the time
    (every seat passing, a double that closes or reopens, a redouble that ends the auction, a forced opening), the
    same answers as the engine's step by step, whoever deals (first hand calls and leads first)."""
    run_both(preset, seed, steps, tables, special, dealer=dealer)


def run_both(preset: Any, seed: int, steps: int, tables: int, special: float = 0.0, **kw: Any) -> None:
    fast, ref = both(preset, tables, **kw)
    answer = fast.reset(seed=seed)
    same_answer(answer, ref.reset(seed=seed))
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        mask = answer[-1]["action_mask"]
        draw = rng.random(mask.shape)
        if special:     # (actions 0-2: pass, double, redouble in 56; every kind of contract comes out: measured)
            draw[:, 0] += special
            draw[:, 1:3] += rng.random((mask.shape[0], 1)) * 2 * special
        actions = np.where(mask, draw, -1.0).argmax(axis=1)
        answer = fast.step(actions)
        same_answer(answer, ref.step(actions))
    assert [fast.legal_actions(i) for i in range(tables)] == [ref.legal_actions(i) for i in range(tables)]
    assert [d.history for d in fast.deals] == [d.history for d in ref.deals]
    assert [deal_record(d) for d in fast.deals] == [deal_record(d) for d in ref.deals]
    for seat in range(fast.n):
        assert np.array_equal(fast.observe_seats(np.full(tables, seat)), ref.observe_seats(np.full(tables, seat)))


@pytest.mark.parametrize("preset", ["56-4", "56-8", "55", "55-teams-6"])
def test_reading_the_deals_in_the_middle_of_play_changes_nothing(preset: str) -> None:
    """``env.deals`` and ``record`` in the middle of a trick push the compiled play's cards on the engine deal;
    the play then goes on from there as the engine's does (and a load in the middle of a trick too)."""
    fast, ref = both(preset, 6)
    fast.reset(seed=5)
    ref.reset(seed=5)
    rng = np.random.default_rng(5)
    for step in range(300):
        actions = ref.sample_legal(rng)
        same_answer(fast.step(actions), ref.step(actions))
        if step % 7 == 3:
            assert [len(d.history) for d in fast.deals] == [len(d.history) for d in ref.deals]
            assert record_or_why(fast, step % 6) == record_or_why(ref, step % 6)
        if step == 150:
            for env in (fast, ref):
                env.load(0, ref.deals[1], deal_seed=7)


@pytest.mark.parametrize("preset", ["56-4", "56-8"])
def test_a_deal_loaded_in_its_play_at_a_table_in_the_compiled_auction_is_played_as_the_engines(preset: str) -> None:
    """A deal put at a table in the middle of its compiled auction leaves that auction: the kernel plays the
    loaded deal's cards (its calls made), never one of them as a call of the auction it replaced."""
    fast, ref = both(preset, 4)
    fast.reset(seed=3)
    ref.reset(seed=3)
    assert fast.auction is not None and fast.auction.in_auction.all()
    deal = fast.game.new_deal(fast.rules, seed=99, dealer=fast.dealer)
    while deal.phase == "auction":
        deal.push(deal.legal_moves()[-1])
    for env in (fast, ref):
        env.load(0, deal, deal_seed=99)
    rng = np.random.default_rng(3)
    for _ in range(200):
        actions = ref.sample_legal(rng)
        same_answer(fast.step(actions), ref.step(actions))
    assert [d.history for d in fast.deals] == [d.history for d in ref.deals]


def record_or_why(env: VectorEnv, i: int) -> Any:
    """Table ``i``'s record, or why there is none (55: in the middle of a discard made card by card)."""
    try:
        return env.record(i)
    except ValueError as e:
        return str(e)


@pytest.mark.parametrize("preset", ["56-6", "55"])
def test_a_deal_that_ends_stays_at_its_end_without_autoreset(preset: str) -> None:
    """With ``autoreset=False`` the compiled play's last card leaves the table at the deal's end as the engine's
    does: its deal is over, its rewards once, its actions ignored."""
    fast, ref = both(preset, 5, autoreset=False)
    answers = fast.reset(seed=2), ref.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(120):
        actions = np.where(answers[1][-1]["to_move"] >= 0, ref.sample_legal(rng), 0)
        answers = fast.step(actions), ref.step(actions)
        same_answer(*answers)
    assert all(d.is_over for d in fast.deals)
    assert [d.score() for d in fast.deals] == [d.score() for d in ref.deals]


@pytest.mark.parametrize(("rules", "kw"), [("56-hidden", {}), ("55", {"bots": {1: "rules"}}),
                                           ("56-4", {"bots": {1: "random"}}),
                                           ({"preset": "56-4", "claim": True}, {})])
def test_the_engine_plays_where_the_kernel_does_not_hold_the_rules(rules: Any, kw: dict[str, Any]) -> None:
    """A hidden trump (``?``), claims and seated bots other than the compiled ``rules`` of 56 (they push on the
    deals) keep the engine's play: ``compiled`` says so."""
    assert not VectorEnv(rules, 2, **kw).compiled


def legal_by_tables(env: VectorEnv, hand: list[Any], led: Any, trump: int) -> set[Any]:
    kinds = env.enc.kinds
    held = sum(1 << kinds.index(c) for c in hand)
    j = kinds.index(led)
    bits = held & int(env.play.allowed[trump, j]) if held & int(env.play.oblige[trump, j]) else held
    return {c for m, c in enumerate(kinds) if bits >> m & 1}


def test_the_55_tables_give_the_engines_legal_cards() -> None:
    """The kernel's legal-card tables of 55 against ``play.legal_cards`` on random hands, leads and trumps, the
    privileged trumps dealt often (free trumping on a plain lead, the renege privilege on a trump lead)."""
    from fiftysix.core.cards import CARDS, Suit
    from fiftysix.games.fifty_five import play

    env = VectorEnv("55", 1)
    rng = np.random.default_rng(3)
    privileged_kept = 0
    for _ in range(3000):
        trump = Suit(int(rng.integers(4)))
        pool = [c for c in CARDS if rng.random() < 0.5 or c in play.PRIVILEGED[trump]]
        picks = rng.choice(len(pool), size=6, replace=False)
        led, hand = pool[picks[0]], [pool[p] for p in picks[1:]]
        expected = set(play.legal_cards(hand, [led], trump))
        assert legal_by_tables(env, hand, led, int(trump)) == expected, (trump, led, hand)
        privileged_kept += play.IS_TRUMP[trump][led] and any(play.IS_TRUMP[trump][c] for c in hand) and \
            not all(play.IS_TRUMP[trump][c] for c in expected)
    assert privileged_kept > 0      # the renege privilege was exercised


def test_a_wrong_renege_rule_fails_the_comparison() -> None:
    """A kernel table without the renege privilege (every trump obliges on a trump lead) gives other masks than the
    engine within a few hundred steps: the step-by-step comparison can see a wrong 55 rule."""
    from fiftysix.games.fifty_five import play

    fast, ref = both("55", 9)
    for t in range(4):
        for j, c in enumerate(fast.enc.kinds):
            if play.IS_TRUMP[t][c]:
                fast.play.oblige[t, j] = fast.play.allowed[t, j]
    answers = fast.reset(seed=11), ref.reset(seed=11)
    rng = np.random.default_rng(11)
    for _ in range(2000):
        mask = answers[1][-1]["action_mask"]
        if not np.array_equal(answers[0][-1]["action_mask"], mask):
            return
        actions = np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)
        answers = fast.step(actions), ref.step(actions)
    pytest.fail("a kernel without the renege privilege played 2,000 steps as the engine does")


PRESETS_56_ALL = ["56-4", "56-6", "56-8", "56-announce", "56-hidden", "56-pairs-6", "56-pairs-8"]
EDGE_SEEDS = [0, 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**62, 2**63 - 1]


@settings(max_examples=40, deadline=None)
@given(preset=st.sampled_from(PRESETS_56_ALL),
       seeds=st.lists(st.one_of(st.integers(0, 2**63 - 1), st.sampled_from(EDGE_SEEDS)), min_size=1, max_size=40))
def test_the_compiled_dealing_deals_from_each_seed_what_the_engine_deals(preset: str, seeds: list[int]) -> None:
    """The dealing kernel (CPython's generator walked from the seed, the engine's shuffle) gives each seat the
    masks of ``Deal56.from_seed`` for any seed of 0 to 2**63 - 1 (one 32-bit word or two) on every 56 preset."""
    from fiftysix.games.fifty_six.deal import Deal56
    from fiftysix.research import vector_jit_arrays

    env = VectorEnv(preset, 1)
    dealing = Dealing(env.tables, vector_jit_arrays)    # (56-hidden's env has no compiled play; its deck is dealt
    assert dealing.deck_places is not None              # the same way)
    once = np.zeros((len(seeds), env.n), np.int64)
    twice = np.zeros_like(once)
    vector_jit_arrays.deal_masks(np.array(seeds, np.int64), *dealing.deck_places, env.n, env.rules.hand_size,
                                 once, twice)
    for t, seed in enumerate(seeds):
        deal = Deal56.from_seed(env.rules, seed, env.dealer)
        assert (once[t].tolist(), twice[t].tolist()) == (deal._once, deal._twice), seed


PRESETS_55_ALL = ["55", "55-2", "55-3", "55-4", "55-5", "55-6", "55-7", "55-8", "55-9", "55-teams-4", "55-teams-6",
                  "55-110", "55-220"]


@settings(max_examples=40, deadline=None)
@given(preset=st.sampled_from(PRESETS_55_ALL),
       seeds=st.lists(st.one_of(st.integers(0, 2**63 - 1), st.sampled_from(EDGE_SEEDS)), min_size=1, max_size=40))
def test_the_compiled_dealing_deals_55_from_each_seed_what_the_engine_deals(preset: str, seeds: list[int]) -> None:
    """55's dealing by the same kernel (one pack, the kitty dealt as one more hand) gives each seat's mask and the
    kitty of ``Deal55.from_seed`` for any seed on every 55 preset, and the env's deals from those seeds are the
    engine's card for card (hands, kitty, seat to move)."""
    from fiftysix.games.fifty_five import Deal55, deck_bits
    from fiftysix.research import vector_jit_arrays

    env = VectorEnv(preset, len(seeds))
    assert env.dealing.deck_places is not None
    once = np.zeros((len(seeds), env.n + 1), np.int64)
    vector_jit_arrays.deal_masks(np.array(seeds, np.int64), *env.dealing.deck_places, env.n + 1, env.rules.hand_size,
                                 once, np.zeros_like(once))
    assert set(deck_bits()) == {1 << b for b in range(52)}
    env.dealing.draw_seeds = lambda tables: [seeds[i] for i in tables]    # type: ignore[method-assign]
    mine = env.dealing.fresh_deals(list(range(len(seeds))))
    for t, seed in enumerate(seeds):
        deal = Deal55.from_seed(env.rules, seed, env.dealer)
        assert once[t, :env.n].tolist() == deal._once, seed
        assert Deal55.BITS.cards(int(once[t, env.n])) == deal.kitty, seed
        assert (mine[t].dealt, mine[t].kitty, mine[t].to_move) == (deal.dealt, deal.kitty, deal.to_move), seed


@settings(max_examples=20, deadline=None)
@given(preset=st.sampled_from(PRESETS_56_ALL + PRESETS_55_ALL), seed=st.integers(0, 2**63), tables=st.integers(1, 9))
def test_every_deal_of_the_env_is_the_engines_deal_of_its_documented_seed(preset: str, seed: int, tables: int) -> None:
    """The seeding the env documents holds with the compiled dealing: table ``i``'s seeds are the draws of
    ``random.Random(f"{seed}:{i}").getrandbits(63)`` in turn, and each deal (the first and those dealt when one
    ends) is ``game.new_deal(rules, seed=deal_seed, dealer=env.dealer)``, card for card, seat to move included; the
    reference env deals the same."""
    # (SAME_STEP: a deal's end shows the next deal's seed at once; NEXT_STEP the same a step later:
    # test_vector_wrappers)
    fast = VectorEnv(preset, tables, autoreset="SameStep")
    ref = VectorEnv(preset, tables, autoreset="SameStep", compiled=False)
    answer, ref_answer = fast.reset(seed=seed), ref.reset(seed=seed)
    rngs = [random.Random(f"{seed}:{i}") for i in range(tables)]
    rng = np.random.default_rng(seed)
    dealt = [0] * tables
    for _ in range(400):
        info = answer[-1]
        assert np.array_equal(info["deal_seed"], ref_answer[-1]["deal_seed"])
        for i in range(tables):
            if info["deals_done"][i] == dealt[i]:
                dealt[i] += 1
                expected_seed = rngs[i].getrandbits(63)
                assert info["deal_seed"][i] == expected_seed
                deal = fast.game.new_deal(fast.rules, seed=expected_seed, dealer=fast.dealer)
                if fast.auction is not None and fast.auction.lazy[i]:    # the compiled auction's table: no engine
                    # deal yet, the deal is its arrays
                    held = np.zeros_like(fast.tables.hands[i])
                    for s, hand in enumerate(deal.hands):
                        for c in hand:
                            held[s, fast.tables.kind[c]] += 1
                    assert np.array_equal(fast.tables.hands[i], held)
                    assert (fast.tables.to_move[i], fast.auction.auction[i, 6]) == (deal.to_move, 0)
                    continue
                mine = fast.tables.deal_list[i]
                assert (mine.dealt, mine.to_move, mine.history) == (deal.dealt, deal.to_move, [])
                assert getattr(mine, "kitty", None) == getattr(deal, "kitty", None)     # (55's)
        if min(dealt) >= 3:
            return
        mask = info["action_mask"]
        actions = np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)
        answer, ref_answer = fast.step(actions), ref.step(actions)
    pytest.fail(f"fewer than 3 deals at some table after 400 steps: {dealt}")


def test_the_bench_policy_draws_uniformly_from_each_row_of_the_mask(monkeypatch: pytest.MonkeyPatch) -> None:
    """``bench/vector_env.py --compiled-policy`` (the policy of the figures in docs/research.md) reads the masks eight
    entries at a time: it picks the legal action at place ``u`` of each row's legal ones, for rows that start and
    end anywhere in a word (widths 1 to 17, and 56-6's 457), as counting them one by one does."""
    import importlib
    from pathlib import Path

    monkeypatch.syspath_prepend(str(Path(__file__).parents[2] / "bench"))
    bench = importlib.import_module("vector_env")     # (by its own name: numba's cache of its kernel asks for it)
    rng = np.random.default_rng(5)
    for width in [*range(1, 18), 457]:
        for tables in (1, 3, 7, 40):
            mask = rng.random((tables, width)) < rng.random((tables, 1))
            mask[np.arange(tables), rng.integers(0, width, tables)] = True
            u = rng.random(tables)
            out = np.zeros(tables, np.int64)
            bench.draw(mask, u, out)
            expected = [int(np.flatnonzero(row)[int(x * row.sum())]) for row, x in zip(mask, u, strict=True)]
            assert out.tolist() == expected


def test_reading_one_table_makes_only_its_deal() -> None:
    """With the compiled auction a table holds no engine deal until read: ``record(i)`` and ``legal_actions`` make
    and catch up table ``i``'s deal alone (the same record as the engine's env), the others stay arrays."""
    fast, ref = both("56-6", 5)
    answer = fast.reset(seed=11)
    ref.reset(seed=11)
    rng = np.random.default_rng(11)
    for _ in range(12):     # into the play at some tables
        mask = answer[-1]["action_mask"]
        actions = np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)
        answer = fast.step(actions)
        ref.step(actions)
    assert fast.auction.lazy.all()
    assert fast.record(2) == deal_record(ref.deals[2])
    assert fast.auction.lazy.tolist() == [True, True, False, True, True]
    assert [d.history for d in fast.deals] == [d.history for d in ref.deals]

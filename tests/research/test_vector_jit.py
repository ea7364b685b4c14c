"""The vector env's compiled card play (fiftysix.research.vector_jit) against the engine's (``compiled=False``): the
same observations, masks, rewards, terminations and deals, step by step, over many seeds and the 56 presets."""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from fiftysix.records import deal_record  # noqa: E402
from fiftysix.research.vector import VectorEnv  # noqa: E402

PRESETS: list[Any] = ["56-4", "56-6", "56-8", "56-announce", "56-pairs-6",
                      {"preset": "56-4", "scoring": "points", "multiplier": "plus1plus2"}]


def both(rules: Any, tables: int, **kw: Any) -> tuple[VectorEnv, VectorEnv]:
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
       tables=st.integers(1, 9))
def test_the_compiled_play_equals_the_engines_step_by_step(preset: Any, seed: int, steps: int,
                                                           tables: int) -> None:
    """A policy drawing from the mask, the same draws on both: every answer of reset and step is the same, every
    legal action list, and the deals (caught up from the compiled play) have the same histories and records."""
    fast, ref = both(preset, tables)
    answer = fast.reset(seed=seed)
    same_answer(answer, ref.reset(seed=seed))
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        mask = answer[-1]["action_mask"]
        actions = np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)
        answer = fast.step(actions)
        same_answer(answer, ref.step(actions))
    assert [fast.legal_actions(i) for i in range(tables)] == [ref.legal_actions(i) for i in range(tables)]
    assert [d.history for d in fast.deals] == [d.history for d in ref.deals]
    assert [deal_record(d) for d in fast.deals] == [deal_record(d) for d in ref.deals]
    for seat in range(fast.n):
        assert np.array_equal(fast.observe_seats(np.full(tables, seat)), ref.observe_seats(np.full(tables, seat)))


@pytest.mark.parametrize("preset", ["56-4", "56-8"])
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
            assert fast.record(step % 6) == ref.record(step % 6)
        if step == 150:
            for env in (fast, ref):
                env.load(0, ref.deals[1], deal_seed=7)


def test_a_deal_that_ends_stays_at_its_end_without_autoreset() -> None:
    """With ``autoreset=False`` the compiled play's last card leaves the table at the deal's end as the engine's
    does: its deal is over, its rewards once, its actions ignored."""
    fast, ref = both("56-6", 5, autoreset=False)
    answers = fast.reset(seed=2), ref.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(120):
        actions = np.where(answers[1][-1]["to_move"] >= 0, ref.sample_legal(rng), 0)
        answers = fast.step(actions), ref.step(actions)
        same_answer(*answers)
    assert all(d.is_over for d in fast.deals)
    assert [d.score() for d in fast.deals] == [d.score() for d in ref.deals]


@pytest.mark.parametrize(("rules", "kw"), [("56-hidden", {}), ("55", {}), ("55-6", {}),
                                           ("56-4", {"bots": {1: "rules"}}),
                                           ({"preset": "56-4", "claim": True}, {})])
def test_the_engine_plays_where_the_kernel_does_not_hold_the_rules(rules: Any, kw: dict[str, Any]) -> None:
    """A hidden trump (``?``), claims, 55 (the kitty, its trumps) and seated bots (they push on the deals) keep
    the engine's play: ``compiled`` says so."""
    assert not VectorEnv(rules, 2, **kw).compiled

"""Issue 60: every wrapper of ``gymnasium.wrappers.vector`` that applies runs on the default vector env (NEXT_STEP
autoreset, rewards (N,)) of 56-4, 56-6 and 55, and NEXT_STEP behaves as Gymnasium specifies it."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import Any

import pytest

np = pytest.importorskip("numpy")
gym = pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode  # noqa: E402
from gymnasium.wrappers import vector as wv  # noqa: E402

from fiftysix.research.vector import VectorEnv  # noqa: E402

PRESETS = ["56-4", "56-6", "55"]

WRAPPERS: dict[str, Callable[[Any], Any]] = {
    "RecordEpisodeStatistics": wv.RecordEpisodeStatistics,
    "DictInfoToList": wv.DictInfoToList,
    "TransformObservation": lambda e: wv.TransformObservation(e, lambda o: o * 2.0),
    "VectorizeTransformObservation": lambda e: wv.VectorizeTransformObservation(
        e, gym.wrappers.DtypeObservation, dtype=np.float64),
    "FlattenObservation": wv.FlattenObservation,
    "ReshapeObservation": lambda e: wv.ReshapeObservation(e, (1, e.single_observation_space.shape[0])),
    "RescaleObservation": lambda e: wv.RescaleObservation(e, -1.0, 1.0),
    "DtypeObservation": lambda e: wv.DtypeObservation(e, np.float64),
    "NormalizeObservation": wv.NormalizeObservation,
    "TransformAction": lambda e: wv.TransformAction(e, lambda a: a),
    "VectorizeTransformAction": lambda e: wv.VectorizeTransformAction(
        e, gym.wrappers.TransformAction, func=lambda a: a, action_space=e.single_action_space),
    "TransformReward": lambda e: wv.TransformReward(e, lambda r: r / 56.0),
    "ClipReward": lambda e: wv.ClipReward(e, -1.0, 1.0),
    "NormalizeReward": wv.NormalizeReward,
    "VectorizeTransformReward": lambda e: wv.VectorizeTransformReward(
        e, gym.wrappers.ClipReward, min_reward=-1.0, max_reward=1.0),
}
NOT_APPLICABLE = {
    "FilterObservation": "a Dict or Tuple observation",
    "GrayscaleObservation": "an image observation",
    "ResizeObservation": "an image observation",
    "ClipAction": "a Box action space (ours is discrete)",
    "RescaleAction": "a Box action space (ours is discrete)",
    "RecordVideo": "rendered frames (the env renders nothing)",
    "HumanRendering": "rendered frames (the env renders nothing)",
    "ArrayConversion": "jax or torch arrays",
    "JaxToNumpy": "jax",
    "JaxToTorch": "jax and torch",
    "NumpyToTorch": "torch",
}


def test_every_wrapper_of_gymnasium_is_run_or_said_not_to_apply() -> None:
    """A wrapper added to Gymnasium fails here until it is run below or its reason is given."""
    assert set(wv.__all__) == set(WRAPPERS) | set(NOT_APPLICABLE)


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_numpy_to_torch_runs_where_torch_is_installed() -> None:
    run(wv.NumpyToTorch(VectorEnv("56-4", num_tables=4)), steps=50)


def run(env: Any, steps: int) -> int:
    """A random legal policy (from the masks) for ``steps`` steps; the deals that ended."""
    base: VectorEnv = env.unwrapped
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    ends = 0
    for _ in range(steps):
        mask = base.action_masks()
        actions = np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)
        obs, rewards, terminations, truncations, info = env.step(actions)
        assert len(obs) == base.num_tables and np.shape(rewards) == (base.num_tables,)
        ends += int(np.sum(terminations))
    return ends


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("name", sorted(WRAPPERS))
def test_the_wrapper_runs_on_the_default_env(preset: str, name: str) -> None:
    env = VectorEnv(preset, num_tables=8)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    wrapped = WRAPPERS[name](env)
    assert run(wrapped, steps=300) >= 8
    if name == "RecordEpisodeStatistics":
        assert len(wrapped.return_queue) >= 8 and max(wrapped.length_queue) >= 8     # (55: all may pass)


def test_the_default_reward_is_the_learners_lowest_seat_and_every_seat_is_an_option() -> None:
    assert VectorEnv("56-4", num_tables=1).reward_seat == 0
    assert VectorEnv("56-4", num_tables=1, bots={0: "random"}).reward_seat == 1
    assert VectorEnv("56-4", num_tables=1, reward_seat=3).reward_seat == 3
    env = VectorEnv("56-4", num_tables=4, reward_seat="all")
    env.reset(seed=0)
    assert env.step(env.sample_legal(np.random.default_rng(0)))[1].shape == (4, 4)
    for bad in (4, -1, "every", True):
        with pytest.raises(ValueError, match="reward_seat must be"):
            VectorEnv("56-4", num_tables=1, reward_seat=bad)
    with pytest.raises(ValueError, match="autoreset must be"):
        VectorEnv("56-4", num_tables=1, autoreset="sometimes")


@pytest.mark.parametrize("preset", PRESETS)
def test_next_step_ends_a_deal_then_deals_the_next_at_the_next_step_ignoring_the_action(preset: str) -> None:
    """As Gymnasium's NEXT_STEP: the step that ends a deal gives its reward, ``terminations`` and the observation
    of the deal's end (the seat that moved; no seat to move, no legal action); the next step ignores the table's
    action (even one that is not an action), gives reward 0 and no termination, and the first observation of the
    next deal; the deals are those of SAME_STEP, a step later each time one ends."""
    tables = 6
    env = VectorEnv(preset, num_tables=tables, reward_seat="all")
    env.reset(seed=4)
    o = env.layout.offsets
    over = o["phase"] + env.layout.phases.index("over")
    rng = np.random.default_rng(4)
    due = np.zeros(tables, np.bool_)
    ends = starts = 0
    for _ in range(250):
        to_move = env.tables.to_move.copy()
        seeds, done = env.dealing.seed_array.copy(), env.dealing.episode_array.copy()
        actions = np.where(due, 10**6, env.sample_legal(rng))
        obs, rewards, terminations, truncations, info = env.step(actions)
        assert not truncations.any()
        for i in np.flatnonzero(due):
            assert not terminations[i] and not rewards[i].any()
            assert obs[i, o["calls"]] == 0 and obs[i, o["phase"]] == 1.0     # the next deal's first position
            assert info["action_mask"][i].any() and info["deal_seed"][i] != seeds[i]
            assert info["deals_done"][i] == done[i]
            starts += 1
        for i in np.flatnonzero(terminations):
            assert obs[i, over] == 1.0 and not obs[i, o["to_move"]:o["to_move"] + env.n].any()
            assert obs[i, o["seat"] + to_move[i]] == 1.0 and not info["action_mask"][i].any()
            assert info["to_move"][i] == -1 and info["deals_done"][i] == done[i] + 1
            assert info["deal_seed"][i] == seeds[i]
            ends += 1
        due = terminations
    assert starts >= 6 and ends >= starts


def test_next_step_replays_the_deals_of_same_step() -> None:
    """One table, a policy drawing from each position's mask: NEXT_STEP's observations and rewards are SAME_STEP's
    with one more step after each deal's end (its end's observation, then the same next deal)."""
    for preset in PRESETS:
        nxt = VectorEnv(preset, num_tables=1)
        same = VectorEnv(preset, num_tables=1, autoreset="SameStep")
        obs_n, _ = nxt.reset(seed=9)
        obs_s, _ = same.reset(seed=9)
        rng_n, rng_s = np.random.default_rng(3), np.random.default_rng(3)
        ends = 0
        for _ in range(200):
            assert np.array_equal(obs_n, obs_s)
            obs_s, r_s, t_s, _, _ = same.step(same.sample_legal(rng_s))
            obs_n, r_n, t_n, _, info = nxt.step(nxt.sample_legal(rng_n))
            assert (r_n.tolist(), t_n.tolist()) == (r_s.tolist(), t_s.tolist())
            if t_n[0]:
                ends += 1
                obs_n, r_n, t_n, _, info = nxt.step(np.array([0]))
                assert not r_n.any() and not t_n.any()
                assert info["deal_seed"][0] == same.dealing.seed_array[0]
        assert ends >= 2

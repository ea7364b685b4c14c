"""The vector env as a ``gymnasium.vector.VectorEnv`` (issue 46): its spaces hold what it returns, Gymnasium's
vector wrappers run on it, and 55's auction does not make it grow."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import data_equivalence  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402
from gymnasium.wrappers.vector import RecordEpisodeStatistics  # noqa: E402

from fiftysix.research.vector import VectorEnv  # noqa: E402


@pytest.mark.parametrize("preset", ["56-6", "55"])
def test_it_is_a_gymnasium_vector_env_whose_spaces_hold_what_it_returns(preset: str) -> None:
    env = VectorEnv(preset, num_tables=6)
    assert isinstance(env, gym.vector.VectorEnv)
    assert env.num_envs == env.num_tables == 6
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert env.single_action_space == gym.spaces.Discrete(env.num_actions)
    assert env.single_observation_space.shape == (env.observation_size,)
    assert env.observation_space.shape == (6, env.observation_size)
    assert env.action_space.shape == (6,)
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(400):
        assert obs in env.observation_space
        for row in obs:
            assert row in env.single_observation_space
        actions = env.sample_legal(rng)
        assert actions in env.action_space
        obs, rewards, terminations, truncations, info = env.step(actions)
        ends += int(terminations.sum())
    assert ends > 0
    env.close()
    assert env.closed
    assert VectorEnv(preset, num_tables=2, autoreset=False).metadata["autoreset_mode"] == AutoresetMode.DISABLED


def test_55_bid_value_stays_in_its_documented_range() -> None:
    env = VectorEnv("55", num_tables=1)
    piece = next(p for p in env.layout.pieces if p.name == "bid_value")
    top = max(c.value for c in env.game.call_vocabulary(env.rules) if c.value is not None)
    assert piece.high == top > 56


def test_reset_and_step_are_deterministic_in_the_seed() -> None:
    def run() -> list[object]:
        env = VectorEnv("56-4", num_tables=4, reward_seat=0)
        out: list[object] = list(env.reset(seed=9))
        rng = np.random.default_rng(1)
        for _ in range(60):
            out += list(env.step(env.sample_legal(rng)))
        return out
    assert data_equivalence(run(), run(), exact=True)


def test_record_episode_statistics_runs_on_it() -> None:
    """Today's TypeError: the wrapper needs num_envs, the autoreset mode and (N,) rewards (``reward_seat``)."""
    env = RecordEpisodeStatistics(VectorEnv("56-4", num_tables=8, reward_seat=1))
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    returns: list[float] = []
    for _ in range(300):
        obs, rewards, terminations, truncations, info = env.step(env.unwrapped.sample_legal(rng))
        assert rewards.shape == (8,)
        if terminations.any():
            ended = terminations
            assert rewards[~ended].tolist() == [0.0] * int((~ended).sum())
            assert info["episode"]["r"][ended].tolist() == rewards[ended].tolist()     # (a deal: one reward)
            returns += info["episode"]["r"][ended].tolist()
            assert (info["episode"]["l"][ended] >= 32).all()     # 56-4: at least the 32 cards played
    assert len(returns) >= 8 and len(env.return_queue) == len(returns)
    with pytest.raises(ValueError, match="reward_seat"):
        VectorEnv("56-4", num_tables=2, reward_seat=4)


def test_55_memory_stays_bounded_over_many_steps() -> None:
    """Every 55 auction builds fresh legal tuples: the env remembered each (85,780 after 2,400 steps)."""
    from fiftysix.research import vector_bank

    env = VectorEnv("55", num_tables=64)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    sizes = []
    for step in range(1500):
        env.step(env.sample_legal(rng))
        if step % 100 == 99:
            sizes.append(len(env.bank.row_of_id) + len(env.bank.row_of) + len(env.arrays.bid_ids))
    assert max(sizes) <= vector_bank._ROW_IDS_KEPT + 1000
    assert len(env.bank.row_of) < 1000 and len(env.arrays.bid_ids) < 1000


def test_recording_a_55_table_mid_discard_refuses_rather_than_drop_the_chosen_cards() -> None:
    env = VectorEnv("55", num_tables=16)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(200):
        discarding = [i for i in range(16) if env.deals[i].phase == "discard" and env.kitty_tables.pending_kinds[i]]
        if discarding:
            break
        env.step(env.sample_legal(rng))
    assert discarding
    with pytest.raises(ValueError, match="discard is being made"):
        env.record(discarding[0])
    others = [i for i in range(16) if not env.kitty_tables.pending_kinds[i]]
    assert env.record(others[0])["rules"]


@pytest.mark.parametrize("preset", ["56-announce", "56-6", "56-hidden", "55"])
def test_every_action_has_a_distinct_name(preset: str) -> None:
    """Issue 46: in 56-announce the call NT and the trump choice NT had the same name."""
    env = VectorEnv(preset, num_tables=1)
    names = [env.enc.action_text(a) for a in range(env.num_actions)]
    assert len(set(names)) == len(names)
    for a, name in enumerate(names[:env.first_card]):
        assert env.enc.action_of_text[name] == a

"""The learned linear policy as a bot (fiftysix.research.policy_bot): it plays in a view exactly what the policy
plays greedily in the env, it is saved and read back, and the arena seats it as an outside program."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from fiftysix.research.policy_bot import PolicyBot  # noqa: E402
from fiftysix.research.train import Policy  # noqa: E402
from fiftysix.research.vector import VectorEnv  # noqa: E402
from fiftysix.views import view  # noqa: E402


def random_policy(env: VectorEnv, seed: int) -> Policy:
    policy = Policy.zeros(env)
    policy.weights = np.random.default_rng(seed).normal(size=policy.weights.shape)
    return policy


@pytest.mark.parametrize("preset", ["56-4", "56-6", "56-announce"])
def test_the_bot_plays_in_a_view_what_the_policy_plays_greedily_in_the_env(preset: str) -> None:
    env = VectorEnv(preset, num_tables=6, autoreset="SameStep")     # (a decision at every table, every step)
    policy = random_policy(env, 4)
    bot = PolicyBot(policy, preset)
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(120):
        greedy = policy.probabilities(policy.features(obs), info["action_mask"]).argmax(axis=1)
        for i in range(env.num_tables):
            move = bot.choose(view(env.deals[i], int(info["to_move"][i])))
            assert env.enc.text_action(move, env.deals[i].phase) == greedy[i]
            checked += 1
        obs, _, _, _, info = env.step(np.where(rng.random(6) < 0.5, greedy, env.sample_legal(rng)))
    assert checked == 720


def test_a_policy_is_saved_with_its_rules_and_read_back(tmp_path: Path) -> None:
    env = VectorEnv("56-4", num_tables=1)
    policy = random_policy(env, 1)
    policy.save(str(tmp_path / "p.npz"), "56-4")
    back, rules = Policy.load(str(tmp_path / "p.npz"))
    assert rules == "56-4" and np.array_equal(back.weights, policy.weights) and np.array_equal(back.scale, policy.scale)
    (tmp_path / "bad.npz").write_text("not a policy")
    with pytest.raises(ValueError, match="not a policy written by Policy.save"):
        Policy.load(str(tmp_path / "bad.npz"))
    with pytest.raises(ValueError, match="56 only"):
        PolicyBot(policy, "55")


def test_the_arena_seats_it_as_an_outside_program(tmp_path: Path) -> None:
    env = VectorEnv("56-4", num_tables=1)
    random_policy(env, 2).save(str(tmp_path / "p.npz"), "56-4")
    out = tmp_path / "arena.json"
    bot = f"cmd:{sys.executable} -m fiftysix.research.policy_bot {tmp_path / 'p.npz'}"
    run = subprocess.run([sys.executable, "-m", "fiftysix", "arena", "--rules", "56-4", "--bot", bot, "--bot", "rules",
                          "--deals", "3", "--quiet", "--json", str(out)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    linear, rules = json.loads(out.read_text())["bots"]
    assert linear["label"] == "linear" and linear["faults"]["count"] == 0 and linear["time_ms"]["decisions"] > 50
    assert linear["paired_difference"]["n"] == 3 and rules["label"] == "rules"

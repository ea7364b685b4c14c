"""The actor-critic example (fiftysix.research.a2c, fiftysix.research.mlp): the hand-written gradients are the
loss's gradients (checked by finite differences), and a tiny run learns: greedy, it beats "always pass" and random
play on held-out deals with intervals apart."""

from __future__ import annotations

from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from fiftysix.research.a2c import Settings, interval, train  # noqa: E402
from fiftysix.research.mlp import Adam, Net  # noqa: E402
from fiftysix.research.train import Policy, evaluate, team_env  # noqa: E402


def loss(net: Net, x: np.ndarray, mask: np.ndarray, actions: np.ndarray, g: np.ndarray, adv: np.ndarray,
         entropy: float, value_weight: float) -> float:
    """The loss whose gradient ``Net.gradients`` gives, with the normalised advantage ``adv`` held fixed."""
    f = net.forward(x, mask)
    rows = np.arange(len(actions))
    logp = np.log(np.where(f.p > 0, f.p, 1.0))
    h = -(f.p * logp).sum(axis=1)
    return float(np.mean(-adv * logp[rows, actions]) - entropy * h.mean()
                 + value_weight * np.mean((f.value - g) ** 2))


@pytest.mark.parametrize("seed", range(4))
def test_the_gradients_are_the_losss_gradients(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, d, k = 9, 7, 5
    net = Net.new(d, k, np.ones(d), hidden=6, seed=seed)
    net.w2 = rng.normal(size=net.w2.shape)
    net.wv = rng.normal(size=net.wv.shape)
    x = net.features(rng.normal(size=(n, d)).astype(np.float32))
    mask = rng.random((n, k)) < 0.6
    mask[np.arange(n), rng.integers(0, k, n)] = True
    actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
    g = rng.normal(size=n)
    f = net.forward(x, mask)
    adv = g - f.value
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    grads, _ = net.gradients(f, actions, g, entropy=0.05, value_weight=0.5)
    for param, grad in zip(net.params, grads, strict=True):
        for idx in [tuple(rng.integers(0, s) for s in param.shape) for _ in range(6)]:
            old = param[idx]
            param[idx] = old + 1e-6
            up = loss(net, x, mask, actions, g, adv, 0.05, 0.5)
            param[idx] = old - 1e-6
            down = loss(net, x, mask, actions, g, adv, 0.05, 0.5)
            param[idx] = old
            assert abs((up - down) / 2e-6 - grad[idx]) < 1e-5 * max(1.0, abs(grad[idx])), (idx, grad[idx])


def test_adam_moves_towards_a_minimum() -> None:
    p = [np.array([3.0, -2.0])]
    opt = Adam(lr=0.1)
    for _ in range(300):
        opt.step(p, [2 * p[0]])
    assert np.abs(p[0]).max() < 0.05


def test_a_tiny_run_beats_always_pass_and_random_with_intervals_apart() -> None:
    net, curve, cpu = train(Settings(opponents=None, tables=64, steps=600, cpu_minutes=10, report_every=200))
    assert curve.steps == 600 and len(curve.points) == 3 and cpu > 0
    learned = interval(evaluate(net, "56-4", deals=400, tables=100, seed=7))
    passing = interval(evaluate(Policy.zeros(team_env("56-4", 1, None)), "56-4", deals=400, tables=100, seed=7))
    random_ = interval(evaluate(None, "56-4", deals=400, tables=100, seed=7))
    for other in (passing, random_):
        assert learned[0] - learned[1] > other[0] + other[1], (learned, other)


def test_a_saved_network_plays_as_the_policy_bot_what_it_plays_greedily_in_the_env(tmp_path: Path) -> None:
    from fiftysix.research.policy_bot import PolicyBot
    from fiftysix.research.vector import VectorEnv
    from fiftysix.views import view

    env = VectorEnv("56-4", num_tables=4, autoreset="SameStep")
    net = Net.new(env.observation_size, env.num_actions, Policy.zeros(env).scale, hidden=16, seed=2)
    net.w2 = np.random.default_rng(2).normal(size=net.w2.shape)
    net.save(str(tmp_path / "net.npz"), "56-4")
    loaded, rules = Policy.load(str(tmp_path / "net.npz"))
    assert isinstance(loaded, Net) and rules == "56-4"
    bot = PolicyBot(loaded, rules)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(40):
        greedy = net.probabilities(net.features(obs), info["action_mask"]).argmax(axis=1)
        for i in range(env.num_tables):
            move = bot.choose(view(env.deals[i], int(info["to_move"][i])))
            assert env.enc.text_action(move, env.deals[i].phase) == greedy[i]
        obs, _, _, _, info = env.step(env.sample_legal(rng))

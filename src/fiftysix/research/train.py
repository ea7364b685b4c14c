"""A tiny policy-gradient example on the vector env (numpy only): REINFORCE with a linear softmax policy.

One team (seats 0, 2, ...: team 0) plays the learned policy, the other seats play uniformly at random; the reward
is team 0's score of the deal.  Each decision's observation (the compact observation, each piece scaled by its
range, and a bias) times a weight matrix gives the logits of the legal actions; after each batch of steps the
decisions of finished deals move the weights along ``(return - baseline) * grad log pi``.

    python -m fiftysix.research.train --rules 56-4 --steps 3000 --tables 256 [--plot curve.png]  # a few minutes

prints the learning curve (mean team-0 score of the deals finished, per stretch) and the evaluation: the learned
policy against ``random`` on the same deals as random against random (paired: the deals are the same, since a
table's deal seeds do not depend on the actions), with the difference's 95% interval.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode

from ..bots import make_bot
from ..views import view
from .mlp import Net
from .seated import bot_seed
from .table import Encoding
from .vector import VectorEnv

FloatArray = npt.NDArray[np.float64]


@dataclass
class Policy:
    """A linear softmax policy over the actions, masked to the legal ones."""

    weights: FloatArray
    scale: FloatArray

    @classmethod
    def zeros(cls, env: VectorEnv) -> Policy:
        highs = np.concatenate([np.full(p.size, max(p.high, 1.0)) for p in env.layout.pieces])
        return cls(np.zeros((env.observation_size + 1, env.num_actions)), 1.0 / highs)

    def save(self, path: str, rules: object) -> None:
        """Write the weights, the scale and the rules they were learned for (``.npz``)."""
        np.savez(path, weights=self.weights, scale=self.scale, rules=json.dumps(rules))

    @classmethod
    def load(cls, path: str) -> tuple[Policy | Net, object]:
        """A policy written by :meth:`save` or a network written by :meth:`.mlp.Net.save`, and its rules.

        :raises ValueError: for a file that is neither.
        """
        try:
            with np.load(path) as f:
                rules = json.loads(str(f["rules"]))
                if "w1" in f:
                    return Net(f["w1"], f["w2"], f["wv"], f["scale"]), rules
                return cls(f["weights"], f["scale"]), rules
        except (OSError, KeyError, ValueError) as e:
            raise ValueError(f"{path}: not a policy written by Policy.save or Net.save ({e})") from None

    def features(self, obs: npt.NDArray[np.float32]) -> FloatArray:
        x = obs.astype(np.float64) * self.scale
        out: FloatArray = np.concatenate([x, np.ones((len(x), 1))], axis=1)
        return out

    def probabilities(self, x: FloatArray, mask: npt.NDArray[np.bool_]) -> FloatArray:
        logits = np.where(mask, x @ self.weights, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p: FloatArray = np.exp(logits)
        out: FloatArray = p / p.sum(axis=1, keepdims=True)
        return out


def _choose(p: FloatArray, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    u = rng.random(len(p))[:, None]
    out: npt.NDArray[np.int64] = (p.cumsum(axis=1) < u).sum(axis=1).clip(0, p.shape[1] - 1)
    return out


@dataclass
class Curve:
    """Mean team-0 score of the deals finished in each stretch of training."""

    points: list[tuple[int, float]] = field(default_factory=list)
    steps: int = 0      # the steps trained (fewer than asked when a time limit ended the training)


def team_env(rules: object, tables: int, opponents: str | None, autoreset: bool = True) -> VectorEnv:
    """The env of team 0's learner: the other teams' seats played at random by the caller (``opponents``
    ``None``) or by our bot of that name, seated in the env (:mod:`.seated`).  Every seat's rewards, and with
    ``autoreset`` the next deal in the step that ends one (``SAME_STEP``): each step has a decision at every
    table, which the training loop counts on."""
    mode = AutoresetMode.SAME_STEP if autoreset else AutoresetMode.DISABLED
    if opponents is None:
        return VectorEnv(rules, num_tables=tables, autoreset=mode, reward_seat="all")
    team_of = Encoding(rules).team_of    # type: ignore[arg-type]
    return VectorEnv(rules, num_tables=tables, autoreset=mode, reward_seat="all",
                     bots={s: opponents for s, t in enumerate(team_of) if t != 0})


class Teacher:
    """One of our bots at the learner's seats of every table, to imitate: its move at each, as an action."""

    def __init__(self, env: VectorEnv, name: str, seed: int) -> None:
        if env.kitty:
            raise ValueError("imitation plays 56 only (55's discard is made card by card in the env)")
        self.env = env
        self.bots = [make_bot(name, bot_seed(seed, i, -1), env.game.name) for i in range(env.num_tables)]

    def actions(self, tables: npt.NDArray[np.int64], seats: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        env = self.env
        out = [env.enc.text_action(self.bots[i].choose(view(env.deals[i], s)), env.deals[i].phase)
               for i, s in zip(tables.tolist(), seats.tolist(), strict=True)]
        return np.array(out, np.int64)


def _imitate(policy: Policy, x: FloatArray, p: FloatArray, taught: npt.NDArray[np.int64], lr: float) -> None:
    """One step of behaviour cloning: towards the teacher's actions (the gradient of their log-probability)."""
    y = -p
    y[np.arange(len(taught)), taught] += 1.0
    policy.weights += lr * (x.T @ y) / len(x)


def train(rules: object = "56-4", steps: int = 3000, tables: int = 256, lr: float = 0.05, seed: int = 0,
          report_every: int = 250, verbose: bool = False, opponents: str | None = None,
          policy: Policy | None = None, minutes: float | None = None, imitate: str | None = None,
          imitate_steps: int = 0) -> tuple[Policy, Curve]:
    """Train team 0's policy for ``steps`` steps of ``tables`` tables (or until ``minutes`` have passed), against
    random play or ``opponents`` (a bot's name: ``"rules"``), from ``policy`` (default: all weights zero).

    With ``imitate`` (a bot's name) the first ``imitate_steps`` steps are behaviour cloning: that bot plays the
    learner's seats and the policy learns its moves; policy gradient goes on from there."""
    env = team_env(rules, tables, opponents)
    policy = policy or Policy.zeros(env)
    teacher = Teacher(env, imitate, seed) if imitate and imitate_steps > 0 else None
    rng = np.random.default_rng(seed)
    learner = np.array([t == 0 for t in env.enc.team_of])
    obs, info = env.reset(seed=seed)
    pending: list[tuple[npt.NDArray[np.int64], FloatArray, npt.NDArray[np.int64], FloatArray, npt.NDArray[np.int64]]]
    pending = []        # (tables, features, actions, probabilities, episode) of decisions not yet rewarded
    returns: dict[tuple[int, int], float] = {}
    baseline, finished, total = 0.0, 0, 0.0
    curve = Curve()
    start = time.monotonic()
    for step in range(1, steps + 1):
        if minutes is not None and time.monotonic() - start > 60 * minutes:
            break
        curve.steps = step
        actions = env.sample_legal(rng)
        mine = np.flatnonzero(learner[info["to_move"]])
        if len(mine):
            x = policy.features(obs[mine])
            p = policy.probabilities(x, info["action_mask"][mine])
            if teacher is not None and step <= imitate_steps:
                actions[mine] = taught = teacher.actions(mine, info["to_move"][mine])
                _imitate(policy, x, p, taught, lr)
            else:
                chosen = _choose(p, rng)
                actions[mine] = chosen
                pending.append((mine, x, chosen, p, info["deals_done"][mine].copy()))
        obs, rewards, terminations, _, info = env.step(actions)
        for i in np.flatnonzero(terminations).tolist():
            g = float(rewards[i, 0])
            returns[(i, int(info["deals_done"][i]) - 1)] = g
            finished += 1
            total += g
        if step % 8 == 0 and pending:
            pending = _update(policy, pending, returns, baseline, lr)
            if finished:
                baseline = 0.9 * baseline + 0.1 * (total / finished)
        if step % report_every == 0 and finished:
            curve.points.append((step, total / finished))
            if verbose:
                print(f"step {step:6}  deals {finished:7}  mean team-0 score {total / finished:+.3f}  "
                      f"{time.monotonic() - start:5.0f} s", flush=True)
            finished, total = 0, 0.0
    return policy, curve


def _update(policy: Policy, pending: list[tuple[npt.NDArray[np.int64], FloatArray, npt.NDArray[np.int64],
                                               FloatArray, npt.NDArray[np.int64]]],
            returns: dict[tuple[int, int], float], baseline: float, lr: float) -> list[
                tuple[npt.NDArray[np.int64], FloatArray, npt.NDArray[np.int64], FloatArray, npt.NDArray[np.int64]]]:
    """One gradient step on the decisions whose deal has ended; the others are kept."""
    xs, grads, keep = [], [], []
    for tables, x, actions, p, episodes in pending:
        g = np.array([returns.get((int(t), int(e)), np.nan) for t, e in zip(tables, episodes, strict=True)])
        done = ~np.isnan(g)
        if done.any():
            y = -p[done]
            y[np.arange(int(done.sum())), actions[done]] += 1.0       # grad of log softmax: onehot - p
            xs.append(x[done])
            grads.append(y * (g[done] - baseline)[:, None])
        if not done.all():
            rest = ~done
            keep.append((tables[rest], x[rest], actions[rest], p[rest], episodes[rest]))
    if xs:
        x_all, g_all = np.concatenate(xs), np.concatenate(grads)
        policy.weights += lr * (x_all.T @ g_all) / len(x_all)
    return keep


def evaluate(policy: Policy | Net | None, rules: object = "56-4", deals: int = 2000, tables: int = 250,
             seed: int = 12345, opponents: str | None = None, teacher: str | None = None) -> npt.NDArray[np.float64]:
    """Team 0's score in each of the first deal of ``deals // tables`` resets of ``tables`` tables, team 0 playing
    ``policy`` (greedy), our bot ``teacher``, or with neither at random; the other seats at random or by
    ``opponents``.  Deals are the same for the same seed whatever the policy."""
    env = team_env(rules, tables, opponents, autoreset=False)
    learner = np.array([t == 0 for t in env.enc.team_of])
    bots = Teacher(env, teacher, seed) if teacher is not None else None     # team 0 played by our bot instead
    scores: list[float] = []
    for r in range(deals // tables):
        obs, info = env.reset(seed=seed + r)
        rng = np.random.default_rng(seed + r)
        done = np.zeros(tables, np.bool_)
        result = np.zeros(tables)
        while not done.all():
            actions = env.sample_legal(rng)
            mine = np.flatnonzero(learner[info["to_move"].clip(0)] & (info["to_move"] >= 0))
            if bots is not None and len(mine):
                actions[mine] = bots.actions(mine, info["to_move"][mine])
            elif policy is not None and len(mine):
                p = policy.probabilities(policy.features(obs[mine]), info["action_mask"][mine])
                actions[mine] = p.argmax(axis=1)
            obs, rewards, terminations, _, info = env.step(actions)
            result[terminations] = rewards[terminations, 0]
            done |= terminations
        scores.extend(result.tolist())
    return np.array(scores)


def write_plot(curve: Curve, path: str, title: str, learned: float | None = None,
               random_: float | None = None) -> None:
    """A PNG of the learning curve, with the evaluation's means as dashed lines when given.

    :raises RuntimeError: if matplotlib is not installed (``pip install 'fiftysix[research]'``).
    """
    try:
        import matplotlib

        matplotlib.use("Agg")       # no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        raise RuntimeError("--plot needs matplotlib: pip install 'fiftysix[research]'") from None
    if not curve.points:
        raise ValueError("the curve has no points: train for at least one report stretch")
    steps, means = zip(*curve.points, strict=True)
    fig, ax = plt.subplots(figsize=(7, 3.8), dpi=110)
    ax.plot(steps, means, marker="o", color="#1f5fa8", label="training: team 0's mean score of the deals finished")
    if learned is not None:
        ax.axhline(learned, color="#1f5fa8", linestyle="--",
                   label=f"evaluation, learned policy (greedy): {learned:+.2f}")
    if random_ is not None:
        ax.axhline(random_, color="#a83a1f", linestyle="--", label=f"evaluation, random play: {random_:+.2f}")
    ax.axhline(0.0, color="#888888", linewidth=0.8)
    ax.set_xlabel("training steps (one action at every table)")
    ax.set_ylabel("team 0's score a deal (tables)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="56-4")
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--tables", type=int, default=256)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--deals", type=int, default=4000, help="deals of the evaluation")
    parser.add_argument("--plot", default=None, metavar="FILE", help="write a PNG of the learning curve")
    parser.add_argument("--opponents", default=None, metavar="BOT",
                        help="the other team's seats played by this bot (rules, pimc, ...), seated in the env; "
                             "default: random play")
    parser.add_argument("--imitate", default=None, metavar="BOT",
                        help="begin with behaviour cloning of this bot at the learner's seats (56)")
    parser.add_argument("--imitate-steps", type=int, default=0, help="steps of behaviour cloning (with --imitate)")
    parser.add_argument("--minutes", type=float, default=None, help="stop training after this many minutes")
    parser.add_argument("--save", default=None, metavar="FILE",
                        help="write the policy (.npz) for python -m fiftysix.research.policy_bot")
    args = parser.parse_args()
    start = time.monotonic()
    policy, curve = train(args.rules, args.steps, args.tables, args.lr, args.seed, verbose=True,
                          opponents=args.opponents, minutes=args.minutes, imitate=args.imitate,
                          imitate_steps=args.imitate_steps)
    trained = time.monotonic() - start
    if args.save:
        policy.save(args.save, args.rules)
        print(f"wrote {args.save}")
    learned = evaluate(policy, args.rules, args.deals, opponents=args.opponents)
    random_ = evaluate(None, args.rules, args.deals, opponents=args.opponents)
    diff = learned - random_
    half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
    against = args.opponents or "random"
    print(f"trained {trained:.0f} s; evaluation on {len(diff)} deals against {against}: learned "
          f"{learned.mean():+.3f}, random {random_.mean():+.3f} team-0 score a deal; difference "
          f"{diff.mean():+.3f} ± {half:.3f} (95%)")
    if args.plot:
        write_plot(curve, args.plot, f"REINFORCE, linear policy, {args.rules} against {against}: {curve.steps} "
                   f"steps of {args.tables} tables ({trained:.0f} s)", float(learned.mean()), float(random_.mean()))
        print(f"wrote {args.plot}")


if __name__ == "__main__":
    main()

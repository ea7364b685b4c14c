"""The training example that learns (issue 60 item 3): advantage actor-critic with a small numpy network
(:mod:`.mlp`), team 0 learning against our ``rules`` bot seated at the other team's seats, stopped by the CPU time
it has used; then an evaluation on held-out deals of the learned policy beside "always pass", random play and
``rules`` itself in team 0's seats, each with its 95% interval::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python -m fiftysix.research.a2c --rules 56-4 --opponents rules \\
        --cpu-minutes 30 --deals 4000 --plot curve.png --save policy.npz

Each decision of team 0 is kept until its deal ends; its return is team 0's score of the deal (tables, divided
by ``REWARD_SCALE``).  Every ``update_every`` steps the decisions of the deals that ended make one Adam step on
``-A log pi(a) - entropy * H + value_weight * (V - G)^2``, the advantage ``A = G - V`` normalised over the batch.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from .mlp import Adam, BoolArray, FloatArray, IntArray, Net
from .train import Curve, Policy, Teacher, _choose, evaluate, team_env, write_plot

REWARD_SCALE = 4.0


@dataclass
class Settings:
    rules: object = "56-4"
    opponents: str | None = "rules"
    tables: int = 256
    hidden: int = 128
    lr: float = 1e-3
    entropy: float = 0.003
    value_weight: float = 0.5
    update_every: int = 4
    seed: int = 0
    cpu_minutes: float = 30.0
    steps: int | None = None
    report_every: int = 100
    imitate: str | None = None          # a bot whose moves the policy learns first (behaviour cloning)
    imitate_cpu_minutes: float = 0.0


@dataclass
class Pending:
    """Decisions of team 0 whose deals have not ended yet."""

    tables: list[IntArray] = field(default_factory=list)
    x: list[FloatArray] = field(default_factory=list)
    actions: list[IntArray] = field(default_factory=list)
    masks: list[BoolArray] = field(default_factory=list)
    episodes: list[IntArray] = field(default_factory=list)

    def add(self, tables: IntArray, x: FloatArray, actions: IntArray, masks: BoolArray, episodes: IntArray) -> None:
        self.tables.append(tables)
        self.x.append(x)
        self.actions.append(actions)
        self.masks.append(masks)
        self.episodes.append(episodes)

    def take_finished(self, returns: dict[tuple[int, int], float]) -> tuple[FloatArray, IntArray, BoolArray,
                                                                             FloatArray] | None:
        """The decisions whose deal has ended (features, actions, masks, returns); the others stay."""
        if not self.tables:
            return None
        tables, x = np.concatenate(self.tables), np.concatenate(self.x)
        actions, masks = np.concatenate(self.actions), np.concatenate(self.masks)
        episodes = np.concatenate(self.episodes)
        g = np.array([returns.get((int(t), int(e)), np.nan) for t, e in zip(tables, episodes, strict=True)])
        done = ~np.isnan(g)
        rest = ~done
        self.tables, self.x, self.actions = [tables[rest]], [x[rest]], [actions[rest]]
        self.masks, self.episodes = [masks[rest]], [episodes[rest]]
        if not done.any():
            return None
        return x[done], actions[done], masks[done], g[done]


def train(s: Settings, verbose: bool = False, net: Net | None = None,
          opt: Adam | None = None) -> tuple[Net, Curve, float]:
    """Train team 0's network (``net``, default a new one); returns it, the learning curve and the CPU seconds
    used."""
    env = team_env(s.rules, s.tables, s.opponents)
    net = net or Net.new(env.observation_size, env.num_actions, Policy.zeros(env).scale, s.hidden, s.seed)
    opt = opt or Adam(lr=s.lr)
    rng = np.random.default_rng(s.seed)
    learner = np.array([t == 0 for t in env.enc.team_of])
    teacher = Teacher(env, s.imitate, s.seed) if s.imitate and s.imitate_cpu_minutes > 0 else None
    obs, info = env.reset(seed=s.seed)
    pending = Pending()
    returns: dict[tuple[int, int], float] = {}
    finished, total = 0, 0.0
    curve = Curve()
    start = time.process_time()
    step = 0
    while (s.steps is None or step < s.steps) and time.process_time() - start < 60 * s.cpu_minutes:
        step += 1
        curve.steps = step
        actions = env.sample_legal(rng)
        mine = np.flatnonzero(learner[info["to_move"]])
        if teacher is not None and time.process_time() - start > 60 * s.imitate_cpu_minutes:
            teacher = None      # behaviour cloning over: the policy plays and learns from the scores
        if len(mine):
            x = net.features(obs[mine])
            mask = info["action_mask"][mine]
            if teacher is not None:
                actions[mine] = taught = teacher.actions(mine, info["to_move"][mine])
                opt.step(net.params, net.imitation_gradients(net.forward(x, mask), taught))
            else:
                chosen = _choose(net.probabilities(x, mask), rng)
                actions[mine] = chosen
                pending.add(mine, x, chosen, mask, info["deals_done"][mine].copy())
        obs, rewards, terminations, _, info = env.step(actions)
        for i in np.flatnonzero(terminations).tolist():
            g = float(rewards[i, 0])
            returns[(i, int(info["deals_done"][i]) - 1)] = g / REWARD_SCALE
            finished += 1
            total += g
        if step % s.update_every == 0:
            batch = pending.take_finished(returns)
            if batch is not None:
                xb, ab, mb, gb = batch
                grads, _ = net.gradients(net.forward(xb, mb), ab, gb, s.entropy, s.value_weight)
                opt.step(net.params, grads)
        if step % s.report_every == 0 and finished:
            curve.points.append((step, total / finished))
            if verbose:
                print(f"step {step:6}  deals {finished:6}  mean team-0 score {total / finished:+.3f}  "
                      f"cpu {time.process_time() - start:6.0f} s", flush=True)
            finished, total = 0, 0.0
    return net, curve, time.process_time() - start


def evaluate_teacher(name: str, rules: object, deals: int, tables: int = 250, seed: int = 12345,
                     opponents: str | None = "rules") -> FloatArray:
    """Team 0's score in the same deals as :func:`.train.evaluate`, team 0 played by our bot ``name``."""
    return evaluate(None, rules, deals, tables, seed, opponents, teacher=name)


def interval(scores: npt.NDArray[np.float64]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval."""
    return float(scores.mean()), float(1.96 * scores.std(ddof=1) / np.sqrt(len(scores)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="56-4")
    parser.add_argument("--opponents", default="rules", help="the other team's bot, seated in the env")
    parser.add_argument("--tables", type=int, default=256)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--entropy", type=float, default=0.003)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cpu-minutes", type=float, default=30.0, help="stop after this much CPU time")
    parser.add_argument("--steps", type=int, default=None)
    parser.add_argument("--deals", type=int, default=4000, help="held-out deals of the evaluation")
    parser.add_argument("--plot", default=None, metavar="FILE")
    parser.add_argument("--save", default=None, metavar="FILE")
    args = parser.parse_args()
    s = Settings(args.rules, args.opponents, args.tables, args.hidden, args.lr, args.entropy, seed=args.seed,
                 cpu_minutes=args.cpu_minutes, steps=args.steps)
    net, curve, cpu = train(s, verbose=True)
    if args.save:
        net.save(args.save, args.rules)
    env = team_env(args.rules, 1, args.opponents)
    results = {
        "learned (greedy)": evaluate(net, args.rules, args.deals, opponents=args.opponents),
        "always pass": evaluate(Policy.zeros(env), args.rules, args.deals, opponents=args.opponents),
        "random": evaluate(None, args.rules, args.deals, opponents=args.opponents),
        "rules": evaluate_teacher("rules", args.rules, args.deals, opponents=args.opponents),
    }
    print(f"trained {curve.steps} steps of {args.tables} tables, {cpu:.0f} CPU s; held-out deals: {args.deals}")
    for name, scores in results.items():
        mean, half = interval(scores)
        print(f"  {name:17} {mean:+.3f} ± {half:.3f} team-0 tables a deal (95%)")
    learned, passing, rules = (results[k].mean() for k in ("learned (greedy)", "always pass", "rules"))
    if rules != passing:
        print(f"  share of the gap from always pass to rules closed: {(learned - passing) / (rules - passing):.0%}")
    if args.plot:
        write_plot(curve, args.plot, f"actor-critic, {args.hidden}-unit network, {args.rules} against "
                   f"{args.opponents}: {cpu / 60:.0f} CPU minutes", float(learned),
                   float(results["random"].mean()))


if __name__ == "__main__":
    main()

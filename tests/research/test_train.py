"""The policy-gradient example (fiftysix.research.train) at a tiny size: it learns to beat random."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from pathlib import Path  # noqa: E402

from fiftysix.research.train import Curve, evaluate, train, write_plot  # noqa: E402


def test_a_tiny_policy_gradient_run_beats_random(tmp_path: Path) -> None:
    policy, curve = train("56-4", steps=300, tables=64, seed=1, report_every=100)
    assert len(curve.points) == 3
    plot = tmp_path / "curve.png"
    write_plot(curve, str(plot), "tiny run", 1.0, 0.0)
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and plot.stat().st_size > 5_000
    learned = evaluate(policy, "56-4", deals=400, tables=100, seed=7)
    random_ = evaluate(None, "56-4", deals=400, tables=100, seed=7)
    diff = learned - random_
    half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
    assert diff.mean() - half > 0, (diff.mean(), half)


def test_the_evaluation_pairs_the_same_deals() -> None:
    """Random against random on the same seed scores the same deals the same way (so pairing is sound)."""
    a = evaluate(None, "56-4", deals=100, tables=50, seed=3)
    b = evaluate(None, "56-4", deals=100, tables=50, seed=3)
    assert a.tolist() == b.tolist()


def test_a_plot_of_no_points_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no points"):
        write_plot(Curve(), str(tmp_path / "x.png"), "empty")


def test_imitation_plays_the_teachers_moves_and_learns_them() -> None:
    """Behaviour cloning of ``rules``: the teacher's actions are the rules bot's moves on the learner's views,
    and a policy trained on them picks the teacher's action more often than the untrained one."""
    from fiftysix.bots import make_bot
    from fiftysix.research.seated import bot_seed
    from fiftysix.research.train import Policy, Teacher, team_env
    from fiftysix.views import view

    env = team_env("56-4", 32, "rules")
    teacher = Teacher(env, "rules", seed=4)
    obs, info = env.reset(seed=4)
    tables = np.arange(env.num_tables)
    taught = teacher.actions(tables, info["to_move"])
    again = [make_bot("rules", bot_seed(4, i, -1), "56").choose(view(env.deals[i], int(info["to_move"][i])))
             for i in range(env.num_tables)]
    assert taught.tolist() == [env.enc.text_action(m, env.deals[i].phase) for i, m in enumerate(again)]

    def agreement(policy: Policy) -> float:
        env.reset(seed=9)
        hits = total = 0
        for _ in range(40):
            seats = env.tables.to_move.copy()
            want = teacher.actions(tables, seats)
            p = policy.probabilities(policy.features(env.observe_seats(seats)), env.action_masks())
            hits += int((p.argmax(axis=1) == want).sum())
            total += len(want)
            env.step(want)
        return hits / total
    untrained = agreement(Policy.zeros(env))
    policy, _ = train("56-4", steps=120, tables=32, seed=1, opponents="rules", imitate="rules", imitate_steps=120,
                      lr=0.5)
    assert agreement(policy) > untrained + 0.1, (agreement(policy), untrained)
    with pytest.raises(ValueError, match="56 only"):
        Teacher(team_env("55", 2, "rules"), "rules", seed=0)

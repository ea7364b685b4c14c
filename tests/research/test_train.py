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

"""Our bots in the vector env's seats (fiftysix.research.seated): the learner is only ever asked for its own seats,
its observations, masks and rewards are what its seat's JSON view and the deal's score say, a seed replays every
table, and bad bot seats or a bot's illegal answer are refused with what is allowed."""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")

from fiftysix.bots.base import register  # noqa: E402
from fiftysix.core.deal import DISCARD, Deal  # noqa: E402
from fiftysix.research.seated import BotMoveError, bot_seed  # noqa: E402
from fiftysix.research.vector import VectorEnv, encode_view  # noqa: E402
from fiftysix.views import view  # noqa: E402


def seat_view(deal: Deal, seat: int) -> dict[str, Any]:
    """The seat's view as the adapters give it to encode_view (its hand as dealt; no discard in the making)."""
    v: dict[str, Any] = dict(view(deal, seat))
    v["dealt"] = [str(c) for c in deal.dealt[seat]]
    v["pending_discard"] = []
    return v


CASES = [("56-4", {1: "rules", 3: "rules"}), ("56-6", {1: "rules", 3: "random", 5: "rules"}),
         ("56-6", {s: "rules" for s in range(1, 6)}), ("56-hidden", {1: "rules", 3: "rules"}),
         ("55", {1: "rules", 2: "random", 3: "rules"}), ("55-6", {1: "rules", 4: "rules"})]


@pytest.mark.parametrize(("preset", "bots"), CASES)
def test_the_learner_sees_only_its_seats_with_the_observation_mask_and_rewards_of_its_view(
        preset: str, bots: dict[int, str]) -> None:
    # (the engine's env: its deal objects are those the step pushes on; the compiled rules bots of 56-4 and 56-6
    # replay this env step by step in tests/research/test_vector_rules56.py)
    env = VectorEnv(preset, num_tables=8, bots=bots, autoreset="SameStep", reward_seat="all", compiled=False)
    learners = set(range(env.n)) - set(bots)
    rng = np.random.default_rng(1)
    obs, info = env.reset(seed=5)
    ended = compared = 0
    while ended < 40:
        for i in range(env.num_tables):
            deal, seat = env.deals[i], int(info["to_move"][i])
            assert seat in learners and deal.to_move == seat
            if deal.phase != DISCARD:         # (55's discard is made card by card: its mask is the env's own)
                legal = sorted(env.action_of(m) for m in deal.legal_moves())
                assert np.flatnonzero(info["action_mask"][i]).tolist() == legal
                assert np.array_equal(obs[i], encode_view(env.enc, seat_view(deal, seat)))
                compared += 1
        before = list(env.deals)
        obs, rewards, terminations, _, info = env.step(env.sample_legal(rng))
        for i in range(env.num_tables):
            if terminations[i]:
                assert before[i].is_over and env.deals[i] is not before[i]
                assert rewards[i].tolist() == env.enc.returns(before[i])
                ended += 1
            else:
                assert env.deals[i] is before[i] and not rewards[i].any()
    assert compared > 100


def test_a_seed_and_the_learners_actions_replay_every_table_bots_included() -> None:
    def run() -> tuple[list[Any], list[float]]:
        env = VectorEnv("56-6", num_tables=6, bots={1: "rules", 3: "rules", 5: "random"}, reward_seat=0)
        env.reset(seed=11)
        rng = np.random.default_rng(3)
        got = []
        for _ in range(30):
            _, r, _, _, _ = env.step(env.sample_legal(rng))
            got.append(float(r.sum()))
        return [d.history for d in env.deals], got
    assert run() == run()


def test_the_bots_play_as_the_named_bot_with_its_own_seed_given_its_seats_view() -> None:
    seen: list[tuple[int | None, list[str] | None, int]] = []

    class Watcher:
        name = "watcher"

        def __init__(self, seed: int | None = None) -> None:
            self.seed = seed

        def choose(self, v: Any) -> str:
            seen.append((v["seat"], v["hand"], v["hand_sizes"][v["seat"]]))
            assert self.seed is not None
            return str(v["legal"][self.seed % len(v["legal"])])
    register("watcher", Watcher)
    env = VectorEnv("56-4", num_tables=3, bots={2: "watcher"})
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(20):
        env.step(env.sample_legal(rng))
    assert seen and all(seat == 2 and hand is not None and len(hand) == size for seat, hand, size in seen)
    assert bot_seed(2, 0, 2) != bot_seed(2, 1, 2) != bot_seed(3, 1, 2)


def test_a_few_hundred_steps_of_training_against_seated_rules_bots() -> None:
    from fiftysix.research.train import evaluate, train
    policy, curve = train("56-4", steps=300, tables=16, seed=1, report_every=100, opponents="rules")
    assert len(curve.points) == 3 and np.isfinite(policy.weights).all() and policy.weights.any()
    scores = evaluate(policy, "56-4", deals=32, tables=16, opponents="rules")
    assert scores.shape == (32,) and np.isfinite(scores).all()


def test_bad_bot_seats_say_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="seat 4 is not a seat; seats are 0-3"):
        VectorEnv("56-4", num_tables=2, bots={4: "rules"})
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        VectorEnv("56-4", num_tables=2, bots={1: "nobody"})
    with pytest.raises(ValueError, match="leave one at least to the learner"):
        VectorEnv("56-4", num_tables=2, bots={s: "rules" for s in range(4)})


def test_a_bot_that_answers_nonsense_is_refused_naming_it() -> None:
    class Nonsense:
        name = "nonsense"

        def __init__(self, seed: int | None = None) -> None:
            pass

        def choose(self, v: Any) -> str:
            return "99 tricks"
    register("nonsense", Nonsense)
    env = VectorEnv("56-4", num_tables=2, bots={0: "nonsense"})
    with pytest.raises(BotMoveError, match=r"seat 0's bot 'nonsense' answered '99 tricks', which is not legal; "
                                           r"legal: "):
        env.reset(seed=1)


def test_gymnasiums_episode_statistics_wrapper_runs_with_bots_seated() -> None:
    from gymnasium.wrappers.vector import RecordEpisodeStatistics
    env = RecordEpisodeStatistics(VectorEnv("56-4", num_tables=4, bots={1: "rules", 3: "rules"}, reward_seat=0))
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(60):
        obs, r, term, trunc, info = env.step(env.unwrapped.sample_legal(rng))
        if "episode" in info:
            episodes += int(info["_episode"].sum())
    assert episodes > 0

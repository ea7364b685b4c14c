"""The compiled ``rules`` bot of 56 seated in the vector env (fiftysix.research.vector_rules56, issue 60): every
decision the kernel takes is the Python bot's for the same view, the env with compiled bots replays the reference env
(the engine and the Python bot) step by step, and ``bots=`` takes bot objects."""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from fiftysix.bots.heuristic import rules56  # noqa: E402
from fiftysix.bots.heuristic.rules56 import Rules56Bot  # noqa: E402
from fiftysix.research import vector_rules56  # noqa: E402
from fiftysix.research.vector import VectorEnv  # noqa: E402
from fiftysix.views import view  # noqa: E402

BOTS = {"56-4": {1: "rules", 2: "rules", 3: "rules"}, "56-6": {s: "rules" for s in range(1, 6)}}
DEALS = {"56-4": 0, "56-6": 0}      # deals played by the agreement property (reported by the test below it)


class Checked(vector_rules56.RulesSeats):
    """The kernel's decisions, each compared with the Python bot's answer to the seat's view."""

    bots: dict[int, Rules56Bot]
    compared = 0

    def decide(self, env: Any, movers: Any) -> Any:
        out = super().decide(env, movers)
        for i in np.flatnonzero(movers).tolist():
            deal = env.steps.deal_at(i)
            seat = deal.to_move
            move = self.bots[seat].choose(view(deal, seat))
            want = {str(m): env.action_of(m) for m in deal.legal_moves()}[move]
            assert out[i] == want, (f"table {i} seat {seat}: kernel {env.bank.moves[out[i]]}, bot {move}; "
                                    f"auction {list(deal.auction_text if hasattr(deal, 'auction_text') else [])}")
            self.compared += 1
        return out


def checked_env(preset: str, margins: dict[int, float], tables: int) -> tuple[VectorEnv, Checked]:
    bots = {s: Rules56Bot(margin=margins.get(s)) for s in BOTS[preset]}
    env = VectorEnv(preset, num_tables=tables, bots=bots, autoreset="SameStep", reward_seat="all")
    assert env.rules_seats is not None
    checked = Checked(env, bots)
    checked.bots = bots
    env.rules_seats = checked
    return env, checked


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["56-4", "56-6"])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), learner=st.sampled_from(["rules", "random"]),
       margin=st.sampled_from([2.0, 2.0, -1.0, 6.0]))
def test_the_compiled_rules_takes_every_decision_of_the_python_rules(preset: str, seed: int, learner: str,
                                                                     margin: float) -> None:
    env, checked = checked_env(preset, {1: margin}, tables=16)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    mine = Rules56Bot()
    ended = 0
    while ended < 176:      # 12 examples: at least 2,112 deals of each preset, every bot decision compared
        if learner == "random":
            acts = env.sample_legal(rng)
        else:       # the learner's seat played by the Python bot too: the auctions the bots meet among themselves
            acts = np.array([env.action_of(next(m for m in d.legal_moves()
                                                if str(m) == mine.choose(view(d, d.to_move)))) for d in env.deals],
                            np.int64)
        obs, rewards, terminations, _, info = env.step(acts)
        ended += int(terminations.sum())
    DEALS[preset] += ended
    assert checked.compared > 20 * ended and checked.fallbacks == 0


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "mode"), [("56-4", "NextStep"), ("56-6", "SameStep"), ("56-4", "SameStep")])
def test_the_env_with_rules_seated_replays_the_engine_with_the_python_bot(preset: str, mode: str) -> None:
    bots: dict[int, Any] = {1: "rules", 3: Rules56Bot(margin=-1.0)}
    fast = VectorEnv(preset, num_tables=12, bots=bots, autoreset=mode, reward_seat="all")
    slow = VectorEnv(preset, num_tables=12, bots=bots, autoreset=mode, reward_seat="all", compiled=False)
    assert fast.compiled and fast.rules_seats is not None and not slow.compiled and slow.rules_seats is None
    a, info_a = fast.reset(seed=7)
    b, info_b = slow.reset(seed=7)
    rng = np.random.default_rng(7)
    ended = 0
    for _ in range(400):
        assert np.array_equal(a, b)
        assert np.array_equal(info_a["action_mask"], info_b["action_mask"])
        assert np.array_equal(info_a["to_move"], info_b["to_move"])
        acts = fast.sample_legal(rng)
        a, ra, ta, _, info_a = fast.step(acts)
        b, rb, tb, _, info_b = slow.step(acts)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb)
        ended += int(ta.sum())
    assert ended > 20
    assert [d.history for d in fast.deals] == [d.history for d in slow.deals]
    assert fast.rules_seats.decisions > 1000 and fast.rules_seats.fallbacks == 0


def test_bots_take_a_bot_object_as_well_as_a_name() -> None:
    bold = Rules56Bot(margin=-1.0)
    env = VectorEnv("56-4", num_tables=4, bots={1: bold, 3: "rules"})
    assert env.compiled and env.rules_seats is not None
    assert env.rules_seats.tables.margins.tolist() == [0.0, -1.0, 0.0, 2.0]
    env.reset(seed=1)
    env.step(env.sample_legal(np.random.default_rng(0)))

    class Other:     # not the rules bot: the Python path plays it, a copy per table
        name = "other"
        asked = 0

        def choose(self, v: Any) -> str:
            Other.asked += 1
            return str(v["legal"][0])
    other = VectorEnv("56-4", num_tables=3, bots={2: Other()})
    assert not other.compiled and other.rules_seats is None
    other.reset(seed=1)
    for _ in range(6):
        other.step(other.sample_legal(np.random.default_rng(0)))
    assert Other.asked > 0
    with pytest.raises(ValueError, match="seat 1's bot must be a bot's name or a bot"):
        VectorEnv("56-4", num_tables=2, bots={1: 42})  # type: ignore[dict-item]


def test_the_kernels_tables_are_the_bots_own(monkeypatch: pytest.MonkeyPatch) -> None:
    env = VectorEnv("56-4", num_tables=2, bots={1: "rules"})
    assert env.rules_seats is not None
    t = env.rules_seats.tables
    assert t.w_suit.tolist() == list(rules56.WEIGHTS[(4, 48, 2)]["suit"]) and t.share == rules56.SHOWN_SHARE
    monkeypatch.setitem(rules56.WEIGHTS, (4, 48, 2), {"suit": (1.0,) * 8, "nt": (2.0,) * 8})
    monkeypatch.setattr(Rules56Bot, "partner_allowance", 3.5)
    t2 = vector_rules56.RulesTables(env, {1: Rules56Bot()})
    assert t2.w_suit.tolist() == [1.0] * 8 and t2.w_nt.tolist() == [2.0] * 8 and t2.allowances[1] == 3.5


def test_a_table_the_kernels_do_not_hold_has_its_bots_played_by_the_python_bot_and_counted() -> None:
    env = VectorEnv("56-4", num_tables=2, bots={1: "rules", 3: "rules"})
    env.reset(seed=3)
    deal = env.game.new_deal(env.rules, seed=99, dealer=env.dealer)
    env.load(0, deal)
    rng = np.random.default_rng(0)
    for _ in range(8):
        env.step(env.sample_legal(rng))
    assert env.rules_seats is not None and env.rules_seats.fallbacks > 0 and env.rules_seats.decisions > 0

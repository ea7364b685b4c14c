"""56 and 55 as PettingZoo AEC environments: PettingZoo's own API and seed tests, masks and rewards."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from fiftysix.pettingzoo import env, raw_env  # noqa: E402

PRESETS = ["56-4", "56-6", "56-8", "56-hidden", "55"]


@pytest.mark.parametrize("preset", PRESETS)
def test_pettingzoo_api_test(preset: str) -> None:
    api_test(env(preset=preset), num_cycles=200)


@pytest.mark.parametrize("preset", PRESETS)
def test_pettingzoo_seed_test(preset: str) -> None:
    seed_test(lambda: env(preset=preset), num_cycles=100)


def play(e, rng):
    """One deal with random legal actions; returns each agent's total reward and the masks seen."""
    totals = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, termination, truncation, _ = e.last()
        totals[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.sum() >= 1
        for other in e.possible_agents:
            if other != agent and other in e.agents:
                assert e.observe(other)["action_mask"].sum() == 0
        e.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    return totals, steps


@pytest.mark.parametrize("preset", PRESETS)
def test_a_deal_ends_with_each_agent_rewarded_its_teams_score(preset: str) -> None:
    rng = np.random.RandomState(0)
    for seed in range(3):
        e = raw_env(preset=preset)
        e.reset(seed=seed)
        table = e.table
        totals, steps = play(e, rng)
        deal = table.deal
        score = deal.result().get("score") or [0] * deal.rules.n_teams
        assert steps > 0
        assert totals == {f"player_{s}": float(score[deal.rules.team_of[s]]) for s in range(deal.rules.players)}


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    e = raw_env(preset="56-4")
    e.reset(seed=3)
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[-1])
    before = e.table.seat_string(0)
    with pytest.raises(ValueError, match="not legal"):
        e.step(bad)
    assert e.table.seat_string(0) == before


def test_the_same_seed_deals_the_same_cards_and_another_seed_others() -> None:
    a, b, c = raw_env(preset="56-6"), raw_env(preset="56-6"), raw_env(preset="56-6")
    a.reset(seed=5)
    b.reset(seed=5)
    c.reset(seed=6)
    assert a.table.deal.dealt == b.table.deal.dealt != c.table.deal.dealt


# -- the environment on the vector env, rules objects, records, rendering --------------------------------

from fiftysix.pettingzoo import vector_env  # noqa: E402

VECTOR_PRESETS = ["56-4", "56-6", "56-hidden", "55", "55-6"]


@pytest.mark.parametrize("preset", VECTOR_PRESETS)
def test_the_vector_table_passes_the_api_test(preset: str) -> None:
    api_test(vector_env(preset), num_cycles=200)


@pytest.mark.parametrize("preset", VECTOR_PRESETS)
def test_the_vector_table_passes_the_seed_test(preset: str) -> None:
    seed_test(lambda: vector_env(preset), num_cycles=100)


@pytest.mark.parametrize("make", [lambda r: env(rules=r), lambda r: vector_env(r)])
def test_a_rules_object_is_played(make) -> None:
    rules = {"preset": "56-4", "trump": "hidden", "claim": True}
    e = make(rules)
    e.reset(seed=3)
    texts = set()
    for _agent in e.agent_iter():
        obs, _, termination, truncation, _ = e.last()
        if termination or truncation:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        texts |= {e.unwrapped.enc.action_text(int(a)) for a in legal}
        e.step(int(legal[-1]))      # the last legal action: a trump choice reaches ?, the play CLAIM
    assert "NT" in texts and e.unwrapped.enc.rules.trump == "hidden"


def test_a_preset_and_rules_naming_another_are_refused_as_openspiel_refuses_them() -> None:
    """Issue 60: the preset was silently dropped for the rules object's."""
    with pytest.raises(ValueError, match="preset '56-6' and rules naming preset '56-4' were both given: give the "
                                         "preset inside the rules alone"):
        env(preset="56-6", rules={"preset": "56-4", "trump": "hidden"})
    rules = {"preset": "56-4", "claim": True}
    with pytest.raises(ValueError, match="both given"):
        raw_env(preset="56-8", rules=rules)
    assert raw_env(preset="56-6", rules={"trump": "hidden"}).enc.n == 6     # the preset, put in the rules
    assert raw_env(preset="56-4", rules=rules).enc.rules.claim
    assert raw_env().preset == "56-4"


@pytest.mark.parametrize("make", [lambda: env(preset="56-6"), lambda: vector_env("56-6")])
def test_reset_to_a_chosen_deal_from_a_record(make) -> None:
    a = make()
    a.reset(seed=5)
    for _ in range(20):
        obs, _, _, _, _ = a.last()
        a.step(int(np.flatnonzero(obs["action_mask"])[0]))
    record = a.unwrapped.record()
    b = make()
    b.reset(options={"record": record})
    assert b.unwrapped.record() == record
    assert b.agent_selection == a.agent_selection
    for agent in a.possible_agents:
        assert np.array_equal(a.observe(agent)["observation"], b.observe(agent)["observation"])
        assert np.array_equal(a.observe(agent)["action_mask"], b.observe(agent)["action_mask"])
    with pytest.raises(ValueError, match="the record option must be a deal record"):
        b.reset(options={"record": "56-6"})
    with pytest.raises(ValueError, match="rules or dealer"):
        env(preset="56-4").reset(options={"record": record})


@pytest.mark.parametrize("make", [lambda: env(preset="56-4", render_mode="human"),
                                  lambda: vector_env("56-4", render_mode="human")])
def test_render_human_prints_the_view(make, capsys) -> None:
    e = make()
    e.reset(seed=1)
    assert e.render() is None
    out = capsys.readouterr().out
    assert '"to_move":0' in out and '"hand":[' in out


def test_bad_parameters_name_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="render_mode must be None, 'ansi' or 'human'"):
        env(preset="56-4", render_mode="rgb_array")
    with pytest.raises(ValueError, match="dealer must be a seat, 0-3"):
        env(preset="56-4", dealer=-5)
    with pytest.raises(ValueError, match="preset must be a preset name"):
        env(preset={"preset": "56-4"})

"""The panel (arena/panel.py) and its rating (arena/rating.py): shape and seeds of a tiny run, the tuning/reporting
seed separation, and the Bradley-Terry fit on made-up results."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any

import pytest

from fiftysix.arena import ArenaConfig, ChunkResult, run_arena, summarize
from fiftysix.arena import panel as panel_mod
from fiftysix.arena.panel import (
    PANEL,
    REPORTING,
    TUNED_ON,
    TUNING,
    Member,
    PanelConfig,
    PanelError,
    format_panel,
    panel_average,
    run_panel,
    seed_set,
)
from fiftysix.arena.rating import Result, fit, rate, result_of, win_chance
from fiftysix.bots import RandomBot, register
from fiftysix.bots.base import Seen, legal_moves
from fiftysix.cli.main import main


class Passer(RandomBot):
    """Passes whenever it may (a made-up timid bidder), else plays at random."""

    def choose(self, seen: Seen) -> str:
        return "P" if "P" in legal_moves(seen) else super().choose(seen)


register("test-passer", Passer)

TINY = (Member("rules", "rules", "rules", "the anchor"), Member("passer", "test-passer", "test-passer", "never bids"))


def tiny(**kw: Any) -> PanelConfig:
    options: dict[str, Any] = {"bots": ("random",), "deals": 3, "presets": ("56-4", "56-6"), "members": TINY}
    options.update(kw)
    return PanelConfig(**options)


# -- the runner -------------------------------------------------------------------------------------------------

def test_tiny_panel_table_shape_and_seeds() -> None:
    doc = run_panel(tiny(), bootstrap=20)
    rows = doc["pairings"]
    assert [(r["preset"], r["member"]) for r in rows] == [("56-4", "rules"), ("56-4", "passer"),
                                                          ("56-6", "rules"), ("56-6", "passer")]
    assert doc["seed_set"]["name"] == "reporting" and doc["reportable"] is True
    for r in rows:
        assert r["bot"] == "random" and r["seed"] == REPORTING.seed and r["pairs"] == 3 and r["first"] == 0
        assert len(r["per_pair"]) == 3 and r["seatings"] == 6
        assert r["difference"]["n"] == 3
        assert math.isclose(r["difference"]["mean"], sum(r["per_pair"]) / 3)
        for side in (0, 1):
            assert math.isclose(r["declare_rate"][side], r["declared"][side] / 6)
            assert r["made"][side] <= r["declared"][side]
    # the passer never declares unless every seat passes (then first hand plays 28 no-trumps)
    passer = [r for r in rows if r["member"] == "passer"]
    assert all(r["declared"][1] <= r["declared"][0] for r in passer)
    # each pairing is the arena's own duel of the same seed: the same paired difference
    arena = ArenaConfig("56-6", ("random", "rules"), deals=3, seed=REPORTING.seed)
    result, elapsed = run_arena(arena)
    duel = summarize(arena, result, elapsed)["bots"][0]["paired_difference"]["mean"]
    assert math.isclose(rows[2]["difference"]["mean"], duel)
    # the rating: rules is the anchor; random loses to rules, so it rates below 0
    ratings = {r["name"]: r for r in doc["rating"]["ratings"]}
    assert ratings["rules"]["rating"] == 0.0
    assert ratings["random"]["rating"] < 0
    assert set(ratings) == {"rules", "passer", "random"}
    assert set(doc["panel_average"]["random"]) == {"56-4", "56-6", "all"}
    assert doc["panel_average"]["random"]["all"]["n"] == 6
    text = format_panel(doc)
    assert "reporting seeds (seed 5628)" in text and "TUNING" not in text
    assert text.count("random           56-") == 4


def test_every_pairing_plays_the_same_deals_of_the_seed_set() -> None:
    seen: list[ArenaConfig] = []

    def runner(config: ArenaConfig) -> tuple[ChunkResult, float]:
        seen.append(config)
        return run_arena(config)

    run_panel(tiny(bots=("random", "rules"), deals=2, presets=("56-4",), first=5), runner=runner, bootstrap=5)
    # rules does not play itself: random x (rules, passer), rules x passer
    assert [c.bots for c in seen] == [("random", "rules"), ("random", "test-passer"), ("rules", "test-passer")]
    assert {(c.seed, c.first, c.deals, c.rules) for c in seen} == {(REPORTING.seed, 5, 2, "56-4")}


def test_the_panel_is_named_in_one_place() -> None:
    names = [m.name for m in PANEL]
    assert names == ["rules", "pimc", "ismcts", "bold", "timid", "sage"]
    specs = {m.name: m.spec for m in PANEL}
    assert specs["bold"] == "rules,margin=-1" and "bid_margin=0.6" in specs["timid"]
    assert all("fast=true" in m.fast for m in PANEL if m.spec.startswith(("pimc", "sage")))
    # sage is a member (issue 47): a bot that beats only the overbidders does not look strong
    assert {m.name: m.setting(fast=True) for m in PANEL}["sage"] == "sage,fast=true"
    assert "sage" in [m.name for _, m, _ in PanelConfig(bots=("pimc",), deals=1, fast=True).pairings()]


def test_a_bot_is_rated_apart_from_the_member_of_the_same_name() -> None:
    fast = PanelConfig(bots=("pimc", "pimc,fast=true"), deals=1, fast=True)
    assert panel_mod.label("pimc,fast=true", fast) == "pimc"
    assert panel_mod.label("pimc", fast) == "pimc (bot)"
    played = [(bot, m.name) for bot, m, preset in fast.pairings() if preset == "56-4"]
    assert played == [("pimc", n) for n in ("rules", "pimc", "ismcts", "bold", "timid", "sage")] + [
        ("pimc,fast=true", n) for n in ("rules", "ismcts", "bold", "timid", "sage")]
    rows = [{"bot": "pimc", "member": "pimc", "per_pair": [1.0, 1.0, -1.0]}]
    (result,) = panel_mod.results_of(rows, fast)
    assert (result.a, result.b, result.wins, result.losses) == ("pimc (bot)", "pimc", 2, 1)


def test_the_bold_bidder_declares_more_than_rules_and_the_default_margin_is_unchanged() -> None:
    def duel(bot: str) -> dict[str, Any]:
        arena = ArenaConfig("56-6", (bot, "rules"), deals=20, seed=TUNING.seed)
        result, elapsed = run_arena(arena)
        return summarize(arena, result, elapsed)

    bold = duel("rules,margin=-1")["bots"]
    assert bold[0]["declared"] > 2 * bold[1]["declared"]
    same = duel("rules,margin=2")
    assert same["bots"][0]["declared"] == same["bots"][1]["declared"]
    assert all(row["scores"][0] == row["scores"][1] for row in same["per_deal"])


# -- the seed sets ----------------------------------------------------------------------------------------------

def test_reporting_and_tuning_seeds_are_apart() -> None:
    assert REPORTING.seed != TUNING.seed
    assert REPORTING.seed not in TUNED_ON and TUNING.seed in TUNED_ON
    assert seed_set("reporting") is REPORTING
    with pytest.raises(PanelError, match="for tuning"):
        seed_set("tuning")
    assert seed_set("tuning", for_tuning=True) is TUNING
    with pytest.raises(PanelError, match="unknown seed set"):
        seed_set("lucky")


def test_the_runner_refuses_tuning_seeds_unless_told() -> None:
    def runner(config: ArenaConfig) -> tuple[ChunkResult, float]:
        raise AssertionError("nothing may be played on the tuning seeds unless told")

    with pytest.raises(PanelError, match="tuning seed"):
        run_panel(tiny(seeds=TUNING), runner=runner)
    doc = run_panel(tiny(seeds=TUNING, for_tuning=True, deals=1, presets=("56-4",)), bootstrap=5)
    assert doc["reportable"] is False
    assert {r["seed"] for r in doc["pairings"]} == {TUNING.seed}
    assert "TUNING SEEDS" in format_panel(doc)


def test_cli_panel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(panel_mod, "PANEL", TINY)
    out = tmp_path / "panel.json"
    stdout, stderr = io.StringIO(), io.StringIO()
    code = main(["arena", "--panel", "--bot", "random", "--deals", "2", "--rules", "56-4", "--quiet",
                 "--json", str(out)], stdout=stdout, stderr=stderr)
    assert code == 0, stderr.getvalue()
    doc = json.loads(out.read_text())
    assert [r["member"] for r in doc["pairings"]] == ["rules", "passer"]
    assert doc["seed_set"]["seed"] == REPORTING.seed
    assert "panel average random 56-4" in stdout.getvalue()
    for argv, message in ((["--seeds", "tuning"], "for tuning"), (["--seed", "3"], "named seed set"),
                          ([], None)):
        stdout, stderr = io.StringIO(), io.StringIO()
        if message is None:     # no bot
            code = main(["arena", "--panel", "--quiet"], stdout=stdout, stderr=stderr)
            assert code == 2 and "--bot" in stderr.getvalue()
            continue
        code = main(["arena", "--panel", "--bot", "random", "--quiet", *argv], stdout=stdout, stderr=stderr)
        assert code == 2 and message in stderr.getvalue(), stderr.getvalue()
        assert stdout.getvalue() == ""


# -- the rating -------------------------------------------------------------------------------------------------

def made_up(truth: dict[str, float], n: int, pairs: list[tuple[str, str]]) -> list[Result]:
    """Results with the counts the Bradley-Terry model expects for ratings ``truth`` (no ties)."""
    out = []
    for a, b in pairs:
        wins = round(n * win_chance(truth[a] - truth[b]))
        out.append(Result(a, b, wins, n - wins, 0))
    return out


def test_result_of_counts_wins_losses_and_ties() -> None:
    r = result_of("a", "b", [1.0, -0.5, 0.0, 0.0, 2.0])
    assert (r.wins, r.losses, r.ties, r.games) == (2, 1, 2, 5)


def test_rating_recovers_a_known_order_with_the_anchor_at_zero() -> None:
    truth = {"rules": 0.0, "strong": 0.8, "weak": -0.6, "mid": 0.3}
    pairs = [("strong", "rules"), ("weak", "rules"), ("mid", "rules"), ("strong", "weak"), ("mid", "weak"),
             ("strong", "mid")]
    got = fit(made_up(truth, 4000, pairs), "rules", prior=0.0)
    assert got["rules"] == 0.0
    assert sorted(got, key=got.__getitem__) == ["weak", "rules", "mid", "strong"]
    for name, value in truth.items():
        assert abs(got[name] - value) < 0.02, (name, got[name])


def test_symmetric_results_give_equal_ratings() -> None:
    results = [Result("x", "rules", 30, 30, 40), Result("y", "rules", 25, 25, 50), Result("x", "y", 10, 10, 0)]
    got = fit(results, "rules")
    assert abs(got["x"]) < 1e-6 and abs(got["y"]) < 1e-6
    # swapping the sides of every pairing mirrors the ratings
    a = fit([Result("x", "rules", 70, 30, 0)], "rules")
    b = fit([Result("rules", "x", 30, 70, 0)], "rules")
    assert math.isclose(a["x"], b["x"]) and a["x"] > 0


def test_intervals_widen_with_fewer_games() -> None:
    truth = {"rules": 0.0, "a": 0.5, "b": -0.4}
    pairs = [("a", "rules"), ("b", "rules"), ("a", "b")]

    def widths(n: int) -> dict[str, float]:
        return {r.name: r.high - r.low for r in rate(made_up(truth, n, pairs), "rules", bootstrap=150, seed=3)}

    many, few = widths(2000), widths(50)
    for name in ("a", "b"):
        assert few[name] > 2 * many[name] > 0
    assert many["rules"] == few["rules"] == 0.0
    ratings = {r.name: r for r in rate(made_up(truth, 2000, pairs), "rules", bootstrap=150, seed=3)}
    for name in ("a", "b"):
        assert ratings[name].low < truth[name] < ratings[name].high


def test_a_clean_sweep_is_finite_and_a_loose_bot_is_refused() -> None:
    got = fit([Result("top", "rules", 20, 0, 0)], "rules")
    assert 2 < got["top"] < 10
    with pytest.raises(ValueError, match="links"):
        fit([Result("a", "rules", 5, 5, 0), Result("b", "c", 5, 5, 0)], "rules")
    with pytest.raises(ValueError, match="anchor"):
        fit([Result("a", "b", 5, 5, 0)], "rules")


def test_panel_average_is_the_mean_over_members_per_deal() -> None:
    rows = [{"bot": "x", "preset": "56-4", "first": 0, "per_pair": [1.0, 0.0, 2.0]},
            {"bot": "x", "preset": "56-4", "first": 0, "per_pair": [3.0, 0.0, -2.0]},
            {"bot": "y", "preset": "56-4", "first": 0, "per_pair": [9.0, 9.0, 9.0]}]
    got = panel_average(rows, "x", ("56-4", "56-6"))
    assert set(got) == {"56-4", "all"}
    assert math.isclose(got["56-4"]["mean"], (2.0 + 0.0 + 0.0) / 3)
    assert got["56-4"]["n"] == 3


def test_pooling_parts_gives_the_whole_run() -> None:
    whole = run_panel(tiny(deals=4, presets=("56-4",)), bootstrap=5)
    parts = [run_panel(tiny(deals=2, presets=("56-4",), first=f), bootstrap=5) for f in (2, 0)]
    pooled = panel_mod.pool_panels(parts, bootstrap=5)
    for a, b in zip(whole["pairings"], pooled["pairings"], strict=True):
        assert a["per_pair"] == b["per_pair"] and a["deal_indices"] == b["deal_indices"] == [0, 1, 2, 3]
        assert a["declared"] == b["declared"] and a["seatings"] == b["seatings"] == 8
        assert math.isclose(a["difference"]["mean"], b["difference"]["mean"])
    assert [r["rating"] for r in whole["rating"]["ratings"]] == [r["rating"] for r in pooled["rating"]["ratings"]]
    with pytest.raises(ValueError, match="two runs"):
        panel_mod.pool_panels([parts[0], parts[0]])
    tuning = run_panel(tiny(deals=1, presets=("56-4",), seeds=TUNING, for_tuning=True), bootstrap=5)
    with pytest.raises(ValueError, match="seed_set"):
        panel_mod.pool_panels([parts[0], tuning])


def test_a_part_may_play_only_some_members_and_pools_with_runs_before_a_member_joined() -> None:
    bold = Member("bold", "rules,margin=-1", "rules,margin=-1", "a bold bidder")
    before = run_panel(tiny(deals=2, presets=("56-4",)), bootstrap=5)      # the panel before bold joined
    joined = tiny(deals=2, presets=("56-4",), members=(*TINY, bold), only=("bold",))
    assert [m.name for _, m, _ in joined.pairings()] == ["bold"]
    part = run_panel(joined, bootstrap=5)
    assert [r["member"] for r in part["pairings"]] == ["bold"]
    assert [m["name"] for m in part["panel"]] == ["rules", "passer", "bold"]
    assert part["rating"]["ratings"] == [] and "rules" in part["rating"]["note"]     # no link to the anchor alone
    pooled = panel_mod.pool_panels([panel_mod.pool_panels([before], bootstrap=5), part], bootstrap=5)
    assert pooled["pooled"] == 2 and pooled["workers"] == [1]
    assert [m["name"] for m in pooled["panel"]] == ["rules", "passer", "bold"]
    assert [r["member"] for r in pooled["pairings"]] == ["rules", "passer", "bold"]
    assert pooled["pairings"][2]["per_pair"] == part["pairings"][0]["per_pair"]
    assert {r["name"] for r in pooled["rating"]["ratings"]} == {"random", "rules", "passer", "bold"}
    other = dict(part, panel=[*before["panel"], {"name": "bold", "spec": "rules,margin=-2", "about": ""}])
    with pytest.raises(ValueError, match="settings of bold"):
        panel_mod.pool_panels([part, other])
    with pytest.raises(PanelError, match="not a panel member: sage; the members are rules, passer"):
        run_panel(tiny(only=("sage",)), bootstrap=5)


def test_cli_members(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(panel_mod, "PANEL", TINY)
    out = tmp_path / "panel.json"
    stdout, stderr = io.StringIO(), io.StringIO()
    code = main(["arena", "--panel", "--bot", "random", "--deals", "1", "--rules", "56-4", "--members", "passer",
                 "--quiet", "--json", str(out)], stdout=stdout, stderr=stderr)
    assert code == 0, stderr.getvalue()
    assert [r["member"] for r in json.loads(out.read_text())["pairings"]] == ["passer"]
    for argv, message in ((["--panel", "--members", "nobody"], "not a panel member: nobody"),
                          (["--members", "passer"], "give --panel too")):
        stdout, stderr = io.StringIO(), io.StringIO()
        code = main(["arena", "--bot", "random", "--bot", "rules", "--deals", "1", "--quiet", *argv],
                    stdout=stdout, stderr=stderr)
        assert code == 2 and message in stderr.getvalue(), stderr.getvalue()

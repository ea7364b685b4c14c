"""The arena: duplicate pairing, identical bots, JSON output, the plot, workers, faulty outside bots."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pytest

from fiftysix.arena import ArenaConfig, run_arena, seatings, summarize
from fiftysix.arena.duplicate import run_chunk
from fiftysix.arena.stats import mean_ci, running, t975
from fiftysix.bots import RandomBot, register
from fiftysix.bots.base import Seen, observed
from fiftysix.cli.main import main
from helpers.paths import ROOT, SRC

SEEN: list[tuple[str, int, tuple[str, ...], str]] = []


class Recorder(RandomBot):
    """A random bot that notes the hand it is dealt (first decision of each deal)."""

    def __init__(self, seed: int | None = None, tag: str = "?") -> None:
        super().__init__(seed)
        self.tag = tag
        self.first = True

    def choose(self, seen: Seen) -> str:
        if self.first:      # the arena hands in-process bots the observation built from the deal
            obs = observed(seen)
            SEEN.append((self.tag, obs.seat, tuple(map(str, obs.hand)), json.dumps(list(obs.auction))))
            self.first = False
        return super().choose(seen)


register("test-recorder", Recorder)


def test_seatings() -> None:
    assert seatings(2, 2) == [[0, 1], [1, 0]]
    assert seatings(4, 2) == [[0, 1, 0, 1], [1, 0, 1, 0]]
    assert seatings(3, 3) == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    with pytest.raises(ValueError, match="evenly"):
        seatings(3, 2)
    with pytest.raises(ValueError, match="two bots"):
        seatings(2, 1)


def test_same_deals_with_seats_swapped() -> None:
    SEEN.clear()
    config = ArenaConfig("56-4", ("test-recorder,tag=A", "test-recorder,tag=B"), deals=3, seed=9)
    result = run_chunk(config, [0, 1, 2])
    assert [(p.deal, p.seating) for p in result.plays] == [(d, r) for d in range(3) for r in range(2)]
    # every seat's first decision is seen once per seating: 4 seats x 2 seatings x 3 deals
    assert len(SEEN) == 24
    for deal in range(3):
        first, second = SEEN[deal * 8: deal * 8 + 4], SEEN[deal * 8 + 4: deal * 8 + 8]
        a_hands = {(seat, hand) for tag, seat, hand, _ in first if tag == "A"}
        b_hands = {(seat, hand) for tag, seat, hand, _ in second if tag == "B"}
        assert a_hands == b_hands and len(a_hands) == 2           # B gets A's seats and cards
        assert {seat for seat, _ in a_hands} in ({0, 2}, {1, 3})   # the seats of one team


@pytest.mark.parametrize("bot", ["random", "rules"])
def test_identical_bots_differ_by_exactly_zero(bot: str) -> None:
    config = ArenaConfig("56-6", (bot, bot), deals=4, seed=3)
    result, elapsed = run_arena(config)
    summary = summarize(config, result, elapsed)
    for b in summary["bots"]:
        assert b["paired_difference"]["mean"] == 0.0
        assert b["paired_difference"]["ci95"] == [0.0, 0.0]
    assert all(row["scores"][0] == row["scores"][1] for row in summary["per_deal"])
    assert summary["bots"][1]["label"] == f"{bot}#2"


def test_workers_give_the_same_result() -> None:
    one = ArenaConfig("56-4", ("random", "rules"), deals=6, seed=5)
    two = ArenaConfig("56-4", ("random", "rules"), deals=6, seed=5, workers=2)
    assert run_arena(one)[0].plays == run_arena(two)[0].plays


@pytest.mark.slow
def test_json_and_plot(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    json_path, png = tmp_path / "arena.json", tmp_path / "arena.png"
    status = main(["arena", "--rules", "56-4", "--bot", "rules", "--bot", "random", "--deals", "5", "--seed", "2",
                   "--json", str(json_path), "--plot", str(png), "--quiet"], io.StringIO(), out, err)
    assert status == 0, err.getvalue()
    text = out.getvalue()
    assert "rules - random:" in text and "95% CI" in text and "ms/decision" in text
    data = json.loads(json_path.read_text(encoding="utf-8"))
    assert set(data) >= {"game", "rules", "deals", "seed", "seatings", "unit", "elapsed_seconds", "bots", "per_deal"}
    assert (data["game"], data["deals"], data["seatings"], data["unit"]) == ("56", 5, 2, "tables")
    for b in data["bots"]:
        assert set(b) >= {"bot", "label", "mean_score", "mean_points", "declared", "made", "bid_success",
                          "paired_difference", "time_ms", "faults"}
        assert set(b["paired_difference"]) >= {"mean", "ci95", "sd", "n", "versus"}
        assert set(b["time_ms"]) >= {"decisions", "mean", "choice_mean", "choice_p90", "max"}
        assert b["faults"] == {"count": 0, "messages": []}
        assert b["declared"] >= b["made"]
    a, r = data["bots"]
    assert a["paired_difference"]["mean"] == pytest.approx(a["mean_score"] - r["mean_score"])
    assert a["mean_points"] + r["mean_points"] == pytest.approx(56)
    assert len(data["per_deal"]) == 5
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


SOMETIMES_LIAR = (
    "import json, sys\n"
    "asked = 0\n"
    "for line in sys.stdin:\n"
    "    m = json.loads(line)\n"
    "    if m['type'] == 'hello': print(json.dumps({'type': 'ready', 'name': 'sometimes-liar'}), flush=True)\n"
    "    elif m['type'] == 'move':\n"
    "        asked += 1\n"
    "        move = 'ZZ' if asked % EVERY == 0 else m['view']['legal'][0]\n"
    "        print(json.dumps({'type': 'move', 'move': move}), flush=True)\n"
    "    elif m['type'] == 'bye': break\n")


def outside(tmp_path: Path, name: str, text: str) -> str:
    script = tmp_path / name
    script.write_text(text, encoding="utf-8")
    return f"cmd:{sys.executable} {script}"


@pytest.mark.parametrize("preset", ["56-4", "56-hidden", "55"])
def test_faulty_outside_bot_is_reported_and_the_run_goes_on(tmp_path: Path, preset: str) -> None:
    bot = outside(tmp_path, "liar.py", SOMETIMES_LIAR.replace("EVERY", "4"))
    out, err = io.StringIO(), io.StringIO()
    json_path = tmp_path / "a.json"
    status = main(["arena", "--rules", preset, "--bot", bot, "--bot", "random",
                   "--deals", "3", "--json", str(json_path), "--quiet"], io.StringIO(), out, err)
    assert status == 0, err.getvalue()
    data = json.loads(json_path.read_text(encoding="utf-8"))
    first = data["bots"][0]
    decisions = first["time_ms"]["decisions"]
    assert first["label"] == "sometimes-liar" and first["bot"] == bot       # named as it says in ready
    assert 0 < first["faults"]["count"] <= decisions // 4 + 2
    assert "illegal move 'ZZ'" in first["faults"]["messages"][0]
    assert "fault of sometimes-liar:" in out.getvalue()


FIVE = ["56-4", "56-6", "56-8", "56-hidden", "55"]


@pytest.mark.parametrize("preset", FIVE)
def test_an_outside_program_that_faults_on_most_moves_stops_the_run(tmp_path: Path, preset: str) -> None:
    bot = outside(tmp_path, "liar.py", SOMETIMES_LIAR.replace("EVERY", "1"))
    out, err = io.StringIO(), io.StringIO()
    status = main(["arena", "--rules", preset, "--bot", bot, "--bot", "random", "--deals", "50", "--quiet"],
                  io.StringIO(), out, err)
    assert status == 1
    assert f"error: the run is stopped: {bot} does not play: 20 of its 20 moves were faults" in err.getvalue()
    assert "illegal move 'ZZ'" in err.getvalue() and out.getvalue() == ""


@pytest.mark.parametrize("preset", FIVE)
def test_a_program_that_cannot_start_stops_the_run_at_once(preset: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    status = main(["arena", "--rules", preset, "--bot", "cmd:/nonexistent", "--bot", "random", "--deals", "50",
                   "--quiet"], io.StringIO(), out, err)
    assert status == 1
    assert "cmd:/nonexistent (seat 0) does not play: the program could not be started" in err.getvalue()
    assert "per deal" not in out.getvalue()


@pytest.mark.parametrize("preset", FIVE)
def test_a_program_that_never_says_ready_stops_the_run(tmp_path: Path, preset: str) -> None:
    bot = outside(tmp_path, "mute.py", "import sys\nfor line in sys.stdin:\n    pass\n")
    out, err = io.StringIO(), io.StringIO()
    status = main(["arena", "--rules", preset, "--bot", bot, "--bot", "random", "--deals", "5", "--timeout", "0.3",
                   "--quiet"], io.StringIO(), out, err)
    assert status == 1
    assert "does not play: no ready: no answer within 0.3 s" in err.getvalue()


def test_the_column_and_the_difference_have_their_own_labels(capsys: pytest.CaptureFixture[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["arena", "--rules", "56-4", "--bot", "random", "--bot", "rules", "--deals", "3", "--quiet"],
                io.StringIO(), out, err) == 0
    lines = out.getvalue().splitlines()
    header = next(line for line in lines if line.startswith("bot "))
    headline = next(line for line in lines if "95% CI" in line)
    assert "mean tables" in header and headline.startswith("paired difference random - rules: ")
    assert "mean tables" not in headline and "tables a deal" in headline and "a deal" not in header
    help_out = io.StringIO()
    main(["arena", "--help"], io.StringIO(), help_out, io.StringIO())
    helptext = help_out.getvalue() + capsys.readouterr().out
    assert "95% confidence" in " ".join(helptext.split()) and "%%" not in helptext


@pytest.mark.parametrize(("stop", "workers"), [("SIGINT", 1), ("SIGTERM", 1), ("SIGTERM", 2)])
def test_ctrl_c_or_kill_prints_and_writes_the_deals_played_so_far(tmp_path: Path, stop: str, workers: int) -> None:
    """Ctrl-C in a terminal; ``kill PID`` (SIGTERM) for a run a script started in the background, where SIGINT
    is ignored (as POSIX shells start background jobs)."""
    import re
    import signal
    import subprocess
    import threading
    import time

    json_path = tmp_path / "partial.json"
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    # a test run started in the background of a shell ignores SIGINT, and a child inherits that: for Ctrl-C give
    # it back the default, as in a terminal; for kill, ignore it as in the background
    sigint = signal.SIG_DFL if stop == "SIGINT" else signal.SIG_IGN
    process = subprocess.Popen([sys.executable, "-m", "fiftysix.cli.main", "arena", "--rules", "56-4",
                                "--bot", "random", "--bot", "rules", "--deals", "100000", "--seed", "3",
                                "--workers", str(workers), "--json", str(json_path)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, sigint))
    seen: list[str] = []
    reader = threading.Thread(target=lambda: seen.extend(iter(lambda: process.stderr.read(1), "")), daemon=True)
    reader.start()
    deadline = time.monotonic() + 300     # a loaded machine starts slowly
    try:
        while time.monotonic() < deadline:
            counts = [int(n) for n in re.findall(r"(\d+)/100000", "".join(seen))]
            if counts and max(counts) >= 3:
                break
            time.sleep(0.1)
        else:
            pytest.fail("the arena did not progress")
        process.send_signal(getattr(signal, stop))
        stdout, _ = process.communicate(timeout=180)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    data = json.loads(json_path.read_text(encoding="utf-8"))
    assert data["interrupted"] is True and data["deals_planned"] == 100000
    assert 3 <= data["deals"] == len(data["per_deal"]) < 100000
    assert f"interrupted: {data['deals']} of 100000 deals played to the end" in stdout
    assert "paired difference random - rules" in stdout
    if workers == 1:    # with workers the chunks done need not be the first ones
        assert [row["deal"] for row in data["per_deal"]] == list(range(data["deals"]))


def test_bad_arguments() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["arena", "--bot", "random"], io.StringIO(), out, err) == 2
    assert main(["arena", "--bot", "random", "--bot", "bogus"], io.StringIO(), out, err) == 2
    assert main(["arena", "--rules", "56-pairs-6", "--bot", "random", "--bot", "rules"], io.StringIO(), out, err) == 2
    text = err.getvalue()
    assert "at least two bots" in text and "unknown bot 'bogus'" in text and "evenly" in text


def test_stats() -> None:
    assert t975(1) == pytest.approx(12.706)
    assert t975(30) == pytest.approx(2.042, abs=1e-3)
    assert t975(120) == pytest.approx(1.980, abs=1e-3)
    ci = mean_ci([1.0, 2.0, 3.0])
    assert (ci.mean, ci.sd, ci.n) == (2.0, 1.0, 3)
    assert ci.low == pytest.approx(2 - 4.303 / 3 ** 0.5)
    run = running([1.0, 2.0, 3.0])
    assert run[-1].mean == pytest.approx(2.0) and run[-1].low == pytest.approx(ci.low)
    assert run[0].low is None


def test_a_run_from_deal_n_plays_the_seeds_later_deals_and_pools_with_the_first_part() -> None:
    from fiftysix.arena.report import pool

    whole = ArenaConfig("56-4", ("random", "rules"), deals=5, seed=4)
    head = ArenaConfig("56-4", ("random", "rules"), deals=2, seed=4)
    tail = ArenaConfig("56-4", ("random", "rules"), deals=3, seed=4, first=2, workers=2)
    summaries = [summarize(c, *run_arena(c)) for c in (whole, head, tail)]
    assert [row["deal"] for row in summaries[2]["per_deal"]] == [2, 3, 4] and summaries[2]["first"] == 2
    assert summaries[1]["per_deal"] + summaries[2]["per_deal"] == summaries[0]["per_deal"]
    pooled = pool([summaries[2], summaries[1]])
    for got, want in zip(pooled["bots"], summaries[0]["bots"], strict=True):
        assert got["paired_difference"] == want["paired_difference"]
        assert (got["declared"], got["made"]) == (want["declared"], want["made"])
        assert got["mean_points"] == pytest.approx(want["mean_points"])
    assert [p["first"] for p in pooled["parts"]] == [2, 0] and pooled["deals"] == 5
    again = pool([pool([summaries[1]]), summaries[2]])      # a pooled summary pooled with a further run
    assert [b["paired_difference"] for b in again["bots"]] == [b["paired_difference"] for b in pooled["bots"]]
    assert [(p["first"], p["deals"]) for p in again["parts"]] == [(0, 2), (2, 3)]
    assert again["parts"][0]["time_ms"] == [b["time_ms"] for b in summaries[1]["bots"]]
    with pytest.raises(ValueError, match="more than one run"):
        pool([summaries[0], summaries[1]])
    with pytest.raises(ValueError, match="different seed"):
        pool([summaries[1], {**summaries[2], "seed": 5}])
    out, err = io.StringIO(), io.StringIO()
    assert main(["arena", "--bot", "random", "--bot", "rules", "--first", "-1"], io.StringIO(), out, err) == 2
    assert "--first not negative" in err.getvalue()


def test_the_pooling_script_prints_the_pooled_difference(tmp_path: Path) -> None:
    import subprocess

    paths = []
    for first, deals in ((0, 2), (2, 2)):
        config = ArenaConfig("56-4", ("rules", "random"), deals=deals, seed=6, first=first)
        paths.append(tmp_path / f"part{first}.json")
        paths[-1].write_text(json.dumps(summarize(config, *run_arena(config))), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "pool_arena.py"), *map(str, paths), "--json",
                           str(tmp_path / "pooled.json")], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    pooled = json.loads((tmp_path / "pooled.json").read_text(encoding="utf-8"))
    assert pooled["deals"] == 4 and "n = 4 deals" in done.stdout and "paired difference rules - random" in done.stdout
    clash = subprocess.run([sys.executable, str(ROOT / "bench" / "pool_arena.py"), str(paths[0]), str(paths[0])],
                           capture_output=True, text=True, env=env, timeout=120)
    assert clash.returncode == 2 and "more than one run" in clash.stderr


def test_a_cluster_that_asks_for_a_token_is_named_with_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ray's own refusal ("InvalidAuthToken") becomes one sentence saying what to set (issue 30)."""
    from fiftysix.arena import cluster

    class Refusing:
        @staticmethod
        def is_initialized() -> bool:
            return False

        @staticmethod
        def init(**_kwargs: object) -> None:
            raise ConnectionError("InvalidAuthToken: the request has no valid authentication token")

    monkeypatch.setattr(cluster, "_ray", lambda: Refusing)
    with pytest.raises(RuntimeError) as told:
        cluster.connect("auto")
    assert "RAY_AUTH_TOKEN" in str(told.value) and "ray get-auth-token" in str(told.value)
    assert cluster._token_refused(ConnectionError("InvalidAuthToken"))
    assert not cluster._token_refused(ConnectionError("connection refused"))

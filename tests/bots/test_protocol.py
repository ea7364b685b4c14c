"""The bot protocol: our bots as outside programs (``fiftysix bot``), and a host that survives bots
that answer nonsense, illegal moves, too late, or crash."""

from __future__ import annotations

import io
import json
import sys
import textwrap
from pathlib import Path

import pytest

from fiftysix.bots import RandomBot
from fiftysix.bots.protocol import ExternalBot, bot_from_spec, parse_bot_spec, run_bot
from fiftysix.cli.main import main
from fiftysix.games import GAMES
from fiftysix.views import view

BOT_CMD = [sys.executable, "-m", "fiftysix.cli.main", "bot"]


def play(deal: object, bots: list[object]) -> None:
    while not deal.is_over:  # type: ignore[attr-defined]
        seat = deal.to_move  # type: ignore[attr-defined]
        deal.push(bots[seat].choose(view(deal, seat)))  # type: ignore[attr-defined]
        for s, b in enumerate(bots):
            if isinstance(b, ExternalBot):
                b.observe(view(deal, s))


@pytest.mark.slow
def test_round_trip_through_fiftysix_bot() -> None:
    game = GAMES["56"]
    rules = game.rules_from_json("56-4")
    deal = game.new_deal(rules, seed=5)
    with ExternalBot([*BOT_CMD, "random", "--seed", "1"], timeout=10) as a, \
            ExternalBot([*BOT_CMD, "random", "--seed", "2"], timeout=10) as b:
        bots: list[object] = [a, RandomBot(3), b, RandomBot(4)]
        play(deal, bots)
        a.deal_end(deal.result())
        assert a.faults == [] and b.faults == []
        assert a.ready_name == "random"
    assert deal.is_over and deal.result()["complete"]


def test_run_bot_in_process() -> None:
    game = GAMES["56"]
    deal = game.new_deal(game.rules_from_json("56-6"), seed=1)
    v = view(deal, deal.to_move)
    lines = [{"type": "hello", "protocol": 1, "game": "56", "rules": "56-6", "seat": v["seat"]},
             {"type": "event", "view": v}, {"type": "move", "view": v}, "not json",
             {"type": "deal_end", "result": {}}, {"type": "bye"}, {"type": "move", "view": v}]
    stdin = io.StringIO("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
    out, err = io.StringIO(), io.StringIO()
    assert run_bot(lambda game: RandomBot(1), stdin, out, err) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers[0] == {"type": "ready", "name": "random"}
    assert answers[1]["type"] == "move" and answers[1]["move"] in v["legal"]
    assert len(answers) == 2            # nothing after bye
    assert "not a JSON object" in err.getvalue()


def test_run_bot_reports_a_crash_as_error() -> None:
    class Broken:
        name = "broken"

        def choose(self, view: dict[str, object]) -> str:
            raise RuntimeError("no idea")

    v = {"game": "56", "legal": ["P"]}
    stdin = io.StringIO(json.dumps({"type": "move", "view": v}) + "\n")
    out, err = io.StringIO(), io.StringIO()
    run_bot(Broken(), stdin, out, err)
    assert json.loads(out.getvalue()) == {"type": "error", "message": "RuntimeError: no idea"}


def test_bot_command_refuses_unknown_bot() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["bot", "nosuchbot"], io.StringIO(""), out, err) == 2
    assert "unknown bot 'nosuchbot'" in err.getvalue()


def test_bot_specs() -> None:
    assert parse_bot_spec("ismcts,iterations=20,time_limit=0.5,x=yes") == (
        "ismcts", {"iterations": 20, "time_limit": 0.5, "x": "yes"})
    assert bot_from_spec("ismcts,iterations=7", 1).iterations == 7  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="unknown bot"):
        bot_from_spec("nope")
    with pytest.raises(ValueError, match="bot ismcts"):
        bot_from_spec("ismcts,colour=red")
    with pytest.raises(ValueError, match="key=value"):
        parse_bot_spec("ismcts,fast")


MISBEHAVING = textwrap.dedent('''
    import json, sys, time
    mode = sys.argv[1]
    moves = 0
    for line in sys.stdin:
        m = json.loads(line)
        if m["type"] == "hello":
            print(json.dumps({"type": "ready", "name": mode}), flush=True)
        elif m["type"] == "move":
            moves += 1
            legal = m["view"]["legal"]
            if mode == "nonsense":
                print("this is { not json", flush=True)
            elif mode == "illegal":
                print(json.dumps({"type": "move", "move": "ZZ"}), flush=True)
            elif mode == "late":
                if moves == 1:
                    time.sleep(0.5)
                print(json.dumps({"type": "move", "move": legal[0]}), flush=True)
            elif mode == "crash":
                sys.stderr.write("boom\\n")
                sys.exit(3)
            elif mode == "hang":
                time.sleep(30)
        elif m["type"] == "bye":
            break
''')


@pytest.mark.parametrize(("mode", "message", "every"), [
    ("nonsense", "malformed JSON", True),
    ("illegal", "illegal move 'ZZ'", True),
    ("late", "no answer within 0.3 s", False),
    ("crash", "(exit status 3); stderr: boom", True),
])
def test_misbehaving_bot_is_replaced(tmp_path: Path, mode: str, message: str, every: bool) -> None:
    script = tmp_path / "bad.py"
    script.write_text(MISBEHAVING, encoding="utf-8")
    game = GAMES["56"]
    deal = game.new_deal(game.rules_from_json("56-4"), seed=11)
    with ExternalBot([sys.executable, str(script), mode], timeout=0.3, fallback=RandomBot(0)) as bad:
        play(deal, [bad, RandomBot(1), RandomBot(2), RandomBot(3)])
        faults = list(bad.faults)
    assert deal.is_over
    assert faults and message in faults[0]
    moves = sum(1 for s, _ in deal.history if s == 0)
    if every:
        assert len(faults) == moves
    else:   # a late answer costs that move (and, on a slow machine, maybe the next), never the whole deal
        assert 1 <= len(faults) < moves and all(message in f for f in faults)


@pytest.mark.slow
def test_hanging_bot_is_killed_at_close(tmp_path: Path) -> None:
    script = tmp_path / "hang.py"
    script.write_text(MISBEHAVING, encoding="utf-8")
    bot = ExternalBot([sys.executable, str(script), "hang"], timeout=0.2, fallback=RandomBot(0))
    v = view(GAMES["56"].new_deal(GAMES["56"].rules_from_json("56-4"), seed=1), None)
    v["legal"], v["seat"] = ["P", "28H"], 1
    assert bot.choose(v) in ("P", "28H")
    process = bot._process
    assert process is not None
    bot.close()
    assert process.poll() is not None
    assert "no answer within 0.2 s" in bot.faults[0]


def test_program_that_cannot_start() -> None:
    bot = ExternalBot(["/nonexistent/program"], fallback=RandomBot(0))
    v = {"game": "56", "rules": "56-4", "seat": 0, "legal": ["P"]}
    assert bot.choose(v) == "P"
    assert "could not be started" in bot.faults[0]
    bot.close()

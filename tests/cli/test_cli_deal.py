"""``fiftysix deal``: a complete, valid record from a seed, the same every time."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fiftysix import check
from fiftysix.bots import BOTS
from fiftysix.games import GAMES
from helpers.cli import run

PRESETS_56 = list(GAMES["56"].presets())


def record_of(*argv: str) -> dict[str, Any]:
    r = run("deal", *argv)
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("preset", PRESETS_56)
def test_deal_is_a_valid_complete_record_for_every_56_preset(preset: str) -> None:
    for seed in (1, 2):
        data = record_of("--rules", preset, "--seed", str(seed))
        assert data["game"] == "56"
        result = check(data)
        assert result["valid"] is True, result
        assert result["complete"] is True
        # and `fiftysix check` agrees
        r = run("check", "-", stdin=json.dumps(data))
        assert r.code == 0 and json.loads(r.out) == result


def test_same_seed_same_record_other_seed_other_record() -> None:
    a = run("deal", "--seed", "42")
    b = run("deal", "--seed", "42")
    c = run("deal", "--seed", "43")
    assert a.out == b.out
    assert a.out != c.out


def test_seed_fixes_the_bots_too() -> None:
    a = run("deal", "--seed", "5", "--bots", "random")
    b = run("deal", "--seed", "5", "--bots", "random")
    assert a.out == b.out


def test_dealer_and_a_bot_per_seat() -> None:
    data = record_of("--rules", "56-4", "--seed", "3", "--dealer", "2", "--bots", "rules,random,rules,random")
    assert data["dealer"] == 2 and len(data["hands"]) == 4
    assert check(data)["complete"] is True


def test_rules_as_a_json_object() -> None:
    data = record_of("--rules", '{"preset": "56-4", "deck": 32}', "--seed", "1")
    assert data["rules"] == {"preset": "56-4", "deck": 32}
    assert all(len(h.split()) == 8 for h in data["hands"])
    assert check(data)["valid"] is True


def test_out_file(tmp_path: Path) -> None:
    target = tmp_path / "deal.json"
    r = run("deal", "--seed", "7", "--out", str(target))
    assert r.code == 0 and r.out == ""
    data = json.loads(target.read_text(encoding="utf-8"))
    assert check(data)["complete"] is True
    assert run("check", str(target)).code == 0


def test_unknown_preset() -> None:
    r = run("deal", "--rules", "56-9")
    assert r.code == 2
    assert "unknown preset '56-9'" in r.err and "56-6" in r.err
    assert "Traceback" not in r.err


def test_bad_rules_options() -> None:
    r = run("deal", "--rules", '{"preset": "56-4", "deck": 31}')
    assert r.code == 2 and "deck" in r.err
    r = run("deal", "--rules", '{"preset": ')
    assert r.code == 2 and "malformed JSON" in r.err


def test_bad_bots_and_dealer() -> None:
    r = run("deal", "--bots", "rules,random")
    assert r.code == 2 and "2 names for 6 seats" in r.err
    r = run("deal", "--bots", "clever")
    assert r.code == 2 and "unknown bot 'clever'" in r.err
    r = run("deal", "--dealer", "6")
    assert r.code == 2 and "--dealer" in r.err


class NonsenseBot:
    name = "nonsense"

    def __init__(self, seed: int | None = None) -> None:
        self.calls = 0

    def choose(self, view: dict[str, Any]) -> str:
        self.calls += 1
        if self.calls % 3 == 0:
            raise RuntimeError("confused")
        return "JSS" if self.calls % 2 else "QQ"


def test_an_illegal_bot_answer_is_replaced_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS.anywhere, "nonsense", NonsenseBot)
    r = run("deal", "--seed", "2", "--bots", "nonsense,rules,rules,rules,rules,rules")
    assert r.code == 0
    assert "not legal" in r.err and "nonsense" in r.err and "failed" in r.err
    data = json.loads(r.out)
    assert check(data)["complete"] is True
    again = run("deal", "--seed", "2", "--bots", "nonsense,rules,rules,rules,rules,rules")
    assert again.out == r.out


def test_55_through_the_same_command_when_present() -> None:
    if "55" not in GAMES:
        pytest.skip("55 not registered")
    preset = next(iter(GAMES["55"].presets()))
    data = record_of("--rules", preset, "--seed", "4", "--bots", "random")
    assert data["game"] == "55"
    assert check(data)["valid"] is True

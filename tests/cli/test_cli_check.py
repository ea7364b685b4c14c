"""``fiftysix check``: exactly the example results, exit codes, and unreadable input as invalid results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fiftysix import check
from helpers.cli import match_record, run
from helpers.examples import example_pairs, load

PAIRS = example_pairs("56")


@pytest.mark.parametrize("record,expected", PAIRS, ids=[p.name for p, _ in PAIRS])
def test_check_prints_the_example_result(record: Path, expected: Path) -> None:
    want = load(expected)
    assert isinstance(want, dict)
    r = run("check", str(record))
    lines = r.out.splitlines()
    assert len(lines) == 1, "one line per file"
    got = json.loads(lines[0])
    if want["valid"]:
        assert got == want
        assert r.code == 0
    else:
        assert {k: got.get(k) for k in ("valid", "field", "index")} == {
            k: want[k] for k in ("valid", "field", "index")}
        assert got["error"]
        assert r.code == 1
    assert r.err == ""


def test_the_line_is_exactly_json_dumps_of_the_check_result() -> None:
    record, _ = PAIRS[0]
    r = run("check", str(record))
    assert r.out == json.dumps(check(load(record)), ensure_ascii=False) + "\n"


def test_several_files_one_line_each_and_exit_1_if_any_is_invalid() -> None:
    valid = [str(p) for p, e in PAIRS if load(e)["valid"]][:3]        # type: ignore[index]
    invalid = [str(p) for p, e in PAIRS if not load(e)["valid"]][:1]  # type: ignore[index]
    r = run("check", *valid)
    assert r.code == 0 and len(r.json_lines()) == 3
    r = run("check", *valid, *invalid)
    assert r.code == 1
    assert [x["valid"] for x in r.json_lines()] == [True, True, True, False]


def test_standard_input() -> None:
    record, expected = PAIRS[0]
    r = run("check", "-", stdin=record.read_text(encoding="utf-8"))
    assert r.json_lines() == [load(expected)]


def test_malformed_json_is_an_invalid_result(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "56", "rules": ', encoding="utf-8")
    r = run("check", str(bad))
    assert r.code == 1
    (res,) = r.json_lines()
    assert res["valid"] is False and res["field"] is None and res["index"] is None
    assert "malformed JSON" in res["error"]
    assert "Traceback" not in r.out + r.err


def test_missing_file_is_an_invalid_result(tmp_path: Path) -> None:
    r = run("check", str(tmp_path / "nope.json"))
    assert r.code == 1
    (res,) = r.json_lines()
    assert res["valid"] is False
    assert "cannot read" in res["error"] and "nope.json" in res["error"]


def test_not_utf8_is_an_invalid_result(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b'{"game": "56", "x": "\xe9"}')
    r = run("check", str(bad))
    assert r.code == 1
    assert "UTF-8" in r.json_lines()[0]["error"]


def test_json_that_is_not_a_record(tmp_path: Path) -> None:
    for text in ("[1, 2]", '"56"', "null", "{}"):
        f = tmp_path / "odd.json"
        f.write_text(text, encoding="utf-8")
        r = run("check", str(f))
        assert r.code == 1
        assert r.json_lines()[0]["valid"] is False


def test_match_record(tmp_path: Path) -> None:
    data = match_record("56-6", deals=3)
    f = tmp_path / "match.json"
    f.write_text(json.dumps(data), encoding="utf-8")
    r = run("check", str(f))
    assert r.code == 0
    (res,) = r.json_lines()
    assert res == check(data)
    assert res["valid"] is True and len(res["deals"]) == len(data["deals"]) >= 2
    assert sum(res["standings"]) == 24


def test_usage_errors_exit_2() -> None:
    assert run("check").code == 2
    assert run().code == 2
    assert run("frobnicate").code == 2
    assert run("deal", "--seed", "seven").code == 2

"""``fiftysix replay``: the record in the terminal; invalid records give the check error and exit 1."""

from __future__ import annotations

import json
from pathlib import Path

from helpers.cli import match_record, run
from helpers.examples import EXAMPLES

V0001 = EXAMPLES / "56" / "v0001-deal.json"     # all pass: 28 NT by first hand, failed
V0012 = EXAMPLES / "56" / "v0012-deal.json"


def test_replay_shows_hands_auction_tricks_and_result() -> None:
    r = run("replay", str(V0001))
    assert r.code == 0, r.err
    out = r.out
    assert "Hands as dealt:" in out
    assert "seat 3 (team 1) dealer:" in out
    assert "Auction:" in out and "pass" in out
    assert "Contract: 28 no-trumps by seat 4 (team 0)" in out
    # first and last trick, with leader, cards by seat, winner and points
    assert "1. seat 4 led  4:J♣  5:10♣  0:9♠  1:K♣  2:K♣  3:Q♣  → seat 4 wins 6 points" in out
    assert "8. seat 5 led  5:9♣  0:9♦  1:9♥  2:9♠  3:Q♦  4:A♠  → seat 5 wins 9 points" in out
    assert "Points: team 0: 20, team 1: 36" in out
    assert "failed" in out
    assert "Score: team 0: +0, team 1: +2" in out


def test_replay_shows_call_meanings() -> None:
    data = json.loads(V0012.read_text(encoding="utf-8"))
    r = run("replay", str(V0012))
    assert r.code == 0
    assert data["auction"][0] in r.out
    assert "holds the top" in r.out or "strong in" in r.out


def test_replay_ascii() -> None:
    r = run("replay", "--ascii", str(V0001))
    assert r.code == 0
    assert "4:JC  5:TC  0:9S" in r.out
    assert "♣" not in r.out.split("Auction:")[0]


def test_replay_of_a_partial_record() -> None:
    r = run("replay", str(EXAMPLES / "56" / "p0001-partial.json"))
    assert r.code == 0
    assert "not decided yet" in r.out or "not finished" in r.out


def test_replay_of_an_invalid_record_prints_the_check_error() -> None:
    r = run("replay", str(EXAMPLES / "56" / "x0002-invalid-not-following-suit.json"))
    assert r.code == 1
    assert "not a valid record (play[7])" in r.err
    assert "must follow spades" in r.err
    assert r.out == ""


def test_replay_of_missing_or_malformed_files(tmp_path: Path) -> None:
    r = run("replay", str(tmp_path / "none.json"))
    assert r.code == 1 and "cannot read" in r.err
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    r = run("replay", str(bad))
    assert r.code == 1 and "malformed JSON" in r.err


def test_replay_from_stdin_and_of_a_hidden_trump_deal() -> None:
    for seed in range(1, 12):
        deal = run("deal", "--rules", "56-hidden", "--seed", str(seed))
        if '"?"' in deal.out:
            break
    else:  # pragma: no cover
        raise AssertionError("no deal with a trump reveal")
    r = run("replay", "-", stdin=deal.out)
    assert r.code == 0
    assert "(face down)" in r.out
    assert "asks for trumps" in r.out


def test_replay_of_a_match_record(tmp_path: Path) -> None:
    data = match_record("56-6", deals=2)
    f = tmp_path / "match.json"
    f.write_text(json.dumps(data), encoding="utf-8")
    r = run("replay", str(f))
    assert r.code == 0, r.err
    assert "=== Deal 1 ===" in r.out and "=== Deal 2 ===" in r.out
    assert "Tables after deal 2:" in r.out

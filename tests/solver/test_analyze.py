"""``fiftysix analyze FILE``: every card played against the double-dummy best, marks, summary, errors."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from fiftysix import Deal56, Rules56, view
from fiftysix.bots import make_bot
from fiftysix.cli.analyze import BLUNDER, MISTAKE, analyze_record, mark
from fiftysix.cli.main import main
from fiftysix.core.cards import Card
from fiftysix.records import deal_record
from fiftysix.solver import Position, card_values, kernel_available

pytestmark = pytest.mark.skipif(not kernel_available(), reason="numba (extra 'solver') is not installed")

SMALL = {"preset": "56-4", "deck": 32}


def played(seed: int, bots: tuple[str, ...] = ("random", "rules"), rules: Any = None,
           cards: int | None = None) -> Deal56:
    """A 56-4 deal with the 32-card deck (fast to solve) played by bots, whole or ``cards`` cards far."""
    deal = Deal56.from_seed(rules or Rules56.from_json(SMALL), seed=seed)
    players = [make_bot(bots[s % len(bots)], seed=seed * 10 + s) for s in range(deal.n)]
    n = 0
    while not deal.is_over and (cards is None or n < cards):
        seat = deal.to_move
        assert seat is not None
        if deal.phase == "play":
            n += 1
        deal.push(players[seat].choose(view(deal, seat)))
    return deal


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_marks() -> None:
    assert (mark(0), mark(MISTAKE - 1), mark(MISTAKE), mark(BLUNDER - 1), mark(BLUNDER)) == ("", "", "?", "?", "??")


def test_every_card_is_solved_and_costs_what_the_solver_says() -> None:
    deal = played(4)
    result = analyze_record(deal_record(deal))
    (d,) = result["deals"]
    cards = [str(m) for _, m in deal.history if isinstance(m, Card)]
    assert [e["card"] for e in d["cards"]] == cards
    # Replay and check each entry against the solver directly.
    again = Deal56(deal.rules, deal.dealer, deal.dealt)
    moves = [m for _, m in deal.history]
    i = 0
    for m in moves:
        if isinstance(m, Card):
            values = card_values(Position.from_deal(again))
            e = d["cards"][i]
            assert e["seat"] == again.to_move and e["value"] == values[m] and e["best"] == max(values.values())
            assert e["cost"] == e["best"] - e["value"] >= 0 and e["mark"] == mark(e["cost"])
            assert all(values[Card.parse(c)] == e["best"] for c in e["best_cards"])
            i += 1
        again.push(m)
    for s in d["seats"]:
        mine = [e for e in d["cards"] if e["seat"] == s["seat"]]
        assert s["cards"] == len(mine) and s["cost"] == sum(e["cost"] for e in mine)
        assert s["mistakes"] == sum(1 for e in mine if e["mark"] == "?")
        assert s["blunders"] == sum(1 for e in mine if e["mark"] == "??")
    assert d["par"]["team"] == deal.contract.team


def test_random_play_is_marked_with_question_marks(tmp_path: Path) -> None:
    # Over a few deals of random play there are costly cards, and the text marks them.
    found = False
    for seed in range(6):
        deal = played(seed, ("random",))
        path = tmp_path / f"{seed}.json"
        path.write_text(json.dumps(deal_record(deal)))
        code, out, err = run("analyze", str(path), "--ascii")
        assert code == 0, err
        assert "trick 1" in out and "trick 8" in out and "lost" in out
        if "??" in out:
            found = True
            rows = [x.split() for x in out.splitlines() if x.startswith("  ") and len(x.split()) >= 6]
            marked = [r for r in rows if r[5] == "??"]
            assert marked and all(int(r[4]) <= -BLUNDER for r in marked)
    assert found


def test_json_from_trick_and_a_deal_in_progress(tmp_path: Path) -> None:
    deal = played(7, cards=21)   # trick 6 in progress
    path = tmp_path / "d.json"
    path.write_text(json.dumps(deal_record(deal)))
    code, out, err = run("analyze", str(path), "--json", "--from-trick", "4")
    assert code == 0, err
    (d,) = json.loads(out)["deals"]
    assert {e["trick"] for e in d["cards"]} == {4, 5, 6}
    assert len(d["cards"]) == 21 - 12
    assert d["result"]["complete"] is False


def test_match_record_is_analysed_deal_by_deal(tmp_path: Path) -> None:
    rules = Rules56.from_json(SMALL)
    first = played(1, rules=rules)
    second_deal = Deal56.from_seed(rules, seed=2, dealer=(first.dealer + 1) % 4)
    bots = [make_bot("rules", seed=s) for s in range(4)]
    while not second_deal.is_over:
        s = second_deal.to_move
        assert s is not None
        second_deal.push(bots[s].choose(view(second_deal, s)))
    record = {"game": "56", "rules": SMALL, "deals": [deal_record(first), deal_record(second_deal)]}
    for r in record["deals"]:
        r.pop("rules", None)
    result = analyze_record(record, from_trick=7)
    assert [d["deal_number"] for d in result["deals"]] == [0, 1]
    assert all(len(d["cards"]) == 8 for d in result["deals"])


@pytest.mark.parametrize(("text", "message"), [
    ("not json", "malformed JSON"),
    ('{"game": "57"}', "invalid record (game)"),
    ('{"game": "56", "rules": "56-4", "dealer": 0, "hands": []}', "invalid record (hands)"),
])
def test_invalid_records_are_refused_clearly(text: str, message: str) -> None:
    code, out, err = run("analyze", "-", stdin=text)
    assert code == 1 and out == ""
    assert err.startswith("fiftysix analyze: error:") and message in err


def test_an_illegal_card_names_its_index() -> None:
    record = deal_record(played(3))
    record["play"][5] = record["play"][4]
    code, _, err = run("analyze", "-", stdin=json.dumps(record))
    assert code == 1 and "play[5]" in err


def test_a_record_without_cards_and_a_missing_file(tmp_path: Path) -> None:
    deal = Deal56.from_seed(Rules56.from_json(SMALL), seed=1)
    code, _, err = run("analyze", "-", stdin=json.dumps(deal_record(deal)))
    assert code == 1 and "nothing to analyse" in err
    code, _, err = run("analyze", str(tmp_path / "nope.json"))
    assert code == 1 and "cannot read" in err
    code, _, err = run("analyze", "-", "--from-trick", "0", stdin="{}")
    assert code == 2

"""``fiftysix solve FILE``: the value of every legal card at a record's position, and clear errors."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from fiftysix import Deal56, Rules56
from fiftysix.cli.main import main
from fiftysix.core.cards import Card
from fiftysix.core.deal import PLAY
from fiftysix.records import deal_record
from fiftysix.solver import Position, card_values, kernel_available

pytestmark = pytest.mark.skipif(not kernel_available(), reason="numba (extra 'solver') is not installed")


def played_deal(seed: int, cards: int, preset: str = "56-6") -> Deal56:
    rng = random.Random(seed)
    deal = Deal56.from_seed(Rules56.preset_named(preset), seed=seed)
    while deal.phase != PLAY:
        deal.push_unchecked(rng.choice(deal.legal_moves()))
    for _ in range(cards):
        deal.push_unchecked(rng.choice([m for m in deal.legal_moves() if isinstance(m, Card)]))
    return deal


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_solve_prints_every_legal_card(tmp_path: Path) -> None:
    deal = played_deal(11, 32)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(deal_record(deal)))
    code, out, err = run("solve", str(path), "--ascii")
    assert code == 0, err
    values = card_values(Position.from_deal(deal))
    for card, value in values.items():
        assert any(line.split()[:2] == [str(card), str(value)] for line in out.splitlines()), out
    assert "best" in out and f"seat {deal.to_move}" in out


def test_solve_json_and_engines_agree(tmp_path: Path) -> None:
    deal = played_deal(12, 33, "56-4")
    text = json.dumps(deal_record(deal))
    code, out, _ = run("solve", "-", "--json", stdin=text)
    assert code == 0
    fast = json.loads(out)
    code, out, _ = run("solve", "-", "--json", "--engine", "reference", stdin=text)
    assert code == 0 and json.loads(out) == fast
    assert fast["best"] == max(c["value"] for c in fast["cards"])
    assert {c["card"] for c in fast["cards"]} == {str(c) for c in Position.from_deal(deal).legal()}
    assert "contract" in fast and isinstance(fast["contract"]["can_reach"], bool)


@pytest.mark.parametrize(("record", "message"), [
    ({"game": "56", "rules": "56-6", "dealer": 9}, "invalid record (dealer)"),
    ({"deals": []}, "match record"),
])
def test_solve_refuses_bad_records(record: object, message: str) -> None:
    code, out, err = run("solve", "-", stdin=json.dumps(record))
    assert code == 1 and out == "" and message in err


def test_solve_refuses_a_deal_outside_its_play_phase(tmp_path: Path) -> None:
    auction = Deal56.from_seed(Rules56.preset_named("56-6"), seed=4)
    code, _, err = run("solve", "-", stdin=json.dumps(deal_record(auction)))
    assert code == 1 and "not in its play phase" in err and "to call" in err
    over = played_deal(5, 48)
    assert over.is_over
    code, _, err = run("solve", "-", stdin=json.dumps(deal_record(over)))
    assert code == 1 and "the deal is over" in err
    code, _, err = run("solve", "-", stdin="{not json")
    assert code == 1 and "malformed JSON" in err
    code, _, err = run("solve", str(Path("/nonexistent/deal.json")))
    assert code == 1 and "cannot read" in err

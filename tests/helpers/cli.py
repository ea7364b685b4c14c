"""Helpers for the command-line tests: run ``fiftysix`` in-process with captured streams."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from typing import Any

from fiftysix import Match56, Rules56, deal_record, view
from fiftysix.bots import make_bot
from fiftysix.cli.main import main


@dataclass
class Run:
    code: int
    out: str
    err: str

    def json_lines(self) -> list[Any]:
        return [json.loads(line) for line in self.out.splitlines() if line.strip()]


def run(*argv: str, stdin: str = "") -> Run:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return Run(code, out.getvalue(), err.getvalue())


def match_record(preset: str = "56-6", deals: int = 2, seed: int = 1) -> dict[str, Any]:
    """A valid match record of up to ``deals`` finished deals played by the rules bot."""
    rules = Rules56.from_json(preset)
    match = Match56(rules, first_dealer=0, seed=seed)
    records = []
    for k in range(deals):
        if match.over:
            break
        deal = match.new_deal()
        bots = [make_bot("rules", seed=seed * 100 + k * 10 + s) for s in range(deal.n)]
        while not deal.is_over:
            s = deal.to_move
            deal.push(bots[s].choose(view(deal, s)))
        records.append(deal_record(deal))
        match.finish(deal)
    return {"game": "56", "rules": preset, "deals": records}

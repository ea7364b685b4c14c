"""A finished deal as the table keeps it: its number, match, record and result, and the summary the page shows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

RECENT_DEALS = 20
"""Finished deals whose summaries a table keeps in memory (the page's first page of its history); the
records of all finished deals are in the database."""


@dataclass
class FinishedDeal:
    number: int         # 1, 2, ... over the table's whole life
    match_no: int
    deal_no: int
    record: dict[str, object]
    result: dict[str, object]

    def summary(self) -> dict[str, object]:
        """What the page's history shows of a finished deal (public)."""
        return deal_summary(self.number, self.match_no, self.deal_no, self.result)


def deal_summary(number: int, match_no: int, deal_no: int, result: Mapping[str, object]) -> dict[str, object]:
    return {"number": number, "match": match_no, "deal": deal_no, "contract": result.get("contract"),
            "made": result.get("made"), "score": result.get("score"), "points": result.get("points")}

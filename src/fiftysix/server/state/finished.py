"""A finished deal as the table keeps it: its number, match, record and result, and the summary the page shows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypedDict

RECENT_DEALS = 20
"""Finished deals whose summaries a table keeps in memory (the page's first page of its history); the
records of all finished deals are in the database."""


class DealSummary(TypedDict):
    """What the page's history shows of a finished deal: where it was played, and the public parts of its result
    as the game's result holds them."""

    number: int
    match: int
    deal: int
    contract: object
    made: object
    score: object
    points: object


@dataclass
class FinishedDeal:
    number: int         # 1, 2, ... over the table's whole life
    match_no: int
    deal_no: int
    record: dict[str, object]
    result: dict[str, object]

    def summary(self) -> DealSummary:
        """What the page's history shows of a finished deal (public)."""
        return deal_summary(self.number, self.match_no, self.deal_no, self.result)


def deal_summary(number: int, match_no: int, deal_no: int, result: Mapping[str, object]) -> DealSummary:
    return {"number": number, "match": match_no, "deal": deal_no, "contract": result.get("contract"),
            "made": result.get("made"), "score": result.get("score"), "points": result.get("points")}

"""The table's history: the finished deals it keeps in memory and where each match's deals are."""

from __future__ import annotations

from ...records import match_record
from .base import TableBase
from .finished import RECENT_DEALS as RECENT_DEALS
from .finished import FinishedDeal as FinishedDeal
from .finished import deal_summary as deal_summary


class DealHistory(TableBase):
    """Which finished deals belong to which match."""

    def match_deals(self, match_no: int) -> tuple[int, int] | None:
        """The first and last deal numbers (over the table's life) of match ``match_no`` (1, 2, ...), or
        ``None`` when it has no finished deal."""
        if not 1 <= match_no <= len(self.match_starts):
            return None
        first = self.match_starts[match_no - 1]
        last = self.match_starts[match_no] - 1 if match_no < len(self.match_starts) else self.deals_count
        return (first, last) if last >= first else None

    def match_record(self, match_no: int, records: list[dict[str, object]]) -> dict[str, object] | None:
        """The record of match ``match_no`` made of its finished deals' ``records`` (from the database)."""
        return match_record(self.game.name, self.rules, records) if records else None

"""The turn clock's part of the state: each seat's time bank, reset at each match and noted with each move.
(The live clock that runs the time is :mod:`fiftysix.server.table.clock`.)"""

from __future__ import annotations

from .base import TableBase


class TimeBanks(TableBase):
    """What is left of each seat's time bank."""

    def _reset_banks(self) -> None:
        self.banks = [float(self.clock["bank"]) if self.clock else 0.0 for _ in self.seats]

    def _note_bank(self, table_seat: int, bank: float | None) -> None:
        """A move's stored bank: what was left of its seat's bank after it (tables with a clock)."""
        if bank is not None:
            self.banks[table_seat] = float(bank)

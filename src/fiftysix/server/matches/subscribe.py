"""History and ratings subscribe to the table's "a deal is finishing" (lila's ``Finisher`` publishes, its ratings
subscribe): for each finished deal, who played it (``deal_seats``), and for a finished match, its row, its
people and their new ratings, written in the transaction of the event that finished them (exactly once:
:mod:`.store`). The table knows nothing of matches; it only carries these writes to its log writer."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncConnection

from ..state.table import TableState
from ..storage.attached import Attached, FastRows
from ..storage.sqlite_writer import to_text
from ..table.hub import Hub
from .capture import MatchEnd, deal_facts, match_end
from .store import DEAL_SEATS_SQL, DealSeatRow, deal_row, record_match, write_deals


@dataclass(frozen=True)
class DealSeats:
    """Who played a finished deal: one ``deal_seats`` row."""

    row: DealSeatRow

    def fast(self) -> FastRows:
        r = self.row
        return DEAL_SEATS_SQL, [(r["table_code"], r["number"], r["match_no"], to_text(r["facts"]))]

    async def write(self, conn: AsyncConnection) -> None:
        await write_deals(conn, [self.row])


@dataclass(frozen=True)
class MatchFinished:
    """A finished match: its row, its people and their ratings (it reads the deals' rows: the engine's path)."""

    end: MatchEnd

    def fast(self) -> None:
        return None

    async def write(self, conn: AsyncConnection) -> None:
        await record_match(conn, self.end)


def finishing(state: TableState, played: list[int]) -> list[Attached]:
    """What a table's finished deal (``state`` right after it; ``played``: the table seats that played it)
    writes for history and ratings."""
    finished = state.last_finished
    assert finished is not None
    facts = deal_facts(state, played)
    writes: list[Attached] = [DealSeats(deal_row(state.code, finished.number, facts["match_no"], facts))]
    end = match_end(state)
    if end is not None:
        writes.append(MatchFinished(end))
    return writes


def subscribe(hub: Hub) -> None:
    """Record every finished deal and match of ``hub``'s tables (once per hub)."""
    if finishing not in hub.finishing:
        hub.finishing.append(finishing)

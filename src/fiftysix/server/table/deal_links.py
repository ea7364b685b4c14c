"""What a table asks and tells outside itself about its deals (a part of :class:`~.live.LiveTable`): the seed of
a deal fixed from outside (a club night's board), the writes that ride in a finished deal's transaction, and the
report after it is stored."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence

from ..state.dealing import board_dealer
from ..state.table import TableState
from ..storage.attached import Attached

log = logging.getLogger("fiftysix.server")

DealSeed = Callable[[int], Awaitable[int | None]]
"""The seed a table must deal as its ``n``-th deal, or ``None`` (any seed): a club night's board (server/nights)."""

Finishing = Callable[[TableState, list[int]], Sequence[Attached]]
"""Told as a deal finishes, before its event is stored (the state after it, the table seats that played it):
what to write in the event's transaction (a finished deal's people, the match it ended and its rating:
server/matches subscribes)."""

DealDone = Callable[[int, list[int]], Awaitable[None]]
"""Told after a finished deal is stored: its number and the standings (a club night's board, server/nights)."""


class DealLinks:
    """The table's three links about deals, each optional: ``deal_seed``, ``finishing``, ``deal_done``."""

    def __init__(self, deal_seed: DealSeed | None, finishing: Finishing | None, deal_done: DealDone | None) -> None:
        self.deal_seed, self.finishing, self.deal_done = deal_seed, finishing, deal_done

    async def next_seed(self, state: TableState) -> tuple[int, bool]:
        """The seed of the next deal, and whether it is fixed (a club night's board: the same at every table)."""
        fixed = None if self.deal_seed is None else await self.deal_seed(state.deals_count + 1)
        return (secrets.randbits(62), False) if fixed is None else (fixed, True)

    async def next_start(self, state: TableState) -> tuple[int, int]:
        """The seed and first dealer of a match (a start or a rematch): a club night's board is dealt by the same
        seat at every table (state/dealing.board_dealer), any other match by a seat drawn at random."""
        seed, fixed = await self.next_seed(state)
        seats = len(state.seats)
        return seed, (board_dealer(state.deals_count + 1, seats) if fixed else secrets.randbelow(seats))

    def writes(self, state: TableState, played: list[int]) -> tuple[Attached, ...]:
        """What the subscribers write with the event that finished a deal (none when reading its facts fails:
        history and ratings must never cost the table its move)."""
        try:
            return tuple(self.finishing(state, played)) if self.finishing is not None else ()
        except Exception:
            log.exception("table %s: the facts of deal %s could not be read", state.code, state.deals_count)
            return ()

    async def report(self, state: TableState, deal: int) -> None:
        """A finished deal was stored: told to ``deal_done`` (a failure is logged: the deal is in the log, and its
        board row can be written again from it)."""
        if self.deal_done is None or state.match is None:
            return
        try:
            await self.deal_done(deal, list(state.match.standings))
        except Exception:
            log.exception("table %s: deal %s could not be reported", state.code, deal)

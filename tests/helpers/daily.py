"""A daily board finished at a player's table, as the table's stored deal makes it (the ``deals`` row the deal's
last move writes): for tests of the read rule and the scoring without playing every deal."""

from __future__ import annotations

import copy
from typing import Any

from sqlalchemy.exc import IntegrityError

from fiftysix.server.state.base import DEAL_OVER, MATCH_OVER
from fiftysix.server.state.finished import FinishedDeal
from fiftysix.server.storage.db import deals


async def store_board(server: Any, code: str, board: int, results: list[int], secret: str) -> bool:
    """Store table ``code``'s deal ``board`` with ``results`` as its score and ``secret`` in its contract and
    record; ``False`` (nothing changed) if that deal is stored already."""
    try:
        async with server.db.engine.begin() as conn:
            await conn.execute(deals.insert().values(
                table_code=code, number=board, record={"hands": secret},
                result={"score": results, "contract": {"bid": secret, "by": 0}, "made": True}))
    except IntegrityError:
        return False
    return True


async def finish_deal_for_history(server: Any, code: str, board: int, results: list[int], secret: str,
                                  match_over: bool) -> None:
    """What daily table ``code``'s subscribers to a finished deal write when its deal ``board`` finishes (and, with
    ``match_over``, ends its match: the match's row, its people's stats and ratings), written as the table's log
    writer writes them: the hub's own :meth:`finishing_writes` over the table's state as it is after that deal."""
    state = copy.deepcopy(server.hub.tables[code].state)
    state.deals_count, state.match_no, state.match_starts = board, 1, [1]
    state.last_finished = FinishedDeal(board, 1, board, {"hands": secret},
                                       {"score": results, "contract": {"declarer": 0, "bid": secret}, "made": True})
    state.status = MATCH_OVER if match_over else DEAL_OVER
    writes = server.hub.finishing_writes(state, list(range(len(state.seats))))
    async with server.db.engine.begin() as conn:
        for write in writes:
            await write.write(conn)

"""A daily board finished at a player's table, as the table's stored deal makes it (the ``deals`` row the deal's
last move writes): for tests of the read rule and the scoring without playing every deal."""

from __future__ import annotations

from typing import Any

from sqlalchemy.exc import IntegrityError

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

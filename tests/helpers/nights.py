"""A club night's board finished at a table, as the table's stored deal makes it (the ``deals`` row that the
deal's last move writes): for tests of the scoring and visibility rules without playing every deal."""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy.exc import IntegrityError

from fiftysix.server.nights.routes import nights_of
from fiftysix.server.storage.db import deals


async def finish_board(server: Any, night: str, table: int, board: int, results: list[int],
                       contract: dict[str, Any] | None = None, made: bool = True,
                       record: dict[str, Any] | None = None) -> bool:
    """Store table ``table``'s deal ``board`` with ``results`` as its score, ``contract`` and ``made`` (and
    ``record`` as its record file; a table number the event has not made yet gets a code of its own); ``False``
    (nothing changed) if that deal is stored already."""
    store = nights_of(server)
    codes = {t["table"]: t["code"] for t in await store.tables_of(night)}
    code = codes.get(table)
    if code is None:
        code = "F" + secrets.token_hex(4).upper()
        await store.add_table(night, table, code)
    try:
        async with server.db.engine.begin() as conn:
            await conn.execute(deals.insert().values(table_code=code, number=board, record=record or {},
                                                     result={"score": results, "contract": contract, "made": made}))
    except IntegrityError:
        return False
    return True


def table_reads(code: str, boards: int) -> list[str]:
    """Every GET route that reads a table: its facts, its deals, and each deal's record, review (with the
    double-dummy marks) and match record."""
    return [f"/api/tables/{code}", f"/api/tables/{code}/deals",
            *(f"/api/tables/{code}/{path}" for b in range(1, boards + 1)
              for path in (f"deals/{b}.json", f"deals/{b}/review", f"matches/{b}.json"))]

"""The table log's writer: appends from every table committed together by one task (group commit), each
event only right after its table's last stored one, under the writer's lease (many processes).

Part of :class:`fiftysix.server.storage.db.Database` (a mixin: it shares the database's engine and services); what an
append guarantees is said in :mod:`fiftysix.server.storage.db`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import bindparam, func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from ..services import DATABASE, Services, service_of
from . import sqlite_writer
from .attached import Attached
from .db_schema import deals, events, tables
from .sqlite_writer import LogGap, first_versions, gaps_of

JSONObject = Mapping[str, object]
Finished = tuple[int, Mapping[str, object], Mapping[str, object]]
"""A finished deal to store with the event that finished it: its number, record and result."""

BATCH = 512
CLOSE_WAIT = 10.0
"""Seconds a shutdown waits for the appends queued before it."""
ACTIVE_EVERY = 60
"""Seconds between two writes of a busy table's ``active`` time (a status change is written at once)."""

@dataclass
class _Append:
    code: str
    version: int
    data: JSONObject
    status: str
    finished: Finished | None
    done: asyncio.Future[None]
    epoch: int | None = None
    attached: tuple[Attached, ...] = ()          # what features write with it (the match it finished, rated)


class Fenced(Exception):
    """An append by a writer whose lease another process has taken since (its fencing epoch is old)."""


class TableLogWriter:
    """The appends to the tables' event log (with the deals and matches they finish)."""

    url: str
    engine: AsyncEngine
    services: Services

    def _init_writer(self, url: str) -> None:
        self._pending: asyncio.Queue[_Append | None] = asyncio.Queue()     # None: stop once written
        self._writer: asyncio.Task[None] | None = None
        self._stored: dict[str, tuple[str, int]] = {}   # code -> (status, active) last written
        self._fast = sqlite_writer.for_url(url)

    async def _close_writer(self) -> None:
        """Write what is queued, and the batch being written, then stop the writer (at most ``CLOSE_WAIT``
        seconds: a database that is away cannot hold the shutdown)."""
        if self._writer is not None:
            if not self._writer.done():
                self._pending.put_nowait(None)      # the writer ends after everything queued before it
                with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                    await asyncio.wait_for(asyncio.shield(self._writer), CLOSE_WAIT)
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
        if self._fast is not None:
            await self._fast.close()

    async def append(self, code: str, version: int, data: JSONObject, status: str,
                     finished: Finished | None = None,
                     epoch: int | None = None, attached: tuple[Attached, ...] = ()) -> None:
        """Store one event (and the record of the deal it finished); returns once it is committed.

        ``attached``: what the table's subscribers write with the event (:mod:`.attached`; the finished deal's
        people and the match it finished, rated), in the same transaction as the event.

        Appends from all tables are committed together by one writer task (group commit), so a busy
        server pays for one transaction per batch, not per move.  ``epoch`` (many processes only): the
        writer's lease epoch, checked against the table's row in the same transaction.

        An event is stored only right after the last stored event of its table (version N after N-1, checked
        in the same transaction), so the log never has a gap, whatever the writer believed was stored.

        :raises Fenced: when the table's lease epoch is no longer ``epoch`` (nothing is stored).
        :raises LogGap: when the table's log does not end at ``version - 1`` (nothing is stored).
        """
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_loop(), name="database writer")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.put_nowait(_Append(code, version, data, status, finished, done, epoch, attached))
        await done

    async def _write_loop(self) -> None:
        stop = False
        while not stop:
            first = await self._pending.get()
            if first is None:
                return
            batch = [first]
            while not self._pending.empty() and len(batch) < BATCH:
                item = self._pending.get_nowait()
                if item is None:        # the close: this batch is the last
                    stop = True
                    break
                batch.append(item)
            try:
                await self._write(batch)
            except Exception as e:
                if service_of(e) == DATABASE:     # the database is away: every append of the batch fails
                    self.services.report(DATABASE, False)
                    for item in batch:
                        if not item.done.done():
                            item.done.set_exception(e)
                    continue
                for item in batch:      # one bad append must not fail the others: write them one by one
                    try:
                        await self._write([item])
                    except Exception as e:
                        if not item.done.done():
                            item.done.set_exception(e)
                    else:
                        if not item.done.done():
                            item.done.set_result(None)
            else:
                self.services.report(DATABASE, True)
                for item in batch:
                    if not item.done.done():
                        item.done.set_result(None)

    async def _write(self, batch: list[_Append]) -> None:
        now = int(time.time())
        # a table's row changes when its status does, or (for lobby expiry) every ACTIVE_EVERY seconds of
        # use, not at every move of a busy table
        changed = [(c, st) for c, st in {a.code: a.status for a in batch}.items() if self._row_stale(c, st, now)]
        fast = [x.fast() for a in batch for x in a.attached]
        if self._fast is not None and None not in fast:     # (a write that reads first, a match's end: below)
            text = sqlite_writer.to_text
            await self._fast.write(sqlite_writer.Batch(
                created=[(a.code, _created(a.data), a.status) for a in batch
                         if a.data.get("kind") == "create"],
                status=[(st, now, c) for c, st in changed],
                events=[(a.code, a.version, text(a.data)) for a in batch],
                deals=[(a.code, a.finished[0], text(a.finished[1]), text(a.finished[2]))
                       for a in batch if a.finished is not None],
                more=[rows for rows in fast if rows is not None]))
        else:
            await self._write_through_engine(batch, changed, now)
        if len(self._stored) >= 50_000:
            self._stored.clear()
        for c, st in changed:   # committed: remember what the rows now hold
            self._stored[c] = (st, now)

    async def _write_through_engine(self, batch: list[_Append], changed: list[tuple[str, str]], now: int) -> None:
        async with self.engine.begin() as conn:
            created = [a for a in batch if a.data.get("kind") == "create"]
            if created:
                await conn.execute(tables.insert(), [{"code": a.code, "created": _created(a.data),
                                                      "status": a.status} for a in created])
            fenced = {a.code: a.epoch for a in batch if a.epoch is not None}
            if fenced:      # rows locked: a new holder's epoch bump waits for this transaction, or this sees it
                leases = await conn.execute(select(tables.c.code, tables.c.lease_epoch)
                                            .where(tables.c.code.in_(list(fenced))).with_for_update())
                held = {r[0]: int(r[1]) for r in leases}
                lost = sorted(c for c, e in fenced.items() if held.get(c) != e)
                if lost:
                    raise Fenced(f"lease lost for table {', '.join(lost)}: another process writes it now")
            first = first_versions([(a.code, a.version) for a in batch])   # an event only follows a stored one
            last = {r[0]: int(r[1]) for r in await conn.execute(
                select(events.c.table_code, func.max(events.c.version))
                .where(events.c.table_code.in_(list(first))).group_by(events.c.table_code))}
            gaps = gaps_of(first, last)
            if gaps:
                raise LogGap(gaps)
            rows = [{"c": c, "s": st, "a": now} for c, st in changed]
            if rows:
                await conn.execute(tables.update().where(tables.c.code == bindparam("c"))
                                   .values(status=bindparam("s"), active=bindparam("a")), rows)
            await conn.execute(events.insert(), [{"table_code": a.code, "version": a.version, "data": a.data}
                                                 for a in batch])
            deals_done = [a for a in batch if a.finished is not None]
            if deals_done:
                await conn.execute(deals.insert(), [{"table_code": a.code, "number": a.finished[0],
                                                     "record": a.finished[1], "result": a.finished[2]}
                                                    for a in deals_done if a.finished is not None])
            for a in batch:
                for write in a.attached:
                    await write.write(conn)

    def forget_row(self, code: str) -> None:
        """Another process may have written the table's row since this one did (many processes): write it at
        the next append, whatever this process last wrote."""
        self._stored.pop(code, None)

    def _row_stale(self, code: str, status: str, now: int) -> bool:
        stored = self._stored.get(code)
        return stored is None or stored[0] != status or status == "lobby" or now - stored[1] >= ACTIVE_EVERY


def _created(data: JSONObject) -> int:
    """A ``create`` event's unix time (0 for an old one without it)."""
    time = data.get("time")
    return int(time) if isinstance(time, int | float) else 0

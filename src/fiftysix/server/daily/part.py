"""The server's daily part: the operator's sets and level, the secret the seeds come from, the store, the line
(``FIFTYSIX_DAILY``: the sets, such as ``56-6:8,56-4:8``; ``FIFTYSIX_DAILY_LEVEL``: beginner, club or expert;
``FIFTYSIX_DAILY_CAPACITY``: the sets one process plays at once; by default :data:`CAPACITY` of the level)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from ..serving import Server, part
from .admission import Admission, Waiting
from .closing import close_past
from .line import SharedLine
from .rule import Day
from .seeds import DEFAULT_LEVEL, DEFAULT_SETS, DailySet, day_end, day_of, parse_sets
from .store import DailyStore, Played

CAPACITY = {"beginner": 64, "club": 1, "expert": 1}
"""Sets one process plays at once by default, by the computers' level: as many as one process held with every
table's p99 move time within 50 ms of its computers' own thinking, measured on a quiet machine (docs/benchmarks.md,
"Today's deals").  A second club or expert set thinking at the same moment already costs 0.2-0.8 s at the p99 (the
computers think in Python threads of one process), so more people need more processes; an operator who accepts
that delay sets ``FIFTYSIX_DAILY_CAPACITY``."""
LEVELS = ("beginner", "club", "expert")


class Daily:
    def __init__(self, server: Server, sets: tuple[DailySet, ...], level: str, capacity: int,
                 clock: Callable[[], float] = time.time) -> None:
        if level not in LEVELS:
            raise ValueError(f"daily level {level!r}: one of {', '.join(LEVELS)}")
        self.server, self.sets, self.level, self.clock = server, sets, level, clock
        self.store = DailyStore(server.db.engine)
        self.codes: dict[str, str] = {}       # player -> their table in play here (for the line)
        self.admission = Admission(capacity, in_play=self._in_play)
        bus = getattr(server.hub, "bus", None)      # many processes (--redis): one line for all of them
        self.shared = None if bus is None else SharedLine(bus.redis, bus.me, capacity, self._in_play)
        self._secret: str | None = None
        self._closed_to: str | None = None      # the days before this one are rated (this process saw to it)

    def _in_play(self, player: str) -> bool:
        code = self.codes.get(player)
        return code is not None and code in self.server.hub.tables

    async def ask(self, player: str) -> Waiting | None:
        """A place in play for ``player`` (``None``), or their place in the line (shared with Redis)."""
        return self.admission.ask(player) if self.shared is None else await self.shared.ask(player)

    async def release(self, player: str) -> None:
        if self.shared is None:
            self.admission.release(player)
        else:
            await self.shared.release(player)

    async def close_past(self) -> None:
        """Rate every set of the days before today not rated yet (:mod:`.closing`): at the first read or start
        of a day at this process, whichever comes first; any process may, the rating happens once."""
        today = self.today()
        if self._closed_to != today:
            await close_past(self.server.db.engine, today)
            self._closed_to = today

    def set_of(self, preset: str) -> DailySet | None:
        return next((s for s in self.sets if s.preset == preset), None)

    def today(self) -> str:
        return day_of(self.clock())

    def over(self, day: str) -> bool:
        return self.clock() >= day_end(day)

    async def secret(self) -> str:
        if self._secret is None:
            self._secret = self.server.settings.secret or await self.server.db.secret()
        return self._secret

    async def day(self, day: str, preset: str) -> tuple[Day, dict[tuple[str, int], Played]]:
        found = self.set_of(preset)
        boards = found.boards if found is not None else 0
        return await self.store.day(day, preset, boards, self.over(day))


def daily_of(server: Server) -> Daily:
    """The server's daily part, made on first use from the environment."""
    def make() -> Daily:
        level = os.environ.get("FIFTYSIX_DAILY_LEVEL", DEFAULT_LEVEL)
        return Daily(server, parse_sets(os.environ.get("FIFTYSIX_DAILY", DEFAULT_SETS)), level,
                     int(os.environ.get("FIFTYSIX_DAILY_CAPACITY", CAPACITY.get(level, 1))))
    return part(server, Daily, make)

"""What today's deals cost (issue 58): CPU seconds per daily set at each computer level, and how many people
playing a set at once one server process holds.

In one process, without HTTP (``bench/table_cpu.py``'s hub on a fresh SQLite file): ``--players`` daily tables
of ``--preset`` dealing the day's ``--boards`` boards (the daily seeds), each with a simulated person in seat 0
who plays a random legal move ``--think`` seconds after their turn comes, and the level's computers in the other
seats (``bot_delay`` 0: a computer's move time is its own thinking plus any wait for the process).

* ``--mode cpu``: the players' sets played to the end one after another (think 0); prints CPU seconds
  (``time.process_time``, every thread) per set.
* ``--mode hold``: the players play at once for ``--seconds``; for every move, its time from the moment it was that
  seat's turn (a computer) or from the person's sending it (a person) until it is stored, less the computer's own
  thinking (the thread CPU time of its ``choose``).  Prints the worst table's p99 of that excess (goal: within
  50 ms) and the pooled p50/p99.

    .venv/bin/python bench/daily.py --mode cpu --level club --players 2
    .venv/bin/python bench/daily.py --mode hold --level club --players 16 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from table_cpu import make_hub

import fiftysix.bots as bots_package
import fiftysix.server.table.bots as table_bots
from fiftysix.bots.levels import levels_for
from fiftysix.server.daily.seeds import daily_board_seed
from fiftysix.server.state import events as ev
from fiftysix.server.state.table import PLAYING
from fiftysix.server.storage.db import Database
from fiftysix.server.table.connection import Connection
from fiftysix.server.table.live import Timing

THINKING: dict[int, float] = {}
"""Thread CPU seconds of each computer's last ``choose``, by the bot object's id."""
LAST: dict[str, float] = {}
"""The thinking of the last computer move each table made, by table code (read when the move is stored)."""


def timed_bots() -> None:
    """Every bot the tables make records its own thinking time (the thread's CPU time of ``choose``)."""
    make = bots_package.make_bot

    def make_timed(name: str, seed: int | None = None, game: str = "56") -> Any:
        bot = make(name, seed, game)
        choose = bot.choose

        def timed(seen: Any) -> Any:
            start = time.thread_time()
            try:
                return choose(seen)
            finally:
                THINKING[id(bot)] = time.thread_time() - start
        bot.choose = timed      # type: ignore[method-assign]
        return bot
    bots_package.make_bot = make_timed     # type: ignore[assignment]
    event = table_bots.ComputerPlayers._bot_event

    async def noted(self: Any, pending: tuple[str, int]) -> Any:
        made = await event(self, pending)
        if pending[0] == "move":
            found = [b for (seat, _), b in self.bots.items() if seat == pending[1]]
            LAST[self.table.code] = sum(THINKING.get(id(b), 0.0) for b in found[-1:])
        return made
    table_bots.ComputerPlayers._bot_event = noted     # type: ignore[method-assign]


class Probe(Connection):
    """A watcher that notes when each stored event reached the table's people, and wakes the person."""

    def __init__(self, on_event: Callable[[], None]) -> None:
        super().__init__(None)
        self.on_event = on_event

    def send(self, message: Any) -> None:
        self.on_event()


async def person(table: Any, pid: str, think: float, boards: int, excess: list[float], stop: asyncio.Event) -> None:
    """Seat 0: a random legal move ``think`` seconds after each turn; its own moves' times go to ``excess``."""
    wake = asyncio.Event()
    last = {"version": table.state.version, "at": time.monotonic(), "seat": table.state.to_move_table_seat()}

    def noted() -> None:
        state = table.state
        now = time.monotonic()
        if state.version != last["version"]:
            mover = last["seat"]
            if mover not in (None, 0) and state.status in (PLAYING, "deal_over", "match_over"):
                excess.append(now - float(last["at"]) - LAST.get(table.code, 0.0))
            last.update(version=state.version, at=now, seat=state.to_move_table_seat() if state.status == PLAYING
                        else None)
        wake.set()
    await table.connect(Probe(noted), None)
    rng = random.Random(pid)
    while not stop.is_set() and table.state.deals_count < boards:
        state = table.state
        if state.status == PLAYING and state.to_move_table_seat() == 0 and state.deal is not None:
            await asyncio.sleep(think)
            seen = state.game.observation(state.deal, state.deal_seat(0), state.match)
            sent = time.monotonic()
            async with table.lock:
                if table.state.to_move_table_seat() == 0:
                    await table.commit(ev.Move(seat=0, move=rng.choice(list(seen.legal)), by="player", player=pid))
            excess.append(time.monotonic() - sent)
            continue
        wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), 1.0)


async def tables(hub: Any, n: int, preset: str, bot: str, boards: int) -> list[Any]:
    made = []
    for i in range(n):
        table = await hub.create(f"p{i}", f"Person {i}", {"preset": preset, "fill": bot, "grace": 3600,
                                                          "public": False, "boards": boards}, "127.0.0.1",
                                 event=f"daily:bench:{preset}")
        seed, _fixed = await table.next_seed()
        await table.submit(ev.Start(player=f"p{i}", seed=seed, dealer=0))
        made.append(table)
    return made


async def run(mode: str, level: str, players: int, preset: str, boards: int, think: float,
              seconds: float) -> None:
    timed_bots()
    folder = Path(tempfile.mkdtemp())
    db = Database(f"sqlite+aiosqlite:///{folder / 'daily.db'}")
    await db.migrate()
    hub = make_hub(db, Timing(bot_delay=0.0, next_delay=0.0))

    async def seed_of(_code: str, deal: int) -> int | None:
        return daily_board_seed("bench", "2026-12-07", preset, deal) if 1 <= deal <= boards else None
    hub.deal_seeds = seed_of
    bot = levels_for("56" if preset.startswith("56") else "55")[level]
    stop = asyncio.Event()
    excess: dict[int, list[float]] = {}
    if mode == "cpu":
        cpu, wall = time.process_time(), time.monotonic()
        for i, table in enumerate(await tables(hub, players, preset, bot, boards)):
            excess[i] = []
            await person(table, f"p{i}", 0.0, boards, excess[i], stop)
        cpu, wall = time.process_time() - cpu, time.monotonic() - wall
        print(f"{preset} {boards} boards, level {level} ({bot}): {cpu / players:.2f} CPU s per set "
              f"({players} sets, {wall / players:.1f} s wall each)")
    else:
        made = await tables(hub, players, preset, bot, boards * 100)      # they play on for the whole run
        tasks = []
        for i, table in enumerate(made):
            excess[i] = []
            tasks.append(asyncio.create_task(person(table, f"p{i}", think, boards * 100, excess[i], stop)))
        cpu = time.process_time()
        await asyncio.sleep(seconds)
        stop.set()
        cpu = time.process_time() - cpu
        await asyncio.gather(*tasks, return_exceptions=True)
        p99s = [statistics.quantiles(v, n=100)[98] for v in excess.values() if len(v) >= 5] or [float("nan")]
        pooled = sorted(x for v in excess.values() for x in v)
        print(f"{players} players, {preset}, level {level} ({bot}), think {think} s, {seconds:.0f} s: "
              f"{len(pooled)} moves, excess p50 {1000 * pooled[len(pooled) // 2]:.1f} ms, "
              f"p99 {1000 * pooled[int(len(pooled) * 0.99)]:.1f} ms, worst table's p99 "
              f"{1000 * max(p99s):.1f} ms over {len(p99s)} tables; process CPU {cpu / seconds:.2f} of a core")
    await hub.stop()
    await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", choices=["cpu", "hold"], default="cpu")
    parser.add_argument("--level", choices=["beginner", "club", "expert"], default="club")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--preset", default="56-6")
    parser.add_argument("--boards", type=int, default=8)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    a = parser.parse_args()
    asyncio.run(run(a.mode, a.level, a.players, a.preset, a.boards, a.think, min(a.seconds, 600.0)))


if __name__ == "__main__":
    main()

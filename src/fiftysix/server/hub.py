"""All live tables of one server: creating them, finding them, and bringing them back after a restart.

Memory holds the tables in use, not every table ever made: a table is loaded from the database on the
first request for it; one with nothing to do and no connection for ``Timing.idle_unload`` seconds is
unloaded (it comes back, identical, on the next request); a lobby table with no connection for
``Timing.lobby_expiry`` seconds is closed for good.  A restart resumes at once only the tables with a deal
in progress (their computer players, and the cover for dropped people, must go on); the rest wait to
be asked for.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import Any

from ..core.errors import RulesError
from ..games import GAMES, game_of_preset
from .db import Database
from .history import History
from .state import PLAYING, TableError, TableState
from .table import LiveTable, Timing, default_bot

log = logging.getLogger("fiftysix.server")

CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"   # no 0/O, 1/I/L
CODE_LENGTH = 6


class Hub:
    def __init__(self, db: Database, timing: Timing) -> None:
        self.db = db
        self.timing = timing
        self.tables: dict[str, LiveTable] = {}
        self._loading = asyncio.Lock()
        self._janitor: asyncio.Task[None] | None = None

    async def resume_all(self) -> int:
        """Bring back, exactly where their logs left them, the tables with a deal in progress; start
        looking for idle tables.  Other tables load on their first request."""
        for code in await self.db.codes(status=PLAYING):
            await self.get(code)
        self._janitor = asyncio.create_task(self._sweep_loop(), name="idle tables")
        return len(self.tables)

    async def stop(self) -> None:
        if self._janitor is not None:
            self._janitor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._janitor
        for table in list(self.tables.values()):
            await table.stop()
        await self.db.touch({code: table.last_active for code, table in self.tables.items()})
        self.tables.clear()

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.timing.sweep_every)
            try:
                await self.sweep()
            except Exception:   # a failed sweep (the database away) is tried again next time
                log.exception("sweeping idle tables failed")

    async def sweep(self, now: float | None = None) -> tuple[int, int]:
        """Unload idle tables and close lobby tables unused for too long; returns how many of each."""
        now = time.time() if now is None else now
        unloaded = 0
        for code, table in list(self.tables.items()):
            if table.idle_for(now) >= self.timing.idle_unload and await self.unload(code):
                unloaded += 1
        async with self._loading:
            expired = await self.db.expire_lobbies(now - self.timing.lobby_expiry, keep=set(self.tables))
        return unloaded, expired

    async def unload(self, code: str) -> bool:
        """Take an idle table out of memory (its log is in the database); ``False`` if it is busy again."""
        async with self._loading:
            table = self.tables.get(code)
            if table is None:
                return False
            async with table.lock:
                if table.conns or table._pending() is not None:
                    return False
                table.closed = True
                del self.tables[code]
            await table.stop()
            await self.db.touch({code: table.last_active})
            return True

    async def get(self, code: str) -> LiveTable | None:
        """A table by its code, loaded from the database on first use."""
        code = code.strip().upper()
        table = self.tables.get(code)
        if table is not None:
            return table
        async with self._loading:
            table = self.tables.get(code)
            if table is None:
                if len(code) > 16 or not await self.db.exists(code):
                    return None
                count = await self.db.events_count(code)
                state, history = await History.load_stream(code, count, self.db.stream_events(code),
                                                           self.timing.replay_limit)
                table = LiveTable(self.db, state, history, self.timing)
                self.tables[code] = table
                table.start()
            return table

    async def create(self, host: str, host_name: str, form: dict[str, Any]) -> LiveTable:
        """A new table from the create form; the host sits in seat 0.

        :raises TableError: for a form the rules or the server refuse.
        """
        event = creation_event(host, host_name, form)
        async with self._loading:
            code = await self._new_code()
            state = TableState(code)
            stored = state.apply(event)
            await self.db.append(code, state.version, stored, state.status)
            table = LiveTable(self.db, state, History(TableState(code), [stored], self.timing.replay_limit),
                              self.timing)
            self.tables[code] = table
        table.start()
        return table

    async def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if code not in self.tables and not await self.db.exists(code):
                return code


def creation_event(host: str, host_name: str, form: dict[str, Any]) -> dict[str, Any]:
    """Check the create form: game, preset, option overrides, bots, grace period, table name."""
    preset = form.get("preset", "56-6")
    if not isinstance(preset, str):
        raise TableError("preset must be a preset name")
    try:
        game = game_of_preset(preset)
    except RulesError as e:
        raise TableError(str(e)) from None
    if form.get("game") not in (None, game.name):
        raise TableError(f"preset {preset} belongs to the game {game.name}, not {form.get('game')}")
    options = form.get("options") or {}
    if not isinstance(options, dict) or "preset" in options:
        raise TableError("options must be an object of option names and values")
    try:
        rules = game.rules_to_json(game.rules_from_json({"preset": preset, **options}))
    except RulesError as e:
        raise TableError(str(e)) from None
    fill = form.get("fill", default_bot(game.name))
    if fill is not None:
        bots = bot_names(game.name)
        if fill not in bots:
            raise TableError(f"fill must be one of {', '.join(bots)} or null (no computer players)")
    grace = form.get("grace", 60)
    if not isinstance(grace, int | float) or isinstance(grace, bool) or not 0 <= grace <= 3600:
        raise TableError("grace must be a number of seconds from 0 to 3600")
    name = form.get("name") or f"{host_name}'s table"
    if not isinstance(name, str) or len(name) > 40:
        raise TableError("the table name may have at most 40 characters")
    return {"kind": "create", "game": game.name, "rules": rules, "name": name.strip(), "host": host,
            "host_name": host_name, "fill": fill, "grace": grace, "time": int(time.time())}


def bot_names(game: str) -> list[str]:
    """The bots a table of ``game`` may use."""
    from ..bots import BOTS

    names = []
    for key in BOTS:
        base, _, only = key.partition(":")
        if (not only or only == game) and base not in names:
            names.append(base)
    return names


def catalogue() -> dict[str, Any]:
    """Games, presets, their options and allowed values, and the bots: what the create form offers."""
    import importlib

    out = {}
    for name, game in GAMES.items():
        presets = {}
        for preset in game.presets():
            rules = game.rules_from_json(preset)
            presets[preset] = game.rules_to_json(rules, full=True)
        first = game.rules_from_json(next(iter(game.presets())))
        choices = getattr(importlib.import_module(type(first).__module__), "CHOICES", {})
        options = {}
        for key, allowed in choices.items():
            values = list(allowed)
            numeric = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
            options[key] = ({"min": min(numeric), "max": max(numeric), "null": None in values}
                            if len(numeric) > 12 else {"values": values})
        out[name] = {"presets": presets, "options": options, "bots": bot_names(name),
                     "default_bot": default_bot(name), "side_word": getattr(game, "side_word", "team")}
    return out

"""All live tables of one server: creating them, finding them, and bringing them back after a restart."""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

from ..core.errors import RulesError
from ..games import DEFAULT_PRESET, GAMES, game_of_preset
from .db import Database
from .state import TableError, TableState, replay
from .table import LiveTable, Timing, default_bot

CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"   # no 0/O, 1/I/L
CODE_LENGTH = 6


class Hub:
    def __init__(self, db: Database, timing: Timing) -> None:
        self.db = db
        self.timing = timing
        self.tables: dict[str, LiveTable] = {}
        self._loading = asyncio.Lock()

    async def resume_all(self) -> int:
        """Bring back every table whose match is not over, exactly where its log left it."""
        for code in await self.db.codes(unfinished_only=True):
            await self.get(code)
        return len(self.tables)

    async def stop(self) -> None:
        for table in list(self.tables.values()):
            await table.stop()
        self.tables.clear()

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
                events = await self.db.events_of(code)
                table = LiveTable(self.db, replay(code, events), events, self.timing)
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
            table = LiveTable(self.db, state, [stored], self.timing)
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
    preset = form.get("preset", DEFAULT_PRESET)
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
    """Games, presets (with a sentence each), their options, allowed values and what the values mean, and the
    bots: what the create form offers."""
    out = {}
    for name, game in GAMES.items():
        presets = {}
        for preset in game.presets():
            rules = game.rules_from_json(preset)
            presets[preset] = game.rules_to_json(rules, full=True)
        options: dict[str, dict[str, Any]] = {}
        for key, allowed in game.choices.items():
            values = list(allowed)
            numeric = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
            options[key] = ({"min": min(numeric), "max": max(numeric), "null": None in values}
                            if len(numeric) > 12 else {"values": values})
            meanings = game.option_descriptions.get(key)
            if meanings:
                options[key]["descriptions"] = dict(meanings)
        out[name] = {"presets": presets, "options": options, "bots": bot_names(name),
                     "default_bot": default_bot(name), "side_word": game.side_word,
                     "descriptions": {p: game.preset_descriptions.get(p, "") for p in game.presets()},
                     "default_preset": game.default_preset}
    return out

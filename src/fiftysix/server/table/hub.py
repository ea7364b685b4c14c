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
from collections.abc import Awaitable, Callable
from typing import TypedDict

from ...core.errors import RulesError
from ...core.meaning import words_of
from ...games import DEFAULT_PRESET, GAMES, game_of_preset
from ...i18n import translate
from ..edge.limits import Limits, Quotas, searching_bots
from ..edge.names import TABLE_NAME, check_name
from ..services import service_message, service_of
from ..state import events as ev
from ..state.table import PLAYING, TableError, TableState
from ..state.typed_json import Received
from ..storage.attached import Attached
from ..storage.db import Database
from .clock import clock_rule
from .history import History
from .live import Finishing, LiveTable, Timing, default_bot, read_log
from .outgoing import Outgoing
from .places import Places
from .words import OptionWords, option_words

log = logging.getLogger("fiftysix.server")

CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"   # no 0/O, 1/I/L
CODE_LENGTH = 6


class Hub:
    def __init__(self, db: Database, timing: Timing, limits: Limits | None = None) -> None:
        self.db = db
        self.timing = timing
        self.limits = limits or Limits()
        self.quotas = Quotas(self.limits)
        self.tables: dict[str, LiveTable] = {}
        # (code, deal number) -> the fixed seed of a club night's board, or None (installed by server/nights)
        self.deal_seeds: Callable[[str, int], Awaitable[int | None]] | None = None
        self.deals_done: Callable[[str, int, list[int]], Awaitable[None]] | None = None
        # the table's published "a deal is finishing": each subscriber's writes ride in the event's transaction
        # (server/matches: the deal's people, the match it ended and its rating)
        self.finishing: list[Finishing] = []
        self._loading = asyncio.Lock()
        self._janitor: asyncio.Task[None] | None = None
        self.services = db.services
        self.services.listeners.append(self._tell_services)
        self.places = Places()      # where one tap to a game seated people (with many processes: in Redis)

    def _tell_services(self, service: str, ok: bool) -> None:
        """Every viewer on this process hears that ``service`` went down or came back."""
        message = service_message(service, ok)
        for table in list(self.tables.values()):
            for conn in list(table.conns):
                conn.send(message)

    def status_of(self, code: str) -> str | None:
        table = self.tables.get(code)
        return table.state.status if table is not None else None

    async def lobbies_elsewhere(self, limit: int) -> list[tuple[float, TableState]]:
        """The lobbies other processes hold (with many processes), with when each last changed; one process has
        none (its lobbies are all in ``tables``)."""
        return []

    async def open_elsewhere(self, codes: list[str]) -> list[tuple[float, TableState]]:
        """Which of ``codes`` other processes hold open (with many processes), read from their logs; one process
        has none."""
        return []

    def tell_elsewhere(self, code: str, player: str, message: Outgoing, seatless: bool) -> None:
        """Send ``message`` to ``player``'s connections to table ``code`` on other processes (with many; with
        ``seatless``, only while they hold no seat there); one process has no others."""

    def _live(self, state: TableState, history: History) -> LiveTable:
        code = state.code
        return LiveTable(self.db, state, history, self.timing, self.limits,
                         check_bot=lambda bot: (self.quotas.check_search(code, self.status_of)
                                                if searching_bots([bot]) else None),
                         deal_seed=lambda n: self.board_seed(code, n),
                         deal_done=lambda n, standings: self.deal_finished(code, n, standings),
                         finishing=self.finishing_writes)

    def finishing_writes(self, state: TableState, played: list[int]) -> list[Attached]:
        """What the subscribers to "a deal is finishing" write with the event that finished it."""
        return [write for subscriber in self.finishing for write in subscriber(state, played)]

    async def deal_finished(self, code: str, deal: int, standings: list[int]) -> None:
        if self.deals_done is not None:
            await self.deals_done(code, deal, standings)

    async def board_seed(self, code: str, deal: int) -> int | None:
        """The fixed seed of table ``code``'s ``deal``-th deal (a club night's board), or ``None``."""
        return None if self.deal_seeds is None else await self.deal_seeds(code, deal)

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
            except Exception as e:
                sweep_failed(e, self.timing.sweep_every)

    async def sweep(self, now: float | None = None) -> tuple[int, int]:
        """Unload idle tables and close lobby tables unused for too long; returns how many of each."""
        now = time.time() if now is None else now
        unloaded = 0
        for code, table in list(self.tables.items()):
            if table.idle_for(now) >= self.timing.idle_unload and await self.unload(code):
                unloaded += 1
        async with self._loading:
            expired = await self.db.expire_lobbies(now - self.timing.lobby_expiry, keep=await self.in_use())
        return unloaded, expired

    async def in_use(self) -> set[str]:
        """The tables a sweep must not close: with one process, those in memory."""
        return set(self.tables)

    async def unload(self, code: str) -> bool:
        """Take an idle table out of memory (its log is in the database); ``False`` if it is busy again."""
        async with self._loading:
            table = self.tables.get(code)
            if table is None:
                return False
            if not await table.close_if_idle():
                return False
            del self.tables[code]          # no await since it was closed: a connection finds one or the other
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
            if table is None and len(code) <= 16 and await self.db.exists(code):
                table = self.tables[code] = await self._bring(code)
                table.start()
            return table

    async def load(self, code: str) -> tuple[TableState, History]:
        """A stored table's state and its recent events, from its log."""
        return await read_log(self.db, code, self.timing.replay_limit)

    async def _bring(self, code: str) -> LiveTable:
        """The live table of the stored table ``code``, not yet started (under ``_loading``, from :meth:`get`)."""
        state, history = await self.load(code)
        table = self._live(state, history)
        self.quotas.resumed(code, state.host, searching_bots([state.fill, *(s.bot for s in state.seats)]))
        return table

    async def create(self, host: str, host_name: str, form: Received, address: str | None = None,
                     event: str | None = None) -> LiveTable:
        """A new table from the create form; the host sits in seat 0.

        :param address: the client's address, for the quotas per address.
        :param event: a club night's id: the table is one of its tables (its matches unrated, the event is rated
            once), counted in the whole server's quotas only (:meth:`Quotas.check_create`).
        :raises TableError: for a form the rules or the server refuse.
        :raises QuotaError: when the host or their address is over a quota (:class:`Limits`).
        """
        created = creation_event(host, host_name, form, event)
        searching = searching_bots([created.fill])
        async with self._loading:
            self.quotas.check_create(host, address, searching, self.status_of, personal=event is None)
            code = await self._new_code()
            state = TableState(code)
            stored = state.apply_event(created).to_json()
            await self.db.append(code, state.version, stored, state.status)
            table = self._live(state, History(TableState(code), [stored], self.timing.replay_limit))
            self.tables[code] = table
            self.quotas.created(code, host if event is None else f"event:{event}", address, searching)
        table.start()
        return table

    async def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if code not in self.tables and not await self.db.exists(code):
                return code


def creation_event(host: str, host_name: str, form: Received, event: str | None = None) -> ev.Create:
    """Check the create form: game, preset, option overrides, bots, grace period, table name (``event``: a club
    night's table, whose matches are not rated)."""
    preset = form.get("preset", DEFAULT_PRESET)
    if not isinstance(preset, str):
        raise TableError("preset must be a preset name")
    try:
        game = game_of_preset(preset)
    except RulesError as e:
        raise TableError(words_of(e)) from None
    if form.get("game") not in (None, game.name):
        raise TableError(f"preset {preset} belongs to the game {game.name}, not {form.get('game')}")
    options = form.get("options") or {}
    if not isinstance(options, dict) or "preset" in options:
        raise TableError("options must be an object of option names and values")
    try:
        rules = game.rules_to_json(game.rules_from_json({"preset": preset, **options}))
        assert isinstance(rules, str | dict), "a game's rules are a preset's name or its options"
    except RulesError as e:
        raise TableError(words_of(e)) from None
    fill = form.get("fill", default_bot(game.name))
    if fill is not None:
        bots = bot_names(game.name)
        if fill not in bots:
            raise TableError(f"fill must be one of {', '.join(bots)} or null (no computer players)")
    grace = form.get("grace", 60)
    if not isinstance(grace, int | float) or isinstance(grace, bool) or not 0 <= grace <= 3600:
        raise TableError("grace must be a number of seconds from 0 to 3600")
    try:
        name = check_name(form.get("name") or f"{host_name}'s table"[:TABLE_NAME], "table name", TABLE_NAME)
    except ValueError as e:
        raise TableError(words_of(e)) from None
    public = form.get("public", False)
    if not isinstance(public, bool):
        raise TableError("public must be true (anyone with the code may join) or false (the default: "
                         "joining needs the link's secret or the host's yes)")
    boards = form.get("boards") if event is not None else None     # a club night's table: its boards
    # a sparse field (secret, clock, rated, night) is logged only when set: a table without a clock logs what it
    # always did
    return ev.Create(game=game.name, rules=rules, name=name, host=host, host_name=host_name, fill=fill, grace=grace,
                     time=int(time.time()), private=not public, seat_rule=True,
                     secret=None if public else secrets.token_urlsafe(16),     # 128 random bits
                     clock=clock_rule(form.get("clock")), rated=False if event is not None else None, night=event,
                     boards=boards if isinstance(boards, int) and not isinstance(boards, bool) and boards >= 1
                     else None)


def sweep_failed(error: Exception, again: float) -> None:
    """A failed sweep of idle tables, tried again in ``again`` seconds: one line while a service is away (an
    expected outage, said by the services' own warning too), the stack trace only for a bug."""
    service = service_of(error)
    if service is None:
        log.error("sweeping idle tables failed", exc_info=error)
    else:
        log.warning("sweeping idle tables waits for the %s (%s); tried again in %g s", service,
                    type(error).__name__, again)


def bot_names(game: str) -> list[str]:
    """The bots a table of ``game`` may use."""
    from ...bots import BOTS

    return BOTS.names(game)


def levels_for(game: str) -> dict[str, str]:
    """Beginner, club and expert: the bots behind each level (:mod:`fiftysix.bots.levels`)."""
    from ...bots.levels import levels_for as levels

    return {level: bot for level, bot in levels(game).items() if bot in bot_names(game)}


class OptionChoices(TypedDict, total=False):
    """What an option of the create form allows: a span of numbers (``min``, ``max``, and whether ``null`` is
    allowed too) or a list of ``values``; with what each value means (``descriptions``), when the game says."""

    min: int
    max: int
    null: bool
    values: list[object]
    descriptions: dict[str, str]


class FigureJson(TypedDict):
    """A :class:`~fiftysix.bots.levels.LevelFigure` as JSON (its fields, by name)."""

    kind: str
    value: float
    low: float
    high: float
    over: str
    preset: str
    pairs: int
    unit: str


class GameCatalogue(TypedDict):
    """One game in the create form's catalogue (:func:`catalogue`)."""

    presets: dict[str, object]        # preset -> its full rules as JSON (the game's rules_to_json)
    options: dict[str, OptionChoices]
    bots: list[str]
    levels: dict[str, str]
    level_figures: dict[str, FigureJson]
    default_bot: str
    side_word: str
    descriptions: dict[str, str]
    default_preset: str
    option_words: dict[str, OptionWords]     # words.option_words: each option's label, help and values
    default: bool


def level_figures(game: str) -> dict[str, FigureJson]:
    """What each level is measured to gain over another (:data:`fiftysix.bots.levels.FIGURES`), of the levels
    offered."""
    from ...bots.levels import FIGURES

    offered = levels_for(game)
    return {level: FigureJson(kind=f.kind, value=f.value, low=f.low, high=f.high, over=f.over, preset=f.preset,
                              pairs=f.pairs, unit=f.unit)
            for level, f in FIGURES.get(game, {}).items() if level in offered and f.over in offered}


def catalogue() -> dict[str, GameCatalogue]:
    """Games, presets (with a sentence each), their options, allowed values and what the values mean, and the
    bots: what the create form offers."""
    out: dict[str, GameCatalogue] = {}
    for name, game in GAMES.items():
        presets = {}
        for preset in game.presets():
            rules = game.rules_from_json(preset)
            presets[preset] = game.rules_to_json(rules, full=True)
        options: dict[str, OptionChoices] = {}
        for key, allowed in game.choices.items():
            spans = [v for v in allowed if type(v) is range]     # a span of numbers: its bounds
            options[key] = ({"min": min(r.start for r in spans), "max": max(r.stop - 1 for r in spans),
                             "null": None in allowed} if spans else {"values": list(allowed)})
            meanings = game.option_descriptions.get(key)
            if meanings:
                options[key]["descriptions"] = dict(meanings)
        out[name] = {"presets": presets, "options": options, "bots": bot_names(name), "levels": levels_for(name),
                     "level_figures": level_figures(name),
                     "default_bot": default_bot(name), "side_word": game.side_word,
                     "descriptions": {p: game.preset_descriptions.get(p, "") for p in game.presets()},
                     "default_preset": game.default_preset, "option_words": option_words(options),
                     "default": game is game_of_preset(DEFAULT_PRESET)}     # the game the form starts on
    return out


def localize_catalogue(catalogue: dict[str, GameCatalogue], lang: str) -> dict[str, GameCatalogue]:
    """The create form's catalogue with its preset and option sentences in ``lang``."""
    if lang == "en":
        return catalogue
    out: dict[str, GameCatalogue] = {}
    for game, info in catalogue.items():
        told = info.copy()
        told["options"] = {key: _localized_choices(spec, lang) for key, spec in info["options"].items()}
        told["option_words"] = {key: OptionWords(label=translate(w["label"], lang),
                                                 help=translate(w["help"], lang) if w["help"] else "",
                                                 values={v: translate(d, lang) for v, d in w["values"].items()})
                                for key, w in info["option_words"].items()}
        told["descriptions"] = {p: translate(d, lang) for p, d in info["descriptions"].items()}
        out[game] = told
    return out


def _localized_choices(spec: OptionChoices, lang: str) -> OptionChoices:
    if "descriptions" not in spec:
        return spec
    told = spec.copy()
    told["descriptions"] = {v: translate(d, lang) for v, d in spec["descriptions"].items()}
    return told

"""What the subcommands share: reading ``--rules`` and ``--bots``, reading record files, and the host
loop that asks computer players for moves (they only ever get a seat view)."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO, TypeVar

from ..core.deal import Deal
from ..core.errors import FiftySixError, RulesError
from ..core.meaning import Meaning, words_of
from ..core.options import Rules
from ..games import DEFAULT_PRESET, GAMES, resolve_rules
from ..games.spec import GameSpec, MatchLike
from .render import can_show_symbols

if TYPE_CHECKING:
    from ..bots import Bot

Warn = Callable[[str], None]
R = TypeVar("R")


class CliError(Exception):
    """A usage error the command line reports in one line (exit status 2)."""


def stderr_warn(message: str) -> None:
    print(f"fiftysix: warning: {message}", file=sys.stderr)


@dataclass
class Io:
    """A subcommand's streams; ``interactive`` when they are the process's own (not given by a caller)."""

    stdin: TextIO
    stdout: TextIO
    stderr: TextIO
    warn: Warn
    interactive: bool = False


DEFAULT_RULES = DEFAULT_PRESET
"""The ``--rules`` of ``deal`` and ``play`` when none is given."""


def presets_text() -> str:
    return "; ".join(f"{name}: {', '.join(game.presets())}" for name, game in GAMES.items())


def rules_help() -> str:
    """The help of a ``--rules`` option (argparse fills in the default)."""
    return (f"a preset ({presets_text()}) or a JSON object such as "
            '\'{"preset": "56-4", "deck": 32}\' (default %(default)s)')


def bots_text() -> str:
    """Every bot of the registry by name, with each game's levels: the command line's help reads the registry, so
    it names a new bot as soon as it is registered ("random, rules, pimc, ...; levels: 56 beginner rules, ...")."""
    from ..bots import BOTS
    from ..bots.levels import levels_for

    names = BOTS.names()
    levels = "; ".join(f"{game} " + ", ".join(f"{level} {bot}" for level, bot in levels_for(game).items())
                       for game in GAMES if levels_for(game))
    return ", ".join(names) + (f" (levels: {levels})" if levels else "")


def parse_rules(text: str | None, default: str = DEFAULT_PRESET) -> tuple[GameSpec, Rules]:
    """The game and rules object for ``--rules``: a preset name (``56-4``, ``55-teams-4``) or a JSON object
    ``{"preset": "56-4", "deck": 32}``.

    :raises CliError: for an unknown preset or option, or malformed JSON.
    """
    text = default if text is None else text.strip()
    data: object = text
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise CliError(f"--rules: malformed JSON: {e}") from None
        if not isinstance(data, dict):
            raise CliError("--rules: give a preset name or a JSON object of options")
        preset = data.get("preset", default)
        if not isinstance(preset, str):
            raise CliError(f"--rules: preset must be a preset name, not {preset!r}")
    else:
        preset = text
    try:
        return resolve_rules(data if isinstance(data, dict) else preset)
    except RulesError as e:
        raise CliError(Meaning("--rules: {why}", {"why": words_of(e)})) from None


def bot_names(text: str | None, players: int, default: str = "rules", human: int | None = None) -> list[str]:
    """One bot name per seat from ``--bots``: one name for every seat, or a comma list.

    With a human seat the list may also leave that seat out (``players - 1`` names).
    :raises CliError: for a list of the wrong length.
    """
    names = [n.strip() for n in (text or default).split(",") if n.strip()]
    if not names:
        names = [default]
    if len(names) == 1:
        return names * players
    if len(names) == players:
        return names
    if human is not None and len(names) == players - 1:
        return names[:human] + ["human"] + names[human:]
    need = f"1 or {players}" + (f" (or {players - 1}, leaving out your seat)" if human is not None else "")
    raise CliError(f"--bots: {len(names)} names for {players} seats; give {need}")


def derived_seed(seed: int | None, *parts: int) -> int | None:
    """A seed for one bot or fallback, derived from the command's seed (``None`` stays random)."""
    if seed is None:
        return None
    value = seed
    for p in parts:
        value = value * 1_000_003 + p + 1
    return value


def make_bots(names: Sequence[str], seed: int | None, game: str, skip: int | None = None) -> list[Bot | None]:
    """The bots per seat (``None`` at the human's seat).

    :raises CliError: for an unknown bot name.
    """
    from ..bots import make_bot  # the computer players (numpy) when a command seats them: `serve` starts sooner

    out: list[Bot | None] = []
    for seat, name in enumerate(names):
        if seat == skip:
            out.append(None)
            continue
        try:
            out.append(make_bot(name, seed=derived_seed(seed, seat), game=game))
        except ValueError as e:
            raise CliError(f"--bots: {e}") from None
    return out


def seat_bots(bots_text: str | None, players: int, seed: int | None, game: str,
              human: int | None = None) -> tuple[list[Bot | None], random.Random]:
    """A table's bots from ``--bots`` (``None`` at the human's seat), and the generator of the random legal
    moves that stand in for a bot's bad answers (:func:`ask_bot`), both derived from the command's seed.

    :raises CliError: for a list of the wrong length or an unknown bot name.
    """
    bots = make_bots(bot_names(bots_text, players, human=human), seed, game, skip=human)
    return bots, random.Random(derived_seed(seed, 999))


def ask_bot(bot: Bot, deal: Deal, seat: int, match: MatchLike | None, fallback: random.Random, warn: Warn) -> str:
    """One move of a computer player: it is given the seat's view only.  An illegal or malformed answer
    (or a crash) is replaced by a random legal move, with a warning."""
    seen = GAMES[deal.game].observation(deal, seat, match)     # built from the deal: no JSON in between
    legal = seen.legal or [str(m) for m in deal.legal_moves()]
    try:
        answer = bot.choose(seen)
    except Exception as e:  # a bot must never stop the table
        warn(f"bot {getattr(bot, 'name', '?')} at seat {seat} failed ({type(e).__name__}: {e}); "
             "playing a random legal move instead")
        return str(legal[fallback.randrange(len(legal))])
    if isinstance(answer, str):
        try:
            move = deal.parse_move(answer)
            if deal.is_legal(move):
                return str(move)
        except FiftySixError:
            pass
    choice = str(legal[fallback.randrange(len(legal))])
    warn(f"bot {getattr(bot, 'name', '?')} at seat {seat} answered {answer!r}, which is not legal; "
         f"playing {choice} instead")
    return choice


def game_of_record(data: object) -> GameSpec | None:
    if isinstance(data, dict):
        name = data.get("game")
        if isinstance(name, str):
            return GAMES.get(name)
    return None


def read_text(path: str, stdin: TextIO | None = None) -> str:
    """The text of a record file, or of standard input for ``-``.

    :raises OSError: if the file cannot be read.
    :raises UnicodeDecodeError: if it is not UTF-8.
    """
    if path == "-":
        stream = stdin if stdin is not None else sys.stdin
        buffer = getattr(stream, "buffer", None)
        if buffer is not None:
            data: bytes = buffer.read()
            return data.decode("utf-8-sig")
        return stream.read()
    with open(path, "rb") as f:
        return f.read().decode("utf-8-sig")


class RecordFileError(Exception):
    """A record file that cannot be read or is not JSON; the message names the file and what is wrong."""


def load_json(path: str, stdin: TextIO | None = None) -> object:
    """The JSON value of a record file (``-``: standard input).

    :raises RecordFileError: if the file cannot be read, is not UTF-8 or is not JSON.
    """
    name = "standard input" if path == "-" else path
    try:
        text = read_text(path, stdin)
    except OSError as e:
        raise RecordFileError(f"cannot read {name}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise RecordFileError(f"cannot read {name}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordFileError(f"{name}: malformed JSON: {e}") from None


def write_result(result: R, as_json: bool, ascii_only: bool, out: TextIO,
                 text: Callable[[R, bool], str]) -> None:
    """Print a command's result: one JSON object, or ``text(result, symbols)`` with suit symbols where
    the terminal can show them."""
    if as_json:
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
    else:
        out.write(text(result, not ascii_only and can_show_symbols(out)))

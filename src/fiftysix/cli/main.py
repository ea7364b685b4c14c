"""The ``fiftysix`` command: one module per subcommand (``add_parser`` and ``run``), dispatched through
:data:`COMMANDS`.

Every subcommand reaches the games through :data:`fiftysix.games.GAMES` and preset names, so a game
registered there (56, 55) works everywhere without changes here.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TextIO

from ..core.meaning import words_of
from ..i18n import translate
from .common import CliError, Io, presets_text, stderr_warn

_serve: ModuleType | None
try:  # the web server's subcommand (cli/serve.py), when its module is present
    from . import serve as _serve
except ImportError:  # pragma: no cover
    _serve = None


@dataclass(frozen=True)
class Command:
    """A subcommand: how its arguments are declared and how it runs (returning the exit status)."""

    add_parser: Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]
    run: Callable[[argparse.Namespace, Io], int]


def _run_arena(args: argparse.Namespace, io: Io) -> int:
    from . import arena

    return arena.run(args, io.stdout, io.stderr)


def _run_serve(args: argparse.Namespace, io: Io) -> int:
    assert _serve is not None
    return int(_serve.run_serve(args, io.stderr))


def _commands(only: str | None = None) -> dict[str, Command]:
    """Every subcommand, in the order of ``fiftysix --help``; ``only="serve"``: that one alone (the server starts
    without importing the other commands and the computer players their help names: a quick start)."""
    if only == "serve" and _serve is not None:
        return {"serve": Command(_serve.add_parser, _run_serve)}
    from . import analyze, arena, bot, check, deal, play, replay, solve

    table = {
        "check": Command(check.add_parser, check.run),
        "deal": Command(deal.add_parser, deal.run),
        "replay": Command(replay.add_parser, replay.run),
        "play": Command(play.add_parser, play.run),
    }
    if _serve is not None:
        table["serve"] = Command(_serve.add_parser, _run_serve)
    table.update({
        "bot": Command(bot.add_parser, bot.run),
        "arena": Command(arena.add_parser, _run_arena),
        "solve": Command(solve.add_parser, solve.run),
        "analyze": Command(analyze.add_parser, analyze.run),
    })
    return table


def build_parser(commands: dict[str, Command] | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fiftysix",
        description="The card games 56 (Fifty-six) and 55: check, replay and play deals.",
        epilog=f"Presets: {presets_text()}",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for command in (commands if commands is not None else _commands()).values():
        command.add_parser(sub)
    return parser


def _safe_streams() -> None:
    """Never die on a terminal that cannot show a character: replace it instead."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="replace")


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 invalid record, 2 usage error)."""
    argv = list(argv) if argv is not None else sys.argv[1:]
    commands = _commands(argv[0] if argv else None)
    parser = build_parser(commands)
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse has printed the usage error (or --help)
        return int(e.code) if isinstance(e.code, int) else 2
    if stdout is None:
        _safe_streams()
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    inp = stdin if stdin is not None else sys.stdin

    def warn(message: str) -> None:
        if stderr is None:
            stderr_warn(message)
        else:
            err.write(f"fiftysix: warning: {message}\n")

    io = Io(inp, out, err, warn, interactive=stdin is None and stdout is None)
    try:
        return commands[args.command].run(args, io)
    except CliError as e:
        why = translate(words_of(e), getattr(args, "lang", None) or "en")     # play's --lang
        err.write(f"fiftysix {args.command}: error: {why}\n")
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

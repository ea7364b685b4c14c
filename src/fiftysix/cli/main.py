"""The ``fiftysix`` command: ``check``, ``deal``, ``replay`` and ``play``.

Every subcommand reaches the games through :data:`fiftysix.games.GAMES` and preset names, so a game
registered there (56, 55) works everywhere without changes here.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import TextIO

from ..games import GAMES
from . import analyze as _analyze
from . import arena as _arena
from . import bot as _bot
from . import solve as _solve
from .check import run_check
from .common import CliError, parse_rules, stderr_warn
from .deal import run_deal
from .play import run_play
from .render import can_show_symbols
from .replay import run_replay

_serve: ModuleType | None
try:  # the web server's subcommand (cli/serve.py), when its module is present
    from . import serve as _serve
except ImportError:  # pragma: no cover
    _serve = None

DEFAULT_RULES = "56-6"


def _presets_text() -> str:
    return "; ".join(f"{name}: {', '.join(game.presets())}" for name, game in GAMES.items())


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fiftysix",
        description="The card games 56 (Fifty-six) and 55: check, replay and play deals.",
        epilog=f"Presets: {_presets_text()}",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("check", help="check records; print one JSON result line per file",
                       description="Check deal or match records. Prints one line of JSON per file; "
                                   "exit status 1 if any record is invalid.")
    p.add_argument("files", nargs="+", metavar="FILE", help="record files (- for standard input)")

    rules_help = (f"a preset ({_presets_text()}) or a JSON object such as "
                  '\'{"preset": "56-4", "deck": 32}\' (default %(default)s)')
    p = sub.add_parser("deal", help="play one deal with computer players and write its record",
                       description="Play one complete deal with computer players and write the deal record "
                                   "(JSON). The same seed gives the same record.")
    p.add_argument("--rules", default=DEFAULT_RULES, help=rules_help)
    p.add_argument("--seed", type=int, default=None, help="seed of the shuffle and of the bots")
    p.add_argument("--dealer", type=int, default=None, help="the dealer's seat (default: drawn from the seed)")
    p.add_argument("--bots", default="rules",
                   help="one bot for every seat or a comma list per seat: random, rules (default %(default)s)")
    p.add_argument("--out", default=None, metavar="FILE", help="write the record here (default: standard output)")

    p = sub.add_parser("replay", help="show a record in the terminal, trick by trick",
                       description="Show a deal or match record: hands, the auction with each call's meaning, "
                                   "the contract, every trick, the result and the score.")
    p.add_argument("file", metavar="FILE", help="a record file (- for standard input)")
    p.add_argument("--ascii", action="store_true", help="cards as JS, TH instead of suit symbols")

    p = sub.add_parser("play", help="play one seat in the terminal against computer players",
                       description="Play a match in the terminal: you hold one seat, computer players the "
                                   "others. Type ? at the prompt for help.")
    p.add_argument("--rules", default=DEFAULT_RULES, help=rules_help)
    p.add_argument("--seat", type=int, default=0, help="your seat (default %(default)s)")
    p.add_argument("--seed", type=int, default=None, help="seed of the match (shuffles, first dealer, bots)")
    p.add_argument("--bots", default="rules",
                   help="one bot for the other seats, or a comma list per seat (default %(default)s)")
    p.add_argument("--deals", type=int, default=None, help="stop after this many deals (default: the whole match)")
    p.add_argument("--ascii", action="store_true", help="cards as JS, TH instead of suit symbols")
    if _serve is not None:   # `fiftysix serve`, the web server (cli/serve.py)
        _serve.add_parser(sub)
    _bot.add_parser(sub)     # `fiftysix bot NAME` (cli/bot.py)
    _arena.add_parser(sub)   # `fiftysix arena` (cli/arena.py)
    _solve.add_parser(sub)   # `fiftysix solve FILE` (cli/solve.py)
    _analyze.add_parser(sub)  # `fiftysix analyze FILE` (cli/analyze.py)
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
    parser = build_parser()
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

    try:
        if args.command == "check":
            return run_check(args.files, out, inp)
        if args.command == "bot":
            return _bot.run(args, inp, out, err)
        if args.command == "arena":
            return _arena.run(args, out, err)
        if args.command == "solve":
            return _solve.run(args, inp, out, err)
        if args.command == "analyze":
            return _analyze.run(args, inp, out, err)
        if args.command == "serve" and _serve is not None:
            return int(_serve.run_serve(args, err))
        if args.command == "replay":
            symbols = not args.ascii and can_show_symbols(out)
            return run_replay(args.file, out, err, inp, symbols)
        game, rules = parse_rules(args.rules)
        if args.command == "deal":
            return run_deal(game, rules, args.seed, args.dealer, args.bots, args.out, out, warn)
        if args.command == "play":
            symbols = not args.ascii and can_show_symbols(out)

            def input_fn(prompt: str) -> str:
                out.write(prompt)
                out.flush()
                line = inp.readline()
                if not line:
                    raise EOFError
                line = line.rstrip("\n")
                out.write(line + "\n")   # echo: the transcript then reads like a terminal session
                return line

            def print_fn(text: str) -> None:
                out.write(text + "\n")
                out.flush()

            if stdin is None and stdout is None:
                echo = not sys.stdin.isatty()

                def tty_input(prompt: str) -> str:
                    line = input(prompt)
                    if echo:
                        print(line)
                    return line
                return run_play(game, rules, args.seat, args.seed, args.bots, args.deals, tty_input, print,
                                warn, symbols)
            return run_play(game, rules, args.seat, args.seed, args.bots, args.deals, input_fn, print_fn, warn,
                            symbols)
    except CliError as e:
        err.write(f"fiftysix {args.command}: error: {e}\n")
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0
    parser.error(f"unknown command {args.command!r}")  # pragma: no cover
    return 2  # pragma: no cover


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

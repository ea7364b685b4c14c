"""``fiftysix bot NAME [--seed N]``: one of our bots as an outside program speaking the bot protocol
(``docs/spec/views-and-bots.md``) on standard input and output, so any host (the arena, the server,
another project's table) can seat it, and so our own bots exercise the protocol."""

from __future__ import annotations

import argparse

from ..bots import Bot
from ..bots.protocol import CMD_PREFIX, bot_from_spec, run_bot
from ..games import DEFAULT_GAME
from .common import CliError, Io, bots_text, stderr_warn


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("bot", help="run a bot as an outside program (bot protocol on stdin/stdout)",
                       description="Run one of our bots as an outside program: it reads protocol messages "
                                   "(hello, move, event, deal_end, bye), one JSON object a line, on standard "
                                   "input and answers on standard output.")
    p.add_argument("name", metavar="NAME",
                   help=f"a bot name ({bots_text()}), optionally with options: ismcts,iterations=200")
    p.add_argument("--seed", type=int, default=None, help="seed of the bot's random choices")


def run(args: argparse.Namespace, io: Io) -> int:
    """Serve the bot until ``bye`` or the end of input.

    :raises CliError: for an unknown bot or option (before reading anything).
    """
    spec: str = args.name
    if spec.startswith(CMD_PREFIX):
        raise CliError("NAME must be one of our bots, not an outside program")
    try:
        bot_from_spec(spec, args.seed, DEFAULT_GAME)
    except ValueError as e:
        raise CliError(str(e)) from None

    def factory(game: str) -> Bot:
        return bot_from_spec(spec, args.seed, game)

    return run_bot(factory, io.stdin, io.stdout, io.stderr)


if __name__ == "__main__":  # pragma: no cover - `python -m fiftysix.cli.bot NAME`
    import sys

    parser = argparse.ArgumentParser(prog="fiftysix bot")
    sub = parser.add_subparsers(dest="command")
    add_parser(sub)
    sys.exit(run(parser.parse_args(["bot", *sys.argv[1:]]), Io(sys.stdin, sys.stdout, sys.stderr, stderr_warn)))

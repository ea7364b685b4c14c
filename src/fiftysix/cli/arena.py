"""``fiftysix arena``: bots play duplicate deals against each other; prints their strength and speed.

``fiftysix arena --rules 56-6 --bot ismcts --bot rules --deals 200 --seed 1 [--json FILE] [--plot FILE]
[--workers N | --ray ADDRESS]``

``fiftysix arena --panel --bot sage [--bot ...] --deals 2000 [--rules 56-4,56-6] [--fast] [--seeds tuning
--for-tuning] [--json FILE]``: each bot against the fixed panel (:mod:`fiftysix.arena.panel`) on the reporting
seeds, with a rating over all pairings.

Exit status: 0; 1 when an outside program does not play (never says ready, or most of its moves are faults);
2 for bad arguments; 130 after Ctrl-C or ``kill PID`` (SIGTERM): the deals played to the end are summarized and
written first.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, TextIO, TypeVar

from ..arena import ArenaConfig, BotFailure, check_bots, format_text, panel, run_arena, summarize, write_plot
from ..arena.panel import (
    PANEL,
    PRESETS,
    REPORTING,
    SEED_SETS,
    PanelConfig,
    check_panel,
    format_panel,
    panel_document,
    play_panel,
    seed_set,
)
from ..bots.protocol import DEFAULT_TIMEOUT
from ..core.errors import RulesError
from ..games import DEFAULT_PRESET
from .common import CliError, bots_text

T = TypeVar("T")

INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT), once the partial summary is printed and written."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("arena", help="bots play duplicate deals against each other",
                       description="Play duplicate deals: every deal is played again with the teams' seats "
                                   "swapped (rotated for more teams), so luck cancels. Prints per bot the mean "
                                   "score per deal, card points, contracts made, time per decision, faults and "
                                   "the 95% confidence interval of the paired difference.")
    p.add_argument("--rules", default=None,
                   help=f"a preset or a JSON rules object (default {DEFAULT_PRESET}); with --panel presets "
                        f"separated by commas (default {','.join(PRESETS)})")
    p.add_argument("--bot", action="append", dest="bots", metavar="BOT", default=[],
                   help=f'a bot: {bots_text()}, with options as ismcts,iterations=100; cardplay,cards=BOT '
                        '(rules makes the calls, BOT plays the cards); or "cmd:PROGRAM ARGS" for an outside program; '
                        'give --bot once per bot (2 or more)')
    p.add_argument("--deals", type=int, default=100, help="number of duplicate deals (default %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals (default %(default)s)")
    p.add_argument("--first", type=int, default=0, metavar="N",
                   help="play the seed's deals from index N on (default 0): to go on where a run of the same "
                        "seed stopped, and pool the two with bench/pool_arena.py")
    p.add_argument("--workers", type=int, default=1, help="processes to play in (default %(default)s)")
    p.add_argument("--ray", default=None, metavar="ADDRESS",
                   help="play on a Ray cluster: its address (host:port), auto, or local to start one in this "
                        "process (pip install 'fiftysix[cluster]')")
    p.add_argument("--json", default=None, metavar="FILE", help="write the full summary as JSON")
    p.add_argument("--plot", default=None, metavar="FILE", help="write a PNG of the running difference")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                   help="seconds an outside bot has per move (default %(default)s)")
    p.add_argument("--fallback", default="random",
                   help="the bot that moves for a faulty one (default %(default)s)")
    p.add_argument("--no-events", action="store_true", help="do not send event messages to outside bots")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    g = p.add_argument_group("panel", "each --bot against the fixed panel "
                                      f"({', '.join(m.name for m in PANEL)}) on each preset, rated together")
    g.add_argument("--panel", action="store_true", help="play the panel (one bot is enough)")
    g.add_argument("--seeds", default=REPORTING.name, choices=sorted(SEED_SETS),
                   help="the panel's seed set (default %(default)s); not with --seed")
    g.add_argument("--for-tuning", action="store_true",
                   help="allow the tuning seeds: the figures are marked as not for reporting")
    g.add_argument("--fast", action="store_true", help="the panel members' cheaper settings")
    g.add_argument("--members", default="", metavar="NAMES",
                   help="play only these members, by name, separated by commas (default: every one)")


def run(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """:raises CliError: for bad arguments (before anything is played)."""
    if args.panel:
        return run_panel_command(args, stdout, stderr)
    if args.members:
        raise CliError("--members chooses the panel's members: give --panel too")
    return run_duel(args, stdout, stderr)


def duel_config(args: argparse.Namespace) -> ArenaConfig:
    """The arena run of the arguments (not ``--panel``).

    :raises CliError: for bad arguments.
    """
    rules: str | dict[str, object] = (args.rules or DEFAULT_PRESET).strip()
    if isinstance(rules, str) and rules.startswith("{"):
        try:
            rules = json.loads(rules)
        except json.JSONDecodeError as e:
            raise CliError(f"--rules: malformed JSON: {e}") from None
    if len(args.bots) < 2:
        raise CliError("give at least two bots (--bot A --bot B)")
    if args.deals < 1 or args.workers < 1 or args.timeout <= 0 or args.first < 0:
        raise CliError("--deals and --workers must be at least 1, --first not negative, --timeout positive")
    config = ArenaConfig(rules=rules, bots=tuple(args.bots), deals=args.deals, seed=args.seed,
                         workers=args.workers, timeout=args.timeout, fallback=args.fallback,
                         events=not args.no_events, first=args.first)
    try:
        check_bots(config)
    except (ValueError, RulesError) as e:
        raise CliError(str(e)) from None
    return config


def run_duel(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """The bots of ``--bot`` against each other on one preset.

    :raises CliError: for bad arguments (before anything is played).
    """
    config = duel_config(args)
    ran = _run(args, args.deals, stderr, "run", lambda progress: run_arena(config, progress, ray_address=args.ray))
    if ran is None:
        return 1
    result, elapsed = ran
    summary = summarize(config, result, elapsed)
    if args.ray:
        summary["ray"] = args.ray
    if result.interrupted:
        stderr.write(f"fiftysix arena: interrupted; the summary of the {summary['deals']} deals played to the end"
                     + (f" is also in {args.json}" if args.json else "") + "\n")
    stdout.write(format_text(summary))
    try:
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(summary, f, indent=1)
                f.write("\n")
        if args.plot:
            write_plot(summary, args.plot)
    except OSError as e:
        raise CliError(f"cannot write {e.filename}: {e.strerror or e}") from None
    except RuntimeError as e:
        raise CliError(str(e)) from None
    return INTERRUPTED if result.interrupted else 0


def panel_config(args: argparse.Namespace) -> PanelConfig:
    """The panel of the arguments.

    :raises CliError: for bad arguments.
    """
    if not args.bots:
        raise CliError("give the bot to measure against the panel (--bot NAME)")
    if args.seed != 0:
        raise CliError("--panel plays a named seed set: give --seeds reporting or --seeds tuning, not --seed")
    if args.deals < 1 or args.workers < 1 or args.first < 0:
        raise CliError("--deals and --workers must be at least 1, --first not negative")
    if args.plot:
        raise CliError("--plot draws one duel; a panel writes --json")
    presets = tuple(x.strip() for x in (args.rules or ",".join(PRESETS)).split(",") if x.strip())
    try:
        config = PanelConfig(bots=tuple(args.bots), deals=args.deals, seeds=seed_set(args.seeds, args.for_tuning),
                             presets=presets, members=panel.PANEL, fast=args.fast, workers=args.workers,
                             first=args.first, for_tuning=args.for_tuning,
                             only=tuple(x.strip() for x in args.members.split(",") if x.strip()))
        check_panel(config)
    except (ValueError, RulesError) as e:
        raise CliError(str(e)) from None
    return config


def run_panel_command(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """``--panel``: every pairing in turn; Ctrl-C keeps the pairings played (the last one partial)."""
    config = panel_config(args)
    played = _run(args, args.deals * len(config.pairings()), stderr, "panel", lambda progress: play_panel(
        config, runner=lambda arena: run_arena(arena, progress, ray_address=args.ray)))
    if played is None:
        return 1
    doc = panel_document(config, played)
    stdout.write(format_panel(doc))
    if args.json:
        try:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(doc, f, indent=1)
                f.write("\n")
        except OSError as e:
            raise CliError(f"cannot write {e.filename}: {e.strerror or e}") from None
    return INTERRUPTED if played.interrupted else 0


def _run(args: argparse.Namespace, total: int, stderr: TextIO, what: str,
         run: Callable[[Callable[[int], None] | None], T]) -> T | None:
    """``run`` given the progress bar's update of ``total`` deals (``None`` with ``--quiet``), SIGTERM stopping it as
    Ctrl-C does: what it returns, or ``None`` when a bot failed and stopped the ``what`` (said on ``stderr``).

    :raises CliError: for what the run refuses (a ``RuntimeError``: Ray missing or unreachable).
    """
    bar = None if args.quiet else _progress_bar(total, stderr)
    try:
        with _terminate_as_interrupt():
            return run(bar.update if bar is not None else None)
    except BotFailure as e:
        stderr.write(f"fiftysix arena: error: the {what} is stopped: {e}\n")
        return None
    except RuntimeError as e:
        raise CliError(str(e)) from None
    finally:
        if bar is not None:
            bar.close()


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """``kill PID`` (SIGTERM) stops a run as Ctrl-C does, keeping the deals played: a run started in the
    background by a script ignores SIGINT (POSIX shells start background jobs so), and SIGTERM is what is left.
    Outside the main thread (the library called from a thread) nothing is changed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


class _Bar:
    """A progress bar on standard error: tqdm when installed, else a plain counter line."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total, self.done, self.stream = total, 0, stream
        try:
            from tqdm import tqdm  # type: ignore[import-untyped,unused-ignore]

            self._tqdm: Any = tqdm(total=total, unit="deal", file=stream, dynamic_ncols=True)
        except ImportError:
            self._tqdm = None

    def update(self, n: int) -> None:
        self.done += n
        if self._tqdm is not None:
            self._tqdm.update(n)
        elif self.stream.isatty() or self.done == self.total:
            self.stream.write(f"\r{self.done}/{self.total} deals")
            self.stream.flush()

    def close(self) -> None:
        if self._tqdm is not None:
            self._tqdm.close()
        elif self.done:
            self.stream.write("\n")


def _progress_bar(total: int, stream: TextIO) -> _Bar:
    return _Bar(total, stream if stream is not None else sys.stderr)

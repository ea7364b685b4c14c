"""``fiftysix solve FILE``: the double-dummy value of every legal card at a record's current position
(the solving itself is :func:`fiftysix.analysis.solve_record`).

The record is replayed with :func:`fiftysix.records.read_deal`; it must be a deal record whose play has
started and not ended.  Values are card points (in 55: trick points and the bonus for the highest trump)
that the side to move can force from the cards still to be played, with every hand known.
"""

from __future__ import annotations

import argparse
from typing import TextIO

from ..analysis import SolveError, SolveResult, solve_record
from ..core.cards import Card
from ..games import GAMES
from .common import Io, RecordFileError, load_json, write_result

__all__ = ["SolveError", "add_parser", "format_result", "run", "solve_record", "solve_record_file"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("solve", help="the double-dummy value of every legal card at a record's position",
                       description="Replay a deal record to its current position and print, for every legal "
                                   "card of the seat to move, the points its side can force from the cards "
                                   "still to be played when every hand is known (double dummy). Exit status "
                                   "1 if the record is invalid or not in its play phase.")
    p.add_argument("file", metavar="FILE", help="a deal record (- for standard input)")
    p.add_argument("--engine", choices=("kernel", "reference"), default=None,
                   help="the search: kernel (numba, the default when installed) or reference (pure Python)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    p.add_argument("--ascii", action="store_true", help="cards as JS, TH instead of suit symbols")


def run(args: argparse.Namespace, io: Io) -> int:
    """Solve the record's position; returns the exit status (0 ok, 1 bad record or wrong phase)."""
    try:
        result = solve_record_file(args.file, io.stdin, args.engine)
    except SolveError as e:
        io.stderr.write(f"fiftysix solve: error: {e}\n")
        return 1
    write_result(result, args.json, args.ascii, io.stdout, format_result)
    return 0


def solve_record_file(path: str, stdin: TextIO | None = None, engine: str | None = None) -> SolveResult:
    """Read, replay and solve a record file.

    :raises SolveError: with a message for the user.
    """
    try:
        data = load_json(path, stdin)
    except RecordFileError as e:
        raise SolveError(str(e)) from None
    return solve_record(data, engine)


def format_result(r: SolveResult, symbols: bool = True) -> str:
    """The solve result as a table for people."""
    def show(text: str) -> str:
        return Card.parse(text).pretty if symbols else text

    side = GAMES[r["game"]].side_word
    trump = "no trumps" if r["trump"] is None else f"trumps {r['trump']}"
    if r["hidden_trump"]:
        trump = "hidden trump not turned up: solved as no trumps"
    lines = [f"{r['game']}, {trump}; seat {r['seat']} ({side} {r['team']}) to play"]
    if r["trick"]:
        lines.append(f"trick led by seat {r['leader']}: " + " ".join(show(c) for c in r["trick"]))
    else:
        lines.append(f"seat {r['leader']} leads to a new trick")
    taken = ", ".join(f"{side} {i}: {p}" for i, p in enumerate(r["points"]))
    lines.append(f"points taken: {taken}; {r['points_left']} still to play for")
    c = r.get("contract")
    if c is not None:
        verdict = "can still reach it" if c["can_reach"] else "can no longer reach it"
        lines.append(f"contract: {side} {c['team']} needs {c['value']} and {verdict} (double dummy)")
    lines.append("")
    lines.append(f"{'card':<6}{'value':>6}{'total':>7}")
    for entry in r["cards"]:
        mark = "  best" if entry["value"] == r["best"] else ""
        lines.append(f"{show(entry['card']):<6}{entry['value']:>6}{entry['total']:>7}{mark}")
    lines.append("")
    lines.append(f"value: points {side} {r['team']} can force from the cards still to be played; "
                 f"total: with the points it has taken")
    return "\n".join(lines) + "\n"

"""``fiftysix analyze FILE``: what every card played in a record cost against the double-dummy best
(the analysis itself is :func:`fiftysix.analysis.analyze_record`).

For each card of the play, the position just before it is solved with every hand known
(:func:`fiftysix.solver.card_values`): the card's value is the number of points its player's side can
still force after playing it (the current trick counted), the best value that of the best legal card,
and the cost the difference, in card points (in 55: trick points and the highest-trump bonus).  Like the
bridge analysis tools, a costly card is marked ``?`` (3 points or more lost) or ``??`` (6 or more).

Deal records and match records are read; a match record is analysed deal by deal.  While a hidden 56
trump is not turned up the solver plays as if at no trumps (it does not search ``?``), so those cards
are flagged as approximate.  Whole 6- or 8-player deals are slow to solve from the first trick on;
``--from-trick N`` skips the tricks before N.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any, TextIO

from ..analysis import BLUNDER, MISTAKE, AnalyzeError, analyze_record, mark
from ..games import GAMES
from .common import Io, RecordFileError, load_json, write_result
from .render import card_text

__all__ = ["BLUNDER", "MISTAKE", "AnalyzeError", "add_parser", "analyze_file", "analyze_record", "format_analysis",
           "mark", "run"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("analyze", help="what every card played in a record cost against the double-dummy best",
                       description="Replay a deal or match record and, for every card played, compare the "
                                   "points its side could still force after it (every hand known, double "
                                   f"dummy) with the best card at that moment. Cards that lose {MISTAKE} or "
                                   f"more points are marked ?, {BLUNDER} or more ??. Exit status 1 if the "
                                   "record is invalid.")
    p.add_argument("file", metavar="FILE", help="a deal or match record (- for standard input)")
    p.add_argument("--from-trick", type=int, default=1, metavar="N",
                   help="analyse from trick N on (whole 6- and 8-player deals are slow to solve from trick 1)")
    p.add_argument("--engine", choices=("kernel", "reference"), default=None,
                   help="the search: kernel (numba, the default when installed) or reference (pure Python)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the tables")
    p.add_argument("--ascii", action="store_true", help="cards as JS, TH instead of suit symbols")


def run(args: argparse.Namespace, io: Io) -> int:
    """Analyse the record; returns the exit status (0 ok, 1 bad record)."""
    if args.from_trick < 1:
        io.stderr.write("fiftysix analyze: error: --from-trick must be 1 or more\n")
        return 2
    try:
        result = analyze_file(args.file, io.stdin, args.engine, args.from_trick)
    except AnalyzeError as e:
        io.stderr.write(f"fiftysix analyze: error: {e}\n")
        return 1
    write_result(result, args.json, args.ascii, io.stdout, format_analysis)
    return 0


def analyze_file(path: str, stdin: TextIO | None = None, engine: str | None = None,
                 from_trick: int = 1) -> dict[str, object]:
    """Read and analyse a record file.

    :raises AnalyzeError: with a message for the user.
    """
    try:
        data = load_json(path, stdin)
    except RecordFileError as e:
        raise AnalyzeError(str(e)) from None
    return analyze_record(data, engine, from_trick)


# -- text ------------------------------------------------------------------------------------------------

def format_analysis(result: Mapping[str, Any], symbols: bool = True) -> str:
    """The analysis as tables for people: one block per trick, then a summary per seat."""
    blocks = [_format_deal(d, symbols) for d in result["deals"]]
    return "\n".join(blocks)


def _format_deal(d: Mapping[str, Any], symbols: bool) -> str:
    side = GAMES[d["game"]].side_word
    lines: list[str] = []
    head = f"deal {d['deal_number']}: " if "deal_number" in d else ""
    c = d.get("contract")
    if c is not None:
        strain = c.get("strain") or c.get("trump") or "?"
        who = c.get("declarer", c.get("bidder"))
        lines.append(f"{head}{d['game']}, contract {c['value']} {strain} by seat {who} ({side} {c['team']})")
    else:
        lines.append(f"{head}{d['game']}")
    par = d.get("par")
    if par is not None:
        verdict = "could make it" if par["can_reach"] else "could not make it"
        lines.append(f"double dummy from trick {par['trick']}: {side} {par['team']} needing {par['value']} "
                     f"{verdict}")
    lines.append(f"value: the points the card's {side} ends with after it when every hand is known and play "
                 f"is best (double dummy); best: after the best card; ? loses {MISTAKE} or more, ?? {BLUNDER} "
                 "or more")
    trick = None
    for e in d["cards"]:
        if e["trick"] != trick:
            trick = e["trick"]
            lines.append("")
            lines.append(f"trick {trick}" + (" (hidden trump: solved as no trumps)" if e["approximate"] else ""))
            lines.append(f"  {'seat':<6}{'card':<6}{'value':>6}{'best':>6}{'cost':>6}  best cards")
        shown = card_text(e["card"], symbols)
        best = " ".join(card_text(x, symbols) for x in e["best_cards"]) if e["cost"] else ""
        cost = f"-{e['cost']}" if e["cost"] else ""
        total, best_total = e["taken"] + e["value"], e["taken"] + e["best"]
        lines.append(f"  {e['seat']:<6}{shown:<6}{total:>6}{best_total:>6}{cost:>6} {e['mark']:<2} {best}".rstrip())
    lines.append("")
    lines.append(f"{'seat':<6}{side:<6}{'cards':>6}{'lost':>6}{'mean':>7}{'exact':>7}{'?':>4}{'??':>4}")
    for s in d["seats"]:
        lines.append(f"{s['seat']:<6}{s['team']:<6}{s['cards']:>6}{s['cost']:>6}{s['mean_cost']:>7.2f}"
                     f"{s['exact']:>7}{s['mistakes']:>4}{s['blunders']:>4}")
    res = d.get("result") or {}
    if res.get("complete"):
        made = res.get("made")
        made_text = "" if made is None else ("; contract made" if made else "; contract failed")
        lines.append(f"points: {', '.join(f'{side} {i}: {p}' for i, p in enumerate(res['points']))}{made_text}")
    return "\n".join(lines) + "\n"

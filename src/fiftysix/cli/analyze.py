"""``fiftysix analyze FILE``: what every card played in a record cost against the double-dummy best.

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
import json
from collections.abc import Mapping
from typing import Any, TextIO

from ..core.cards import Card
from ..core.deal import PLAY
from ..core.errors import RecordError
from ..records import read_deal
from .common import RecordFileError, load_json, write_result
from .render import card_text

MISTAKE = 3
"""Points lost for a ``?``."""
BLUNDER = 6
"""Points lost for a ``??``."""


class AnalyzeError(Exception):
    """A record that cannot be analysed: unreadable, invalid, or without any card played."""


def add_parser(sub: Any) -> None:
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


def run(args: argparse.Namespace, stdin: TextIO, out: TextIO, err: TextIO) -> int:
    """Analyse the record; returns the exit status (0 ok, 1 bad record)."""
    if args.from_trick < 1:
        err.write("fiftysix analyze: error: --from-trick must be 1 or more\n")
        return 2
    try:
        result = analyze_file(args.file, stdin, args.engine, args.from_trick)
    except AnalyzeError as e:
        err.write(f"fiftysix analyze: error: {e}\n")
        return 1
    write_result(result, args.json, args.ascii, out, format_analysis)
    return 0


def analyze_file(path: str, stdin: TextIO | None = None, engine: str | None = None,
                 from_trick: int = 1) -> dict[str, Any]:
    """Read and analyse a record file.

    :raises AnalyzeError: with a message for the user.
    """
    try:
        data = load_json(path, stdin)
    except RecordFileError as e:
        raise AnalyzeError(str(e)) from None
    return analyze_record(data, engine, from_trick)


def analyze_record(data: object, engine: str | None = None, from_trick: int = 1) -> dict[str, Any]:
    """The analysis of a deal record (``{"deals": [one]}`` shape for a match record).

    :raises AnalyzeError: if the record is invalid or no card has been played.
    """
    if isinstance(data, Mapping) and "deals" in data:
        return _analyze_match(data, engine, from_trick)
    start, deal = _replay(data, None, None)
    if not _has_cards(deal):
        raise AnalyzeError("no card has been played in this record; nothing to analyse")
    return {"deals": [analyze_deal(start, deal, engine, from_trick)]}


def _analyze_match(data: Mapping[str, Any], engine: str | None, from_trick: int) -> dict[str, Any]:
    from ..games import GAMES

    name = data.get("game")
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise AnalyzeError(f'invalid record (game): game must be "55" or "56", not {json.dumps(data.get("game"))}')
    deals = data.get("deals")
    if not isinstance(deals, list):
        raise AnalyzeError("invalid record (deals): deals must be a list of deal records")
    try:
        rules = game.rules_from_json(data.get("rules"))
    except Exception as e:  # noqa: BLE001 - a rules error of any kind is reported as such
        raise AnalyzeError(f"invalid record (rules): {e}") from None
    first = deals[0].get("dealer") if deals and isinstance(deals[0], Mapping) else 0
    first = first if isinstance(first, int) and not isinstance(first, bool) and 0 <= first < rules.players else 0
    match = game.new_match(rules, first_dealer=first)
    out = []
    for i, record in enumerate(deals):
        if match.over:
            raise AnalyzeError(f"invalid record (deals[{i}]): the match is already over")
        start, deal = _replay(record, match, i)
        if _has_cards(deal):
            out.append({"deal_number": i, **analyze_deal(start, deal, engine, from_trick)})
        if deal.is_over:
            match.finish(deal)
        elif i < len(deals) - 1:
            raise AnalyzeError(f"invalid record (deals[{i}]): this deal is unfinished but another deal follows")
    if not out:
        raise AnalyzeError("no card has been played in this record; nothing to analyse")
    return {"deals": out}


def _replay(data: object, match: Any | None, number: int | None) -> tuple[Any, Any]:
    """The deal at the start of its play and the deal as the record leaves it."""
    where = "" if number is None else f"deals[{number}]."
    try:
        deal = read_deal(data, match)
        assert isinstance(data, Mapping)
        start = read_deal({**data, "play": []}, match)
    except RecordError as e:
        at = e.field if e.index is None else f"{e.field}[{e.index}]"
        raise AnalyzeError(f"invalid record ({where}{at}): {e.message}") from None
    return start, deal


def _has_cards(deal: Any) -> bool:
    return any(isinstance(m, Card) for _, m in _play_tail(deal))


def _play_tail(deal: Any) -> list[tuple[int, Any]]:
    from ..core.moves import Call, Discard, TrumpChoice

    tail: list[tuple[int, Any]] = []
    for seat, m in reversed(deal.history):
        if isinstance(m, (Call, Discard, TrumpChoice)):
            break
        tail.append((seat, m))
    tail.reverse()
    return tail


def analyze_deal(start: Any, deal: Any, engine: str | None = None, from_trick: int = 1) -> dict[str, Any]:
    """Solve the position before every card played in ``deal`` (replayed from ``start``)."""
    from ..solver import Position, PositionError, can_reach, card_values

    team_of = list(start.rules.team_of) if start.game == "56" else list(start.rules.side_of)
    cards_out: list[dict[str, Any]] = []
    par: dict[str, Any] | None = None
    now = start
    for seat, move in _play_tail(deal):
        if not isinstance(move, Card) or now.phase != PLAY:
            now.push(move)
            continue
        trick = len(now.tricks) + 1
        if trick >= from_trick:
            try:
                pos = Position.from_deal(now)
            except PositionError as e:
                raise AnalyzeError(f"cannot analyse this deal: {e}") from None
            values = card_values(pos, engine=engine)
            best = max(values.values())
            value = values[move]
            cost = best - value
            team = team_of[seat]
            contract = getattr(now, "contract", None)
            if par is None and contract is not None and getattr(contract, "team", None) is not None:
                par = {"trick": trick, "team": contract.team, "value": contract.value,
                       "can_reach": can_reach(pos, contract.team, contract.value, engine=engine)}
            cards_out.append({
                "trick": trick, "seat": seat, "team": team, "card": str(move), "value": value, "best": best,
                "best_cards": [str(c) for c in now.sort_hand([c for c, v in values.items() if v == best])],
                "cost": cost, "mark": mark(cost), "taken": pos.points[team],
                "approximate": now.game == "56" and not now.revealed,
            })
        now.push(move)
    return {
        "game": deal.game,
        "players": deal.n,
        "team_of": team_of,
        "contract": _contract_json(deal),
        "from_trick": from_trick,
        "par": par,
        "cards": cards_out,
        "seats": _seat_summary(cards_out, deal.n, team_of),
        "result": {"points": list(deal.points), "made": deal.made() if hasattr(deal, "made") else None,
                   "complete": deal.is_over},
    }


def mark(cost: int) -> str:
    """``??`` for a blunder, ``?`` for a mistake, ``""`` otherwise."""
    return "??" if cost >= BLUNDER else "?" if cost >= MISTAKE else ""


def _contract_json(deal: Any) -> dict[str, Any] | None:
    contract = getattr(deal, "contract", None)
    if contract is None:
        return None
    out: dict[str, Any] = dict(contract.to_json())
    return out


def _seat_summary(cards: list[dict[str, Any]], n: int, team_of: list[int]) -> list[dict[str, Any]]:
    out = []
    for seat in range(n):
        mine = [c for c in cards if c["seat"] == seat]
        lost = sum(c["cost"] for c in mine)
        out.append({"seat": seat, "team": team_of[seat], "cards": len(mine), "cost": lost,
                    "mean_cost": round(lost / len(mine), 2) if mine else 0.0,
                    "exact": sum(1 for c in mine if c["cost"] == 0),
                    "mistakes": sum(1 for c in mine if c["mark"] == "?"),
                    "blunders": sum(1 for c in mine if c["mark"] == "??")})
    return out


# -- text ------------------------------------------------------------------------------------------------

def format_analysis(result: Mapping[str, Any], symbols: bool = True) -> str:
    """The analysis as tables for people: one block per trick, then a summary per seat."""
    blocks = [_format_deal(d, symbols) for d in result["deals"]]
    return "\n".join(blocks)


def _format_deal(d: Mapping[str, Any], symbols: bool) -> str:
    side = "team" if d["game"] == "56" else "side"
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

"""Analysis of records with the double-dummy solver: what every card played cost (:func:`analyze_record`)
and the value of every legal card at a record's position (:func:`solve_record`).

For each card of the play, the position just before it is solved with every hand known
(:func:`fiftysix.solver.card_values`): the card's value is the number of points its player's side can
still force after playing it (the current trick counted), the best value that of the best legal card,
and the cost the difference, in card points (in 55: trick points and the highest-trump bonus).  Like the
bridge analysis tools, a costly card is marked ``?`` (3 points or more lost) or ``??`` (6 or more).
Where the game says the solver's view is approximate (56: a hidden trump not turned up is solved as no
trumps, :attr:`fiftysix.games.spec.PlayState.approximate`), the cards are flagged so.

The command line's ``fiftysix analyze`` and ``fiftysix solve`` print these results.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import NotRequired, TypedDict

from .core.cards import Card
from .core.deal import PLAY, Deal
from .core.errors import RecordError
from .core.meaning import N_
from .core.moves import Call, Discard, Move, TrumpChoice
from .games import GAMES
from .games.spec import MatchLike
from .records import read_deal
from .solver import Position, PositionError, can_reach, card_values

MISTAKE = 3
"""Points lost for a ``?``."""
BLUNDER = 6
"""Points lost for a ``??``."""


class CardCost(TypedDict):
    """One card of the play in an analysis: its value against the best, and its mark."""

    trick: int
    seat: int
    team: int
    card: str
    value: int
    best: int
    best_cards: list[str]
    cost: int
    mark: str
    taken: int
    approximate: bool


class CardValue(TypedDict):
    """A legal card at a solved position: the points its side can force after it, and with those taken."""

    card: str
    value: int
    total: int


class Reach(TypedDict):
    """Whether the contract's team can still make it."""

    team: int
    value: int
    can_reach: bool


class SolveResult(TypedDict):
    """What ``fiftysix solve`` prints for a record's position."""

    game: str
    seat: int
    team: int
    trump: str | None
    hidden_trump: bool
    trick: list[str]
    leader: int
    points: list[int]
    points_left: int
    best: int
    cards: list[CardValue]
    contract: NotRequired[Reach]


NO_PLAY = N_("no card has been played in this record; nothing to analyse")


class AnalyzeError(Exception):
    """A record that cannot be analysed: unreadable, invalid, or without any card played."""


class SolveError(Exception):
    """A record that cannot be solved: unreadable, invalid, or not in its play phase."""


def analyze_record(data: object, engine: str | None = None, from_trick: int = 1) -> dict[str, object]:
    """The analysis of a deal record (``{"deals": [one]}`` shape for a match record).

    :raises AnalyzeError: if the record is invalid or no card has been played.
    """
    if isinstance(data, Mapping) and "deals" in data:
        return _analyze_match(data, engine, from_trick)
    start, deal = _replay(data, None, None)
    if not _has_cards(deal):
        raise AnalyzeError(NO_PLAY)
    return {"deals": [analyze_deal(start, deal, engine, from_trick)]}


def _analyze_match(data: Mapping[str, object], engine: str | None, from_trick: int) -> dict[str, object]:
    name = data.get("game")
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        games = " or ".join(f'"{g}"' for g in sorted(GAMES))
        raise AnalyzeError(f'invalid record (game): game must be {games}, not {json.dumps(data.get("game"))}')
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
        raise AnalyzeError(NO_PLAY)
    return {"deals": out}


def _replay(data: object, match: MatchLike | None, number: int | None) -> tuple[Deal, Deal]:
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


def _has_cards(deal: Deal) -> bool:
    return any(isinstance(m, Card) for _, m in _play_tail(deal))


def _play_tail(deal: Deal) -> list[tuple[int, Move]]:
    tail: list[tuple[int, Move]] = []
    for seat, m in reversed(deal.history):
        if isinstance(m, (Call, Discard, TrumpChoice)):
            break
        tail.append((seat, m))
    tail.reverse()
    return tail


def analyze_deal(start: Deal, deal: Deal, engine: str | None = None, from_trick: int = 1) -> dict[str, object]:
    """Solve the position before every card played in ``deal`` (replayed from ``start``)."""
    game = GAMES[start.game]
    team_of = list(start.rules.team_of)
    cards_out: list[CardCost] = []
    par: dict[str, object] | None = None
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
                "approximate": game.play_state(now).approximate,
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
        "result": {"points": list(getattr(deal, "points", [])), "made": getattr(deal, "made", lambda: None)(),
                   "complete": deal.is_over},
    }


def mark(cost: int) -> str:
    """``??`` for a blunder, ``?`` for a mistake, ``""`` otherwise."""
    return "??" if cost >= BLUNDER else "?" if cost >= MISTAKE else ""


def _contract_json(deal: Deal) -> dict[str, object] | None:
    contract = getattr(deal, "contract", None)
    if contract is None:
        return None
    out: dict[str, object] = dict(contract.to_json())
    return out


def _seat_summary(cards: list[CardCost], n: int, team_of: list[int]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for seat in range(n):
        mine = [c for c in cards if c["seat"] == seat]
        lost = sum(c["cost"] for c in mine)
        out.append({"seat": seat, "team": team_of[seat], "cards": len(mine), "cost": lost,
                    "mean_cost": round(lost / len(mine), 2) if mine else 0.0,
                    "exact": sum(1 for c in mine if c["cost"] == 0),
                    "mistakes": sum(1 for c in mine if c["mark"] == "?"),
                    "blunders": sum(1 for c in mine if c["mark"] == "??")})
    return out


def solve_record(data: object, engine: str | None = None) -> SolveResult:
    """The values of every legal card at the position a deal record leaves.

    :raises SolveError: if the record is invalid or its deal is not in the play phase.
    """
    if isinstance(data, Mapping) and "deals" in data:
        raise SolveError("this is a match record; solve takes a deal record (one entry of its deals)")
    try:
        deal = read_deal(data)
    except RecordError as e:
        where = e.field if e.index is None else f"{e.field}[{e.index}]"
        raise SolveError(f"invalid record ({where}): {e.message}") from None
    try:
        pos = Position.from_deal(deal)
    except PositionError as e:
        raise SolveError(f"nothing to solve: {e}") from None
    values = card_values(pos, engine=engine)
    team = pos.team_to_move
    taken = pos.points[team]
    order = sorted(deal.sort_hand(list(values)), key=lambda c: -values[c])
    result: SolveResult = {
        "game": deal.game,
        "seat": pos.to_move,
        "team": team,
        "trump": None if pos.trump is None else pos.trump.letter,
        "hidden_trump": GAMES[deal.game].play_state(deal).approximate,
        "trick": [str(c) for c in pos.trick],
        "leader": pos.leader,
        "points": list(pos.points),
        "points_left": pos.points_left(),
        "best": max(values.values()),
        "cards": [{"card": str(c), "value": values[c], "total": taken + values[c]} for c in order],
    }
    contract = getattr(deal, "contract", None)
    if contract is not None:
        value = getattr(contract, "value", None)
        cteam = getattr(contract, "team", None)
        if isinstance(value, int) and isinstance(cteam, int):
            result["contract"] = {"team": cteam, "value": value,
                                  "can_reach": can_reach(pos, cteam, value, engine=engine)}
    return result

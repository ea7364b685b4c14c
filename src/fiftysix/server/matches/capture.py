"""What a finished deal and a finished match leave for history and ratings, read from a table's state right
after the event that finished them (pure: the store writes it in that event's transaction)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TypedDict

from ..state.table import MATCH_OVER, TableState


@dataclass(frozen=True)
class MatchEnd:
    """A finished match: enough to rate it and list it, with the deals' facts read from ``deal_seats``."""

    id: str                     # "<code>/<match number>": the exactly-once key
    code: str
    match_no: int
    game: str
    preset: str
    first_deal: int
    last_deal: int
    team_of: tuple[int, ...]    # table seat -> team (55 without teams: each seat its own side)
    ranks: tuple[int, ...]      # team -> place (0 won; ties share a place)
    standings: tuple[int, ...]  # team -> tables (56) or points (55) at the end
    start: tuple[int, ...]      # team -> standings when the match began
    finished: int               # unix seconds
    names: tuple[tuple[str, str], ...] = ()    # (player id, the name they had at this table)
    rated: bool = True          # False: a club night's table, whose event is rated once as a whole


class DealFacts(TypedDict):
    """Who played a finished deal and how it went: stored as JSON in ``deal_seats.facts``."""

    match_no: int
    people: list[str | None]        # table seat -> the person who played it (None: a computer, or out)
    bots: list[str | None]          # table seat -> the computer player that played it
    played: list[int]               # the table seats that played the deal
    declarer: int | None            # the declarer's table seat
    form: str | None                # 56: the winning bid's form ("number-suit")
    made: bool | None
    standings: list[int]


def match_id(code: str, match_no: int) -> str:
    return f"{code}/{match_no}"


def deal_facts(state: TableState, played: list[int]) -> DealFacts:
    """The finished deal's people, computer players, contract and standings; ``played``: the table seats
    that played it (read before the event, since a 56 team that ran out leaves the next deal)."""
    finished = state.last_finished
    assert finished is not None and state.match is not None
    people: list[str | None] = [state.seers[i] if i < len(state.seers) else None for i in range(len(state.seats))]
    bots = [None if people[i] is not None or i not in played
            else state.seats[i].bot or state.fill or "random" for i in range(len(state.seats))]
    declarer, form = _contract(state, finished.result, finished.record, played)
    made = finished.result.get("made")
    return {"match_no": finished.match_no, "people": [p if i in played else None for i, p in enumerate(people)],
            "bots": bots, "played": played, "declarer": declarer, "form": form,
            "made": bool(made) if declarer is not None and made is not None else None,
            "standings": list(state.match.standings)}


def _contract(state: TableState, result: dict[str, object], record: dict[str, object],
              played: list[int]) -> tuple[int | None, str | None]:
    """The declarer's table seat and, in 56, the form of the winning bid (``28H`` is "number-suit")."""
    contract = result.get("contract")
    if not isinstance(contract, dict):
        return None, None
    seat = contract.get("declarer", contract.get("bidder"))
    if not isinstance(seat, int) or not 0 <= seat < len(played):
        return None, None
    auction = record.get("auction")
    texts = [a for a in auction if isinstance(a, str)] if isinstance(auction, list) else []
    return played[seat], state.game.winning_form(texts, state.rules)

def match_end(state: TableState) -> MatchEnd | None:
    """The match that the last event finished, or ``None`` (call right after a deal finished)."""
    match = state.match
    span = state.match_deals(state.match_no)
    if state.status != MATCH_OVER or match is None or span is None:
        return None
    rules = state.rules
    team_of = tuple(int(t) for t in rules.team_of)
    standings = tuple(int(s) for s in match.standings)
    start = tuple(int(s) for s in state.game.new_match(rules, first_dealer=0, seed=0).standings)
    return MatchEnd(match_id(state.code, state.match_no), state.code, state.match_no, state.game.name,
                    str(getattr(rules, "preset", "") or state.game.name), span[0], span[1], team_of,
                    places(standings, match.winner), standings, start, int(time.time()),
                    tuple(sorted(state.players.items())), state.rated)


def places(standings: tuple[int, ...], winner: int | None) -> tuple[int, ...]:
    """Each team's place: the winner first (0), the others by standings, ties sharing a place."""
    order = sorted({s for t, s in enumerate(standings) if t != winner}, reverse=True)
    first = 0 if winner is None else 1
    return tuple(0 if t == winner else first + order.index(s) for t, s in enumerate(standings))

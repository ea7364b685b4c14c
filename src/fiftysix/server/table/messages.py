"""What the server sends to one connection: the table's public facts plus that viewer's own view.

The only game data in a message is :func:`fiftysix.views.view` for the viewer's own seat: the seat they
sit in, and during a deal only if they held it when the deal started (:meth:`TableState.may_see`);
``None`` for a spectator or a player whose team is out.  Everything else here is public: names, seats,
scores, the results of finished deals.

No message grows with the table's age: the table's facts carry the number of finished deals and the
latest one; the history of finished deals comes once, on ``state`` (the last
:data:`~fiftysix.server.state.table.RECENT_DEALS`), and older pages from ``GET /api/tables/CODE/deals?before=N``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal, TypedDict

from ...core.cards import Card
from ...core.deal import Deal
from ...core.moves import Call
from ...games.observation import Observation, SeatView
from ..state.table import TableState
from .clock import ClockInfo, ClockNow, clock_message

SPECTATOR_NAMES = 20
"""Spectators named in a message (the count is always sent)."""


@dataclass
class Presence:
    """Who is connected now and which dropped seats a computer player covers (not in the log)."""

    online: set[str] = field(default_factory=set)          # player ids with an open connection
    covered: set[str] = field(default_factory=set)         # dropped players whose seat a bot plays for now
    clock: ClockInfo | None = None                  # the turn clock now (server/table/clock.py), if any


@cache
def level_of(game: str, bot: str | None) -> str | None:
    """The level (beginner, club, expert) a bot plays at in ``game``, for the page's words; None for others."""
    from ...bots.levels import levels_for

    return next((level for level, name in levels_for(game).items() if name == bot), None)


class PlayerSeat(TypedDict):
    seat: int
    kind: Literal["player"]
    name: str
    online: bool
    covered: bool       # a computer player plays it while its person is away
    host: bool


class BotSeat(TypedDict):
    seat: int
    kind: Literal["bot"]
    name: str
    bot: str
    level: str | None


class EmptySeat(TypedDict):
    seat: int
    kind: Literal["empty"]
    name: None


class EventInfo(TypedDict):
    """A club night's table: see :func:`event_info`."""

    night: str
    board: int
    boards: int
    last: bool
    standings: str


class MatchInfo(TypedDict):
    number: int
    deal_number: int
    standings: list[int]
    team_seats: list[list[int]]
    scoring: str
    over: bool
    winner: int | None
    end_reason: str | None


class TableInfo(TypedDict):
    """The public face of a table (every viewer's the same)."""

    code: str
    version: int
    name: str
    game: str
    side_word: str
    rules: object               # the rules' JSON as the game writes it
    rules_short: object
    host_name: str
    fill: str | None
    fill_level: str | None
    add_bot: str | None         # what "Add computer" seats when the table has no fill
    replacing: list[int]        # seats the host gave a computer from the next deal
    claimed: list[int]          # computers' seats a person takes from the next deal
    grace: object
    status: str
    private: bool
    seats: list[PlayerSeat | BotSeat | EmptySeat]
    offered: list[int]
    deal_seats: object
    teams: list[int]
    match_teams: list[int]
    seat_teams: list[int]
    spectators: list[str]       # the first SPECTATOR_NAMES names
    spectator_count: int
    match: MatchInfo | None
    deals_count: int
    last_deal: object           # the latest finished deal's summary (server/state/finished.py)
    matches: int
    host_seat: int | None
    paused: bool
    clock: object               # the table's clock rule, if any
    banks: object
    turn_clock: ClockNow | None
    event: EventInfo | None


class You(TypedDict, total=False):
    """The viewer: who they are at this table (``key``: the host's, at a private table)."""

    player: str | None
    name: str | None
    joined: bool
    seat: int | None
    deal_seat: int | None
    waiting: bool       # a computer player plays this seat until the deal ends
    claimed: int | None     # the computer's seat this viewer takes from the next deal (one tap to a game)
    host: bool
    key: str | None


class PublicEvent(TypedDict, total=False):
    """What everyone may know of an event: its kind and who made it (see :func:`public_event`)."""

    kind: object
    seat: object
    a: object
    b: object
    bot: object
    timeout: object
    name: str | None


class Snapshot(TypedDict, total=False):
    """A full message to one viewer: ``state`` (with ``deals``) or ``event`` (with ``event``)."""

    type: Literal["state", "event"]
    version: int
    table: TableInfo
    you: You
    view: SeatView | None
    movers: dict[str, list[int]] | None
    legal_moves: list[object] | None
    suggested: list[str]
    event: PublicEvent
    deals: list[object]
    applied: list[str]      # on a full state after a reconnect: the move ids of the viewer's that were applied


def _seat_info(state: TableState, presence: Presence, i: int) -> PlayerSeat | BotSeat | EmptySeat:
    seat = state.seats[i]
    if seat.player is not None:
        return PlayerSeat(seat=i, kind="player", name=state.players.get(seat.player, "?"),
                          online=seat.player in presence.online, covered=seat.player in presence.covered,
                          host=seat.player == state.host)
    if seat.bot is not None:
        return BotSeat(seat=i, kind="bot", name=f"Bot {i}", bot=seat.bot, level=level_of(state.game.name, seat.bot))
    return EmptySeat(seat=i, kind="empty", name=None)


def table_info(state: TableState, presence: Presence) -> TableInfo:
    """The public face of a table."""
    from ...bots.levels import club_bot  # the bots with the first table, not at the server's start

    match = state.match
    deal_rules = match.deal_rules if match is not None else state.rules
    seated = {seat.player for seat in state.seats if seat.player is not None}
    watching = sorted(name for pid, name in state.players.items() if pid in presence.online and pid not in seated)
    return TableInfo(
        code=state.code,
        version=state.version,
        name=state.name,
        game=state.game.name,
        side_word=state.game.side_word,
        rules=state.game.rules_to_json(state.rules, full=True),
        rules_short=state.game.rules_to_json(state.rules),
        host_name=state.players.get(state.host, "?"),
        fill=state.fill,
        fill_level=level_of(state.game.name, state.fill),
        add_bot=club_bot(state.game.name),
        replacing=sorted(state.replacing),
        claimed=sorted(state.claims),
        grace=state.grace,
        status=state.status,
        private=state.private,
        seats=[_seat_info(state, presence, i) for i in range(len(state.seats))],
        offered=sorted(state.offered) if state.status == "playing" else [],
        deal_seats=state.deal_seats(),
        teams=list(deal_rules.team_of),
        match_teams=match_teams(match, deal_rules),
        seat_teams=list(state.rules.team_of),
        spectators=watching[:SPECTATOR_NAMES],
        spectator_count=len(watching),
        match=_match_info(state),
        deals_count=state.deals_count,
        last_deal=state.recent_deals[-1] if state.recent_deals else None,
        matches=_matches_with_deals(state),
        host_seat=state.seat_of(state.host),
        paused=state.paused,
        clock=state.clock,
        banks=state.banks if state.clock else None,
        turn_clock=clock_message(presence.clock),
        event=event_info(state),
    )


def event_info(state: TableState) -> EventInfo | None:
    """A club night's table: the event, the board being played or last finished (the table's deal k is board
    k), the event's boards and where its standings are (the club page); ``None`` at any other table."""
    if state.night is None or state.boards is None:
        return None
    playing = state.status == "playing"
    board = min(state.boards, state.deals_count + 1 if playing else max(1, state.deals_count))
    # today's deals' tables are events named "daily:DAY:SET" (server/daily): their standings are /daily
    standings = "/daily" if state.night.startswith("daily:") else f"/club#n={state.night}"
    return EventInfo(night=state.night, board=board, boards=state.boards, last=state.deals_count >= state.boards,
                     standings=standings)


def _matches_with_deals(state: TableState) -> int:
    """How many matches have a finished deal (their records can be downloaded)."""
    starts = state.match_starts
    return len(starts) if starts and starts[-1] <= state.deals_count else max(0, len(starts) - 1)


def match_teams(match: Any, deal_rules: Any) -> list[int]:
    """For each team of the current deal, its team in the match: after a 56 team is out the survivors are
    renumbered for the deal, while standings, colours and names follow the match's teams."""
    teams = range(deal_rules.n_teams)
    return list(teams) if match is None else [match.team_of_current(t) for t in teams]


def _match_info(state: TableState) -> MatchInfo | None:
    match = state.match
    if match is None:
        return None
    team_seats: dict[int, list[int]] = {}
    for seat, team in enumerate(state.rules.team_of):
        team_seats.setdefault(team, []).append(seat)
    return MatchInfo(
        number=state.match_no,
        deal_number=match.deal_number if state.status == "playing" else match.deal_number - 1,
        standings=list(match.standings),
        team_seats=[team_seats[t] for t in sorted(team_seats)],
        scoring=getattr(state.rules, "scoring", "points"),
        over=match.over,
        winner=match.winner,
        end_reason=match.end_reason,
    )


def you(state: TableState, player: str | None) -> You:
    seat = state.seat_of(player)
    own = state.own_seat(player)
    host = player is not None and player == state.host
    out = You(
        player=player,
        name=state.players.get(player) if player is not None else None,
        joined=player in state.players if player is not None else False,
        seat=seat,
        deal_seat=state.deal_seat(own) if own is not None and state.match is not None else None,
        waiting=seat is not None and own is None,
        claimed=next((s for s, who in state.claims.items() if who == player), None) if player is not None else None,
        host=host,
    )
    if host and state.private:
        out["key"] = state.secret   # the host's page copies the link with it
    return out


def seat_view(state: TableState, player: str | None) -> SeatView | None:
    """The viewer's view of the current (or just finished) deal: their own seat's, or a spectator's."""
    seen = seat_observation(state, player)
    return seen.to_json() if seen is not None else None


def seat_observation(state: TableState, player: str | None) -> Observation | None:
    """What the viewer knows of the current (or just finished) deal, built from the deal (the view is its JSON)."""
    if state.deal is None:
        return None
    return state.game.observation(state.deal, state.deal_seat(state.own_seat(player)), state.match)


def snapshot(state: TableState, presence: Presence, player: str | None,
             event: Mapping[str, object] | None = None, info: TableInfo | None = None) -> Snapshot:
    """A full message for one viewer: ``state`` (on connect, with the recent finished deals) or ``event``
    (after each change).  ``info``: the table's facts when already made for this version (shared by all
    viewers)."""
    seen = seat_observation(state, player)     # once: the message's view and the call suggested from it
    msg = Snapshot(
        type="event" if event is not None else "state",
        version=state.version,
        table=info if info is not None else table_info(state, presence),
        you=you(state, player),
        view=seen.to_json() if seen is not None else None,
        movers=movers(state.deal) if state.deal is not None else None,
        legal_moves=legal_moves(state, player),
        suggested=suggested_calls(state, player, seen),
    )
    if event is not None:
        msg["event"] = public_event(state, event)
    else:
        msg["deals"] = list(state.recent_deals)
    return msg


def legal_moves(state: TableState, player: str | None) -> list[object] | None:
    """The viewer's legal moves as ``{move, kind, suit, label}`` objects built by the game (the view's
    ``legal`` strings, structured so that the page need not parse notation); ``None`` when not its turn."""
    deal = state.deal
    if deal is None or deal.is_over:
        return None
    seat = state.deal_seat(state.own_seat(player))     # a seat's moves go only to who may see its hand
    if seat is None or seat != deal.to_move:
        return None
    return [m.to_json() for m in state.game.legal_moves(deal)]


def suggested_calls(state: TableState, player: str | None, seen: Observation | None) -> list[str]:
    """The calls the viewer's hand supports, when it is their call: what the game's rule-of-thumb player would
    call from what they know, ``seen`` (the page offers it above the full list of bids).  Empty at any other
    time."""
    deal = state.deal
    if seen is None or deal is None or deal.is_over or state.paused or seen.phase != "auction":
        return []
    if state.deal_seat(state.own_seat(player)) != deal.to_move:
        return []
    from ...bots import make_bot

    call = make_bot("rules", 0, state.game.name).choose(seen)
    return [call] if call in (seen.legal or ()) else []


def movers(deal: Deal) -> dict[str, list[int]]:
    """Who made each call and who played each card of the deal so far (public at any table), in deal seats."""
    calls, cards = [], []
    for seat, move in deal.history:
        if isinstance(move, Call):
            calls.append(seat)
        elif isinstance(move, Card):
            cards.append(seat)
    return {"auction": calls, "play": cards}


def public_event(state: TableState, event: Mapping[str, object]) -> PublicEvent:
    """What everyone may know about an event (as stored): its kind and who made it, never a move's text
    (a hidden trump choice or a closed discard is secret; the views show what may be seen)."""
    out = PublicEvent(kind=event["kind"])
    if "seat" in event:
        out["seat"] = event["seat"]
    if "a" in event:
        out["a"], out["b"] = event["a"], event.get("b")
    if "bot" in event:
        out["bot"] = event["bot"]
    if "timeout" in event:
        out["timeout"] = event["timeout"]
    if "player" in event:
        out["name"] = state.players.get(str(event["player"]))
    return out

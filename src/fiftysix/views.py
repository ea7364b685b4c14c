"""Seat views (``docs/spec/views-and-bots.md``): the only thing that leaves the rules for a player.

:func:`view` is the one function that decides what a seat may see.  It builds the view from public
facts plus that seat's own hand; the game adds its own fields through its ``view_extra``, already
filtered for the seat.  A spectator (``seat=None``) sees public information only.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from .core.deal import OVER, PLAY, Deal, DealResult
from .core.moves import Call
from .core.tricks import TrickJSON
from .games import GAMES
from .games.spec import MatchLike


class TrickView(TypedDict):
    """The trick being played: who led and the cards so far."""

    leader: int
    cards: list[str]


class SeatView(TypedDict):
    """A view as JSON-ready data: the fields of ``views-and-bots.md`` (the game's own fields not required)."""

    game: str
    rules: object   # the rules as JSON (rules_to_json, full)
    seat: int | None
    dealer: int
    to_move: int | None
    phase: str
    hand: list[str] | None
    hand_sizes: list[int]
    auction: list[str]
    auction_meanings: list[str]
    contract: dict[str, object] | None
    tricks: list[TrickJSON]
    trick: TrickView | None
    points: list[int]
    match: dict[str, object] | None
    legal: NotRequired[list[str]]
    result: NotRequired[DealResult]
    trump: NotRequired[str | None]
    trump_hidden: NotRequired[bool]
    declarer: NotRequired[int | None]
    kitty_size: NotRequired[int]
    bidder: NotRequired[int | None]
    discard: NotRequired[list[str] | None]
    highest_trump: NotRequired[dict[str, object] | None]


def view(deal: Deal, seat: int | None, match: MatchLike | None = None) -> SeatView:
    """What ``seat`` may know now, as JSON-ready data (``seat=None``: a spectator).

    :param match: the match the deal belongs to, for the ``match`` field (scores, deal number).
    """
    if seat is not None and not 0 <= seat < deal.n:
        raise ValueError(f"seat must be 0-{deal.n - 1} or None, not {seat}")
    game = GAMES[deal.game]
    calls = [(s, m) for s, m in deal.history if isinstance(m, Call)]
    out: SeatView = {
        "game": deal.game,
        "rules": game.rules_to_json(deal.rules, full=True),
        "seat": seat,
        "dealer": deal.dealer,
        "to_move": deal.to_move,
        "phase": deal.phase,
        "hand": [str(c) for c in deal.hands[seat]] if seat is not None else None,
        "hand_sizes": [len(h) for h in deal.hands],
        "auction": [str(m) for _, m in calls],
        "auction_meanings": [game.describe_call(deal, i) for i in range(len(calls))],
        "contract": deal.contract.to_json() if deal.contract is not None else None,
        "tricks": [t.to_json() for t in deal.tricks],
        "trick": ({"leader": deal.trick_leader, "cards": [str(c) for c in deal.trick_cards]}
                  if deal.phase == PLAY else None),
        "points": list(deal.points),
        "match": ({"scores": match.current_scores(), "deal_number": match.deal_number}
                  if match is not None else None),
    }
    out.update(game.view_extra(deal, seat))  # type: ignore[typeddict-item]  # the game's own fields
    if deal.phase == OVER:
        out["result"] = deal.result()
    if seat is not None and deal.to_move == seat:
        out["legal"] = [str(m) for m in deal.legal_moves()]
    return out

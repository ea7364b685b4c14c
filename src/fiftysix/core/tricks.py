"""Tricks: who led, the cards in the order played, who won and the points in it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from .cards import Card


class TrickJSON(TypedDict):
    """A completed trick as records and views write it."""

    leader: int
    cards: list[str]
    winner: int
    points: int


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int

    def seat_of(self, index: int, players: int) -> int:
        """The seat that played the ``index``-th card of the trick."""
        return (self.leader + index) % players

    def to_json(self) -> TrickJSON:
        return {"leader": self.leader, "cards": [str(c) for c in self.cards],
                "winner": self.winner, "points": self.points}

"""Small builders for hand-made 55 deals in tests."""

from __future__ import annotations

from fiftysix.core.cards import parse_cards
from fiftysix.games.fifty_five import Deal55, Rules55

KITTY = "2S 3S 4S 6S 7S"
"""A kitty of low spades, out of the way of most hand-made deals."""


def make(preset: str = "55", hands: list[str] | None = None, kitty: str = KITTY, dealer: int = 0,
         **options: object) -> Deal55:
    rules = Rules55.preset_named(preset, **options)
    if hands is None:
        return Deal55.from_seed(rules, seed=1, dealer=dealer)
    return Deal55(rules, dealer, [parse_cards(h) for h in hands], parse_cards(kitty))


def push_all(deal: Deal55, moves: str) -> Deal55:
    """Push calls and cards given as blank-separated words; a discard is written with ``+`` between cards."""
    for m in moves.split():
        deal.push(m.replace("+", " "))
    return deal


def to_play(deal: Deal55, discard: str, trump: str, auction: str | None = None) -> Deal55:
    """Run the auction (first hand bids 10, everyone else passes, unless given), the discard and the trump."""
    if auction is None:
        deal.push("10")
        while deal.phase == "auction":
            deal.push("P")
    else:
        push_all(deal, auction)
    deal.push(discard)
    deal.push(trump)
    return deal

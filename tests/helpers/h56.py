"""Small builders for hand-made 56 deals in tests."""

from __future__ import annotations

from fiftysix import Deal56, Rules56
from fiftysix.core.cards import parse_cards


def make(preset: str = "56-4", hands: list[str] | None = None, dealer: int = 0, **options: object) -> Deal56:
    rules = Rules56.preset_named(preset, **options)
    if hands is None:
        return Deal56.from_seed(rules, seed=1, dealer=dealer)
    return Deal56(rules, dealer, [parse_cards(h) for h in hands])


def push_all(deal: Deal56, moves: str) -> Deal56:
    for m in moves.split():
        deal.push(m)
    return deal


# 56-4 with the 32-card deck: 8 cards each, two teams (0, 2) and (1, 3).
FOUR_32 = [
    "JS JS 9S 9S JH JH 9H 9H",
    "AS AS TS TS AH AH TH TH",
    "JD JD 9D 9D JC JC 9C 9C",
    "AD AD TD TD AC AC TC TC",
]

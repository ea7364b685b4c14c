"""What a 55 seat knows, read once from its view."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.cards import Card, Suit
from ..observe import RulesCache, check_game, common_reading
from ..spec import JSONObject, Observation
from .rules import RANKS, Rules55

rules_of = RulesCache(Rules55.from_json)
"""The :class:`Rules55` of a view's ``rules`` field, parsed once per distinct field."""


@dataclass(frozen=True)
class Observation55(Observation):
    """A 55 seat's knowledge.

    :ivar rules55: the rules (the same object as ``rules``, typed).
    :ivar trump: the trump suit once named.
    :ivar bidder: the bidder once the auction is over.
    :ivar kitty_size: the cards in the kitty (0 once the bidder has taken it).
    :ivar discard: the bidder's discard if the seat may see it.
    """

    rules55: Rules55
    trump: Suit | None
    bidder: int | None
    kitty_size: int
    discard: tuple[Card, ...] | None


def observe(view: JSONObject) -> Observation55:
    """:raises ValueError: if the view is not a 55 view or is malformed; :raises RulesError: for bad rules."""
    check_game(view, "55")
    rules = rules_of(view.get("rules"))
    assert isinstance(rules, Rules55)
    base = common_reading(view, "55", rules, RANKS)
    bidder = view.get("bidder")
    kitty = view.get("kitty_size")
    discard = view.get("discard")
    t = base["trump_text"]
    return Observation55(
        **base,
        rules55=rules,
        trump=Suit.parse(t) if t is not None else None,
        bidder=bidder if isinstance(bidder, int) else None,
        kitty_size=kitty if isinstance(kitty, int) else 0,
        discard=tuple(Card.parse(str(c), RANKS) for c in discard) if isinstance(discard, list) and discard else None,
    )

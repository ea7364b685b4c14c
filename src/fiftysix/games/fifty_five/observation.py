"""What a 55 seat knows: built from the deal (:func:`observation`) or read back from its view (:func:`observe`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...core.cards import Card, Suit
from ..observation import JSONObject, Observation
from ..observe import RulesCache, check_game, deal_base, read_base
from ..spec import MatchLike
from .deal import Deal55
from .rules import KITTY_SIZE, RANKS, Rules55

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
    :ivar highest_trump: the highest trump played so far and its seat (public).
    """

    rules55: Rules55
    trump: Suit | None
    bidder: int | None
    kitty_size: int
    discard: tuple[Card, ...] | None
    highest_trump: tuple[int, Card] | None

    def game_json(self) -> dict[str, object]:
        highest = self.highest_trump
        return {
            "kitty_size": self.kitty_size,
            "trump": self.trump_text,
            "bidder": self.bidder,
            "discard": [str(c) for c in self.discard] if self.discard is not None else None,
            "highest_trump": {"seat": highest[0], "card": str(highest[1])} if highest is not None else None,
        }


def observation(deal: Deal55, seat: int | None, match: MatchLike | None = None) -> Observation55:
    """What ``seat`` may know of ``deal`` (``None``: a spectator): the discard only when discards are open or
    the seat is the bidder's."""
    trump, bidder = deal.trump, deal.bidder
    sees_discard = deal.discard is not None and (deal.rules.discards == "open" or seat == bidder)
    auction = deal.auction
    base = deal_base(deal, seat, match, auction.calls, auction.meanings, trump.letter if trump is not None else None)
    return Observation55(
        **base,
        rules55=deal.rules,
        trump=trump,
        bidder=bidder,
        kitty_size=0 if deal.kitty_taken else KITTY_SIZE,
        discard=tuple(deal.discard) if sees_discard and deal.discard is not None else None,
        highest_trump=(deal.highest[0], deal.highest[1]) if deal.highest is not None else None,
    )


def observe(view: JSONObject) -> Observation55:
    """:raises ValueError: if the view is not a 55 view or is malformed; :raises RulesError: for bad rules."""
    check_game(view, "55")
    rules = rules_of(view.get("rules"))
    assert isinstance(rules, Rules55)
    base = read_base(view, "55", rules, RANKS)
    bidder, kitty, discard, highest = (view.get(k) for k in ("bidder", "kitty_size", "discard", "highest_trump"))
    t = base["trump_text"]
    return Observation55(
        **base,
        rules55=rules,
        trump=Suit.parse(t) if t is not None else None,
        bidder=bidder if isinstance(bidder, int) else None,
        kitty_size=kitty if isinstance(kitty, int) else 0,
        discard=tuple(Card.parse(str(c), RANKS) for c in discard) if isinstance(discard, list) else None,
        highest_trump=((int(str(highest.get("seat"))), Card.parse(str(highest.get("card")), RANKS))
                       if isinstance(highest, Mapping) else None),
    )

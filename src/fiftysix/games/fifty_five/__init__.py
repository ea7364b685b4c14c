"""The game 55 (Fifty-five): rules options, auction, kitty and discard, play, scoring and match."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.cards import CARDS, Card, cards_text
from ...core.deal import AUCTION, DISCARD, Deal
from ...core.errors import IllegalMoveError, NotationError, RecordError
from ...core.moves import Discard
from ..spec import GameSpec, MatchLike
from .auction import Auction55, Contract
from .deal import Deal55, parse_discard, parse_trump
from .match import Match55
from .rules import KITTY_SIZE, PRESETS, RANKS, Rules55

_THROWN_IN = "the deal was thrown in (nobody bid)"


class FiftyFive:
    """The :class:`~fiftysix.games.spec.GameSpec` of 55."""

    name = "55"
    ranks = RANKS
    copies = 1
    side_word = "side"

    def rules_from_json(self, data: object) -> Rules55:
        return Rules55.from_json(data)

    def rules_to_json(self, rules: Rules55, full: bool = False) -> object:
        return rules.to_json(full)

    def presets(self) -> Mapping[str, Any]:
        return PRESETS

    def deck(self, rules: Rules55) -> list[Card]:
        return list(CARDS)

    def new_deal(self, rules: Rules55, seed: int | None = None, dealer: int | None = None) -> Deal55:
        return Deal55.from_seed(rules, seed, dealer)

    def new_match(self, rules: Rules55, first_dealer: int | None = None, seed: int | None = None) -> Match55:
        return Match55(rules, first_dealer, seed)

    def read_setup(self, record: Mapping[str, Any], rules: Rules55, dealer: int,
                   hands: list[list[Card]], match: MatchLike | None) -> Deal55:
        """Check the ``kitty`` field (5 real cards, none in a hand) and build the deal.

        :raises RecordError: for a missing, malformed or clashing kitty.
        """
        return Deal55(rules, dealer, hands, read_kitty(record.get("kitty"), hands))

    def check_trump_field(self, record: Mapping[str, Any], rules: Rules55) -> None:
        trump = record.get("trump")
        if trump is not None:
            _trump(trump)

    def replay_extra(self, record: Mapping[str, Any], deal: Deal) -> None:
        """Apply the record's ``discard`` and then its ``trump``.

        :raises RecordError: for a discard or trump the deal does not allow now.
        """
        assert isinstance(deal, Deal55)
        discard, trump = record.get("discard"), record.get("trump")
        if discard is not None:
            if deal.phase == AUCTION:
                raise RecordError("discard", None, "no discard before the auction has ended")
            if deal.thrown_in:
                raise RecordError("discard", None, f"{_THROWN_IN}: there is no kitty to take and nothing to discard")
            try:
                cards = parse_discard(discard)
            except NotationError as e:
                raise RecordError("discard", None, str(e)) from None
            why = deal.discard_error(cards)
            if why is not None:
                raise RecordError("discard", None, why)
            deal.push_unchecked(Discard(tuple(deal.sort_hand(cards))))
        if trump is not None:
            if deal.phase == AUCTION:
                raise RecordError("trump", None, "no trump choice before the auction has ended")
            if deal.thrown_in:
                raise RecordError("trump", None, f"{_THROWN_IN}: nobody names trumps")
            if deal.phase == DISCARD:
                raise RecordError("trump", None, "the bidder names trumps after discarding; there is no discard yet")
            deal.push_unchecked(_trump(trump))

    def record_extra(self, deal: Deal) -> dict[str, Any]:
        assert isinstance(deal, Deal55)
        return {
            "kitty": cards_text(deal.kitty),
            "discard": cards_text(deal.discard) if deal.discard is not None else None,
            "trump": deal.trump.letter if deal.trump is not None else None,
        }

    def view_extra(self, deal: Deal, seat: int | None) -> dict[str, Any]:
        """The kitty's size, trumps, the bidder, and the discard for those who may see it."""
        assert isinstance(deal, Deal55)
        bidder = deal.bidder
        sees_discard = deal.discard is not None and (deal.rules.discards == "open" or seat == bidder)
        return {
            "kitty_size": 0 if deal.kitty_taken else KITTY_SIZE,
            "trump": deal.trump.letter if deal.trump is not None else None,
            "bidder": bidder,
            "discard": [str(c) for c in deal.discard] if sees_discard and deal.discard is not None else None,
            "highest_trump": deal.highest_trump_json(),
        }

    def describe_call(self, deal: Deal, index: int) -> str:
        assert isinstance(deal, Deal55)
        return deal.auction.meanings[index]


def read_kitty(value: object, hands: list[list[Card]]) -> list[Card]:
    """Check a record's ``kitty``: five cards of the pack, none of them in a hand.

    :raises RecordError: naming what is wrong.
    """
    if isinstance(value, str):
        items: list[object] = list(value.split())
    elif isinstance(value, list):
        items = list(value)
    else:
        raise RecordError("kitty", None, f"kitty must be a string of {KITTY_SIZE} cards")
    kitty: list[Card] = []
    for item in items:
        try:
            if not isinstance(item, str):
                raise NotationError("")
            kitty.append(Card.parse(item, RANKS))
        except NotationError:
            raise RecordError("kitty", None, f"malformed card {item!r} in the kitty") from None
    if len(kitty) != KITTY_SIZE:
        raise RecordError("kitty", None, f"the kitty has {len(kitty)} cards; it must have {KITTY_SIZE}")
    holder = {c: seat for seat, hand in enumerate(hands) for c in hand}
    seen: set[Card] = set()
    for c in kitty:
        if c in seen:
            raise RecordError("kitty", None, f"{c} is in the kitty twice; the pack holds each card once")
        seen.add(c)
        if c in holder:
            raise RecordError("kitty", None, f"{c} is in the kitty and in the hand of seat {holder[c]}")
    return kitty


def _trump(value: object) -> Any:
    try:
        return parse_trump(value)
    except NotationError as e:
        raise RecordError("trump", None, str(e)) from None


GAME = FiftyFive()
_SPEC: GameSpec = GAME  # mypy checks that 55 fits the protocol every generic module relies on

__all__ = ["GAME", "Auction55", "Contract", "Deal55", "IllegalMoveError", "Match55", "PRESETS", "Rules55"]

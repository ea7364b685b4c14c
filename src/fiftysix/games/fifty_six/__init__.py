"""The game 56 (Fifty-six): rules options, auction, play, scoring and match."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.cards import Card, Suit
from ...core.deal import AUCTION, TRUMP, Deal
from ...core.errors import IllegalMoveError, NotationError, RecordError
from ...core.moves import TrumpChoice, strain_text
from .auction import Auction56, Contract
from .deal import TRUMP_CHOICES, Deal56, deck
from .match import Match56
from .rules import PRESETS, RANKS, Rules56


class FiftySix:
    """The :class:`~fiftysix.games.spec.GameSpec` of 56."""

    name = "56"
    ranks = RANKS
    copies = 2
    side_word = "team"

    def rules_from_json(self, data: object) -> Rules56:
        return Rules56.from_json(data)

    def rules_to_json(self, rules: Rules56, full: bool = False) -> object:
        return rules.to_json(full)

    def presets(self) -> Mapping[str, Any]:
        return PRESETS

    def deck(self, rules: Rules56) -> list[Card]:
        return deck(rules)

    def new_deal(self, rules: Rules56, seed: int | None = None, dealer: int | None = None) -> Deal56:
        return Deal56.from_seed(rules, seed, dealer)

    def new_match(self, rules: Rules56, first_dealer: int | None = None, seed: int | None = None) -> Match56:
        return Match56(rules, first_dealer, seed)

    def read_setup(self, record: Mapping[str, Any], rules: Rules56, dealer: int,
                   hands: list[list[Card]], match: Any) -> Deal56:
        return Deal56(rules, dealer, hands)

    def replay_extra(self, record: Mapping[str, Any], deal: Deal) -> None:
        assert isinstance(deal, Deal56)
        trump = record.get("trump")
        if trump is None:
            return
        if deal.phase == AUCTION:
            raise RecordError("trump", None, "no trump choice before the auction has ended")
        assert deal.phase == TRUMP
        deal.push_unchecked(parse_trump(trump))

    def check_trump_field(self, record: Mapping[str, Any], rules: Rules56) -> None:
        trump = record.get("trump")
        if trump is None:
            return
        if rules.trump == "bid":
            raise RecordError("trump", None,
                              f"trump must be null with trump: bid (the contract's strain is trumps), not {trump!r}")
        parse_trump(trump)

    def record_extra(self, deal: Deal) -> dict[str, Any]:
        assert isinstance(deal, Deal56)
        return {"trump": deal.trump_text() if deal.rules.trump != "bid" else None}

    def view_extra(self, deal: Deal, seat: int | None) -> dict[str, Any]:
        assert isinstance(deal, Deal56)
        declarer = deal.contract.declarer if deal.contract else None
        if deal.rules.trump == "bid":
            trump = None if deal.contract is None else strain_text(deal.trump)
        else:
            # a hidden trump is known to the declarer alone until it is turned up
            knows = deal.trump_chosen and (deal.revealed or seat == declarer)
            trump = deal.trump_text() if knows else None
        return {
            "trump": trump,
            "trump_hidden": deal.rules.trump == "hidden" and deal.trump_chosen and not deal.revealed,
            "declarer": declarer,
        }

    def describe_call(self, deal: Deal, index: int) -> str:
        assert isinstance(deal, Deal56)
        return deal.auction.meanings[index]


def parse_trump(value: object) -> TrumpChoice:
    """Read a record's ``trump`` field: ``S H D C`` or ``NT``.

    :raises RecordError: for anything else.
    """
    if isinstance(value, str):
        t = value.strip().upper()
        if t == "NT":
            return TRUMP_CHOICES[4]
        try:
            return TRUMP_CHOICES[Suit.parse(t)]
        except NotationError:
            pass
    raise RecordError("trump", None, f"trump must be one of S, H, D, C, NT, not {value!r}")


GAME = FiftySix()

__all__ = ["GAME", "Auction56", "Contract", "Deal56", "Match56", "Rules56", "PRESETS", "IllegalMoveError"]

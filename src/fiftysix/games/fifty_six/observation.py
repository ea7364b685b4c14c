"""What a 56 seat knows: built from the deal (:func:`observation`) or read back from its view (:func:`observe`)."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.cards import Suit
from ...core.moves import strain_text
from ..observation import JSONObject, Observation
from ..observe import Fields, RulesCache, check_game, deal_base, read_base
from ..spec import MatchLike
from .deal import Deal56
from .rules import RANKS, Rules56

rules_of = RulesCache(Rules56.from_json)
"""The :class:`Rules56` of a view's ``rules`` field, parsed once per distinct field."""


@dataclass(frozen=True)
class Observation56(Observation):
    """A 56 seat's knowledge.

    :ivar rules56: the rules (the same object as ``rules``, typed).
    :ivar trump: the trump suit if known to the seat and not no-trumps.
    :ivar trump_hidden: a hidden trump has been chosen and not turned up.
    :ivar declarer: the declarer once the auction is over.
    :ivar strain: the contract's strain as written (``"H"``, ``"NT"``), once the auction is over.
    """

    rules56: Rules56
    trump: Suit | None
    trump_hidden: bool
    declarer: int | None
    strain: str | None

    @property
    def multiplier(self) -> int:
        """The contract's multiplier (1, 2 doubled, 4 redoubled); 1 without a contract."""
        m = self.contract.get("multiplier") if self.contract is not None else None
        return m if isinstance(m, int) else 1

    def game_json(self) -> dict[str, object]:
        return {"trump": self.trump_text, "trump_hidden": self.trump_hidden, "declarer": self.declarer}


def observation(deal: Deal56, seat: int | None, match: MatchLike | None = None) -> Observation56:
    """What ``seat`` may know of ``deal`` (``None``: a spectator).  A hidden trump is known to the declarer
    alone until it is turned up; with ``trump: bid`` the contract's strain is trumps, known to all."""
    declarer = deal.contract.declarer if deal.contract else None
    if deal.rules.trump == "bid":
        trump = None if deal.contract is None else strain_text(deal.trump)
    else:
        knows = deal.trump_chosen and (deal.revealed or seat == declarer)
        trump = deal.trump_text() if knows else None
    hidden = deal.rules.trump == "hidden" and deal.trump_chosen and not deal.revealed
    return _typed(deal_base(deal, seat, match, deal.auction.calls, deal.auction.meanings, trump), deal.rules, hidden)


def observe(view: JSONObject) -> Observation56:
    """:raises ValueError: if the view is not a 56 view or is malformed; :raises RulesError: for bad rules."""
    check_game(view, "56")
    rules = rules_of(view.get("rules"))
    assert isinstance(rules, Rules56)
    return _typed(read_base(view, "56", rules, RANKS), rules, bool(view.get("trump_hidden")))


def _typed(base: Fields, rules: Rules56, trump_hidden: bool) -> Observation56:
    contract = base["contract"]
    declarer = contract.get("declarer") if contract is not None else None
    strain = contract.get("strain") if contract is not None else None
    t = base["trump_text"]
    return Observation56(
        **base,
        rules56=rules,
        trump=Suit.parse(t) if t is not None and t != "NT" else None,
        trump_hidden=trump_hidden,
        declarer=declarer if isinstance(declarer, int) else None,
        strain=strain if isinstance(strain, str) else None,
    )

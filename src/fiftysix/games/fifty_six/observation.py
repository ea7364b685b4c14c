"""What a 56 seat knows, read once from its view."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...core.cards import Suit
from ..observe import RulesCache, check_game, common_reading
from ..spec import JSONObject, Observation
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


def observe(view: JSONObject) -> Observation56:
    """:raises ValueError: if the view is not a 56 view or is malformed; :raises RulesError: for bad rules."""
    check_game(view, "56")
    rules = rules_of(view.get("rules"))
    assert isinstance(rules, Rules56)
    base = common_reading(view, "56", rules, RANKS)
    contract = view.get("contract")
    declarer = contract.get("declarer") if isinstance(contract, Mapping) else None
    strain = contract.get("strain") if isinstance(contract, Mapping) else None
    t = base["trump_text"]
    return Observation56(
        **base,
        rules56=rules,
        trump=Suit.parse(t) if t is not None and t != "NT" else None,
        trump_hidden=bool(view.get("trump_hidden")),
        declarer=declarer if isinstance(declarer, int) else None,
        strain=strain if isinstance(strain, str) else None,
    )

"""The part of an :class:`~fiftysix.games.observation.Observation` both games share: built from a deal for one
seat (:func:`deal_base`, the rule of what a seat sees but for the game's own fields) or read back from a view
(:func:`read_base`), by the same field names, so that each game adds only its own fields."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from ..core.cards import Card
from ..core.deal import OVER, PLAY, Deal, DealResult
from ..core.errors import NotationError
from ..core.moves import Call
from ..core.options import Rules
from .observation import JSONObject, MatchSeen, TrickSeen
from .spec import MatchLike


class RulesCache:
    """The rules object of a view's ``rules`` field, parsed once per distinct field (a bot reads the same
    rules at every decision)."""

    def __init__(self, parse: Callable[[object], Rules], size: int = 64) -> None:
        self._parse = parse
        self._size = size
        self._cache: dict[object, Rules] = {}
        self._last: tuple[object, Rules] | None = None   # views share one rules object (rules_json)

    def __call__(self, data: object) -> Rules:
        """:raises RulesError: as the game's ``rules_from_json``."""
        last = self._last
        if last is not None and (last[0] is data or last[0] == data):   # each view has its own equal copy
            return last[1]
        key = _frozen(data)
        rules = self._cache.get(key)
        if rules is None:
            rules = self._parse(data)
            if len(self._cache) >= self._size:
                self._cache.clear()
            self._cache[key] = rules
        self._last = (data, rules)
        return rules


def _frozen(data: object) -> object:
    if isinstance(data, Mapping):
        return tuple(sorted((str(k), _frozen(v)) for k, v in data.items()))
    if isinstance(data, list):
        return tuple(_frozen(v) for v in data)
    return data


def _int(view: JSONObject, key: str) -> int:
    value = view.get(key)
    if not isinstance(value, int):
        raise ValueError(f"the view's {key} must be a number, not {value!r}")
    return value


def _opt_int(view: Mapping[str, object], key: str) -> int | None:
    value = view.get(key)
    return value if isinstance(value, int) else None


def _texts(value: object) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(map(str, value))


def _ints(value: object) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(v, int) for v in value):
        raise ValueError(f"a list of numbers expected, not {value!r}")
    return tuple(value)


_PARSED: dict[str, dict[str, Card]] = {}
"""By a game's rank letters: each card's text and the card, parsed once a process (a bot reads every card of
every view it is given, the same few dozen texts)."""


def _card_reader(ranks: str) -> Callable[[str], Card]:
    parsed = _PARSED.setdefault(ranks, {})

    def card(text: str) -> Card:
        c = parsed.get(text)
        if c is None:
            try:
                c = parsed[text] = Card.parse(text, ranks)
            except NotationError as e:
                raise ValueError(str(e)) from None
        return c
    return card


def check_game(view: JSONObject, game: str) -> None:
    """:raises ValueError: if ``view`` is not a view of ``game``."""
    if view.get("game") != game:
        raise ValueError(f"a view of {view.get('game')!r} is not a view of the game {game}")


def _contract_facts(contract: JSONObject | None) -> tuple[int | None, int]:
    """The contract's team and value (``None`` and 0 without a contract)."""
    if contract is None:
        return None, 0
    return _opt_int(contract, "team"), _opt_int(contract, "value") or 0


Fields = dict[str, Any]
"""An :class:`Observation`'s shared fields by name, for a game to build its observation from in one go (``Any``:
each field has the type :class:`Observation` declares)."""


def deal_base(deal: Deal, seat: int | None, match: MatchLike | None, calls: Sequence[Call], meanings: Sequence[str],
              trump_text: str | None) -> Fields:
    """The fields every game's observation has, built from ``deal`` for ``seat`` (``None``: a spectator): public
    facts and that seat's own hand.

    :param calls: the calls so far.  :param meanings: the public meaning of each.
    :param trump_text: trumps as the seat knows them.
    :raises ValueError: for a seat the deal does not have.
    """
    if seat is not None and not 0 <= seat < deal.n:
        raise ValueError(f"seat must be 0-{deal.n - 1} or None, not {seat}")
    contract = deal.contract.to_json() if deal.contract is not None else None
    hands = deal.hands
    phase = deal.phase
    team, value = _contract_facts(contract)
    return dict(
        game=deal.game, rules=deal.rules, seat=seat, dealer=deal.dealer, phase=phase, to_move=deal.to_move,
        hand=tuple(hands[seat]) if seat is not None else (),
        hand_sizes=tuple(len(h) for h in hands),
        auction=tuple(map(str, calls)), auction_meanings=tuple(meanings[:len(calls)]), contract=contract,
        tricks=tuple(TrickSeen(t.leader, t.cards, t.winner, t.points) for t in deal.tricks),
        trick=TrickSeen(deal.trick_leader, tuple(deal.trick_cards)) if phase == PLAY else None,
        points=tuple(deal.points),
        match=MatchSeen(tuple(match.current_scores()), match.deal_number) if match is not None else None,
        legal=tuple(str(m) for m in deal.legal_moves()) if seat is not None and deal.to_move == seat else None,
        trump_text=trump_text, contract_team=team, contract_value=value,
        result=deal.result() if phase == OVER else None,
    )


def read_base(view: JSONObject, game: str, rules: Rules, ranks: str) -> Fields:
    """The fields every game's observation has, read from ``view`` (a bot reads a view at every decision when
    it is handed JSON: the bot protocol, a research table).

    :raises ValueError: if the view is not a view of ``game`` or a field is malformed.
    """
    check_game(view, game)
    card = _card_reader(ranks)

    def trick(data: object, done: bool) -> TrickSeen:
        if not isinstance(data, Mapping):
            raise ValueError(f"a trick must be an object, not {data!r}")
        return TrickSeen(_int(data, "leader"), tuple(map(card, _texts(data.get("cards")))),
                         _int(data, "winner") if done else None, _int(data, "points") if done else None)

    seat = _opt_int(view, "seat")
    tricks_data = view.get("tricks")
    contract = view.get("contract")
    contract = dict(contract) if isinstance(contract, Mapping) else None
    match = view.get("match")
    trump = view.get("trump")
    legal = view.get("legal")
    result = view.get("result")
    team, value = _contract_facts(contract)
    return dict(
        game=game, rules=rules, seat=seat, dealer=_int(view, "dealer"), phase=str(view.get("phase")),
        to_move=_opt_int(view, "to_move"),
        hand=tuple(map(card, _texts(view.get("hand")))) if seat is not None else (),
        hand_sizes=_ints(view.get("hand_sizes")),
        auction=_texts(view.get("auction")), auction_meanings=_texts(view.get("auction_meanings")),
        contract=contract,
        tricks=tuple(trick(t, True) for t in tricks_data) if isinstance(tricks_data, list) else (),
        trick=trick(view["trick"], False) if view.get("trick") else None,
        points=_ints(view.get("points")),
        match=(MatchSeen(_ints(match.get("scores")), _int(match, "deal_number"))
               if isinstance(match, Mapping) else None),
        legal=_texts(legal) if isinstance(legal, list) else None,
        trump_text=trump if isinstance(trump, str) else None,
        contract_team=team, contract_value=value,
        result=cast(DealResult, result) if isinstance(result, Mapping) else None,
    )

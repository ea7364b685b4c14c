"""Reading a view into an :class:`~fiftysix.games.spec.Observation` (the part both games share)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any, TypedDict

from ..core.cards import Card
from ..core.errors import NotationError
from ..core.options import Rules
from .spec import JSONObject, Observation, TrickSeen


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


def read_common(view: JSONObject, game: str, rules: Rules, ranks: str) -> Observation:
    """The fields every game's observation has.

    :raises ValueError: if the view is not a view of ``game`` or a field is malformed.
    """
    return Observation(**common_reading(view, game, rules, ranks))


class ObservationFields(TypedDict):
    """The fields of :class:`Observation` by name (what :func:`common_reading` reads of any game's view)."""

    game: str
    rules: Rules
    seat: int | None
    dealer: int
    phase: str
    to_move: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    auction: tuple[str, ...]
    tricks: tuple[TrickSeen, ...]
    trick: TrickSeen | None
    points: tuple[int, ...]
    legal: tuple[str, ...] | None
    trump_text: str | None
    contract_team: int | None
    contract_value: int
    view: JSONObject


def common_reading(view: JSONObject, game: str, rules: Rules, ranks: str) -> ObservationFields:
    """The fields every game's observation has, by name, to build the game's observation from in one go (a
    bot reads a view at every decision).

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
    trump = view.get("trump")
    legal = view.get("legal")
    return {
        "game": game,
        "rules": rules,
        "seat": seat,
        "dealer": _int(view, "dealer"),
        "phase": str(view.get("phase")),
        "to_move": _opt_int(view, "to_move"),
        "hand": tuple(map(card, _texts(view.get("hand")))) if seat is not None else (),
        "hand_sizes": _ints(view.get("hand_sizes")),
        "auction": _texts(view.get("auction")),
        "tricks": tuple(trick(t, True) for t in tricks_data) if isinstance(tricks_data, list) else (),
        "trick": trick(view["trick"], False) if view.get("trick") else None,
        "points": _ints(view.get("points")),
        "legal": _texts(legal) if isinstance(legal, list) else None,
        "trump_text": trump if isinstance(trump, str) else None,
        "contract_team": _opt_int(contract, "team") if isinstance(contract, Mapping) else None,
        "contract_value": (_opt_int(contract, "value") or 0) if isinstance(contract, Mapping) else 0,
        "view": view,
    }


def common_fields(base: Observation) -> dict[str, Any]:
    """The base fields of ``base`` by name, to build a game's observation subclass from (``Any``: each
    field keeps the type :class:`Observation` declares)."""
    return {f.name: getattr(base, f.name) for f in fields(Observation)}

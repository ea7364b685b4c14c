"""Rules options: frozen dataclasses built from named presets plus explicit overrides.

Each game declares its options once, as a frozen dataclass with a ``CHOICES`` table, and its presets as
a dict of overrides.  :func:`resolve_rules` turns the ``rules`` field of a record (a preset name or
``{"preset": ..., "<option>": ...}``) into that object, with a clear error for anything unknown.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Protocol, TypeVar

from .errors import RulesError
from .meaning import Meaning

R = TypeVar("R")


def resolve_rules(
    cls: type[R],
    presets: Mapping[str, Mapping[str, object]],
    choices: Mapping[str, tuple[object, ...]],
    data: object,
    default_preset: str,
) -> R:
    """Build a rules object from a preset name or a preset-plus-overrides mapping.

    :raises RulesError: for an unknown preset or option, or a value the option does not allow.
    """
    if data is None:
        data = default_preset
    if isinstance(data, str):
        name, overrides = data, {}
    elif isinstance(data, Mapping):
        overrides = dict(data)
        name = overrides.pop("preset", default_preset)
        if not isinstance(name, str):
            raise RulesError(Meaning("preset must be a preset name, not {value}", {"value": repr(name)}))
    else:
        raise RulesError(Meaning("rules must be a preset name or an object of options, not {value}",
                                 {"value": repr(data)}))
    if name not in presets:
        raise RulesError(Meaning("unknown preset {name}; presets are {presets}",
                                 {"name": repr(name), "presets": ", ".join(presets)}))
    values: dict[str, object] = dict(presets[name])
    for key, value in overrides.items():
        if key not in choices:
            raise RulesError(Meaning("unknown option {key}; options are {options}",
                                     {"key": repr(key), "options": ", ".join(choices)}))
        allowed = choices[key]
        if not allows(allowed, value):
            shown = _shown(allowed)
            raise RulesError(Meaning("option {key} cannot be {value}; allowed: {shown}",
                                     {"key": key, "value": repr(value), "shown": shown}))
        values[key] = value
    values["preset"] = name
    return cls(**values)


_RULES_JSON: dict[tuple[int, bool], tuple[Rules, object]] = {}   # (id, full) -> (rules, JSON)
_BY_VALUE: dict[tuple[Rules, bool], object] = {}


def rules_json(rules: Rules, presets: Mapping[str, Mapping[str, object]], full: bool = False) -> object:
    """The ``rules`` field for a record: the preset name alone, or the preset and what differs.

    With ``full`` every option is listed (as views do).  Made once per rules object: every view and message
    carries it, so the same (shared, not to be changed) object is returned each time.
    """
    key = (id(rules), full)           # by identity first: hashing a rules object reads all its fields
    found = _RULES_JSON.get(key)
    if found is None or found[0] is not rules:
        if len(_RULES_JSON) >= 256:
            _RULES_JSON.clear()
        made = _BY_VALUE.get((rules, full))     # an equal rules object made afresh (rules for fewer players)
        if made is None:
            if len(_BY_VALUE) >= 256:
                _BY_VALUE.clear()
            made = _BY_VALUE[(rules, full)] = _rules_json(rules, presets, full)
        found = _RULES_JSON[key] = (rules, made)
    return found[1]


def _rules_json(rules: Rules, presets: Mapping[str, Mapping[str, object]], full: bool) -> object:
    preset = rules.preset
    if not dataclasses.is_dataclass(rules):     # each game's options are a dataclass: their fields are the options
        raise TypeError(f"rules must be a dataclass, not {type(rules).__name__}")
    base = presets[preset]
    fields = [f for f in dataclasses.fields(rules) if f.init and f.name != "preset"]
    defaults = {f.name: f.default for f in fields}
    out: dict[str, object] = {"preset": preset}
    for f in fields:
        value = getattr(rules, f.name)
        if full or value != base.get(f.name, defaults[f.name]):
            out[f.name] = value
    if not full and len(out) == 1:
        return preset
    return out


def allows(allowed: tuple[object, ...], value: object) -> bool:
    """Whether an option's choices allow ``value``: a listed value of the same type, or an ``int`` in a listed
    ``range`` (a range stands for its numbers without holding them all: ``target`` allows 1 to 99,999).
    bool is an int in Python; options that want numbers never take true/false."""
    for a in allowed:
        if type(a) is range:
            if type(value) is int and value in a:
                return True
        elif value == a and type(value) is type(a):
            return True
    return False


def _shown(allowed: tuple[object, ...]) -> str:
    def one(a: object) -> str:
        if type(a) is range:
            return f"{a.start}-{a.stop - 1}"
        return "null" if a is None else str(a).lower() if isinstance(a, bool) else str(a)

    return ", ".join(one(a) for a in allowed)     # long runs of numbers are ranges, shown as low-high


class Rules(Protocol):
    """What generic code (deal, match, views, bots, solver) may ask any game's options object."""

    @property
    def game(self) -> str: ...

    @property
    def preset(self) -> str: ...

    @property
    def players(self) -> int: ...

    @property
    def hand_size(self) -> int: ...

    @property
    def deck_size(self) -> int: ...

    @property
    def ranks(self) -> str: ...

    @property
    def n_teams(self) -> int: ...

    @property
    def team_of(self) -> tuple[int, ...]: ...

    def to_json(self, full: bool = False) -> object: ...

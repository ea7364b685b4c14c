"""Frozen dataclasses read from JSON objects by their fields' annotations: the table's events (:mod:`.events`)
and a client's messages (:mod:`fiftysix.server.table.client_messages`) decode through it.

A class's ``kind`` (the name its JSON object gives) is a class keyword, ``class Sit(_AtSeat, kind="sit")``, so a
kind that only names fields a base dataclass holds needs no body of its own.
"""

from __future__ import annotations

import types
import typing
from dataclasses import fields
from typing import ClassVar, TypeAlias, Union

Json: TypeAlias = "str | int | float | bool | None | list[Json] | dict[str, Json]"
"""Any JSON value, declared once: only for JSON from outside the program's own types (a request's body, a client's
message before it is decoded, a record read back from the log), which is checked field by field where it is read."""

Received: TypeAlias = "dict[str, Json]"
"""A JSON object from outside (see :data:`Json`), before it is checked."""


class Kinded:
    """A class whose JSON object names it by ``kind``."""

    kind: ClassVar[str]

    def __init_subclass__(cls, kind: str = "", **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if kind:
            cls.kind = kind


def accepts(hint: object) -> tuple[type, ...]:
    """The runtime classes a field's annotation allows (``dict[str, int] | None`` -> ``dict, NoneType``)."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is Union:
        return tuple(c for arg in typing.get_args(hint) for c in accepts(arg))
    origin = typing.get_origin(hint)
    if origin is not None:
        return (origin,)
    assert isinstance(hint, type)
    return (hint,)


def field_types(cls: type) -> dict[str, tuple[type, ...]]:
    """Each field of the dataclass ``cls`` by name, with the classes its annotation allows (read once per class)."""
    hints = typing.get_type_hints(cls)
    return {f.name: accepts(hints[f.name]) for f in fields(cls)}


def fits(value: object, allowed: tuple[type, ...]) -> bool:
    """Whether a JSON value is of a class ``allowed`` (JSON's true is no number)."""
    if isinstance(value, bool):
        return bool in allowed
    if value is None:
        return type(None) in allowed
    return isinstance(value, allowed)

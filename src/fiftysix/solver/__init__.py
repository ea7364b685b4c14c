"""The double-dummy solver of 56 and 55: exact values of positions with every hand known.

>>> from fiftysix.solver import solve, card_values, can_reach, Position

``engine="kernel"`` (the default when numba is installed, extra ``solver``) uses the compiled search of
:mod:`fiftysix.solver.kernel`; ``engine="reference"`` the pure-Python alpha-beta of
:mod:`fiftysix.solver.reference`.  Both give the same answers.
"""

from __future__ import annotations

from typing import Any

from ..core.cards import Card
from .position import Position, PositionError

__all__ = ["Position", "PositionError", "solve", "card_values", "can_reach", "kernel_available"]

ENGINES = ("kernel", "reference")


def kernel_available() -> bool:
    """Whether numba is installed, so that the fast kernel can run."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def _engine(engine: str | None) -> Any:
    if engine is None:
        engine = "kernel" if kernel_available() else "reference"
    if engine == "kernel":
        from . import fast
        return fast
    if engine == "reference":
        from . import reference
        return reference
    raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")


def solve(position: Position, engine: str | None = None) -> int:
    """The best card-point total the side to move can force from the remaining cards (the current
    trick's cards included).

    :raises ValueError: for an unknown engine.
    """
    return int(_engine(engine).solve(position))


def card_values(position: Position, engine: str | None = None) -> dict[Card, int]:
    """For every legal card of the seat to move, the value (as :func:`solve`) of playing it.

    :raises ValueError: for an unknown engine.
    """
    return dict(_engine(engine).card_values(position))


def can_reach(position: Position, team: int, target: int, engine: str | None = None) -> bool:
    """Whether ``team`` can still reach ``target`` points in the whole deal, points already taken
    included, whatever the other teams play (a null-window search).

    :raises ValueError: for an unknown engine or team.
    """
    return bool(_engine(engine).can_reach(position, team, target))

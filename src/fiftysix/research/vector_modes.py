"""The vector env's two answers to "what does a step return": the autoreset mode and whose rewards.

Gymnasium's own tooling expects ``AutoresetMode.NEXT_STEP`` (its ``SyncVectorEnv`` default; its
``VectorObservationWrapper`` and ``NormalizeObservation`` accept nothing else but ``DISABLED``) and rewards of
shape (N,) (``RecordEpisodeStatistics``, ``NormalizeReward``): both are the env's defaults.
"""

from __future__ import annotations

from collections.abc import Collection

from gymnasium.vector import AutoresetMode

ALL_SEATS = "all"
"""``reward_seat="all"``: rewards (N, seats), every seat's team score."""

_MODES = {True: AutoresetMode.NEXT_STEP, False: AutoresetMode.DISABLED}


def autoreset_mode(value: object) -> AutoresetMode:
    """``autoreset`` as a mode: ``True`` is ``NEXT_STEP``, ``False`` ``DISABLED``; a mode, or its value
    (``"NextStep"``, ``"SameStep"``, ``"Disabled"``), as itself.

    :raises ValueError: naming what is allowed.
    """
    if isinstance(value, AutoresetMode):
        return value
    if isinstance(value, bool):
        return _MODES[value]
    if isinstance(value, str):
        for mode in AutoresetMode:
            if value in (mode.value, mode.name, mode.name.lower()):
                return mode
    raise ValueError(f"autoreset must be True, False or an AutoresetMode ({', '.join(m.value for m in AutoresetMode)}),"
                     f" not {value!r}")


def reward_seat(value: object, seats: int, bot_seats: Collection[int]) -> int | str:
    """``reward_seat`` checked: a seat, ``"all"``, or ``None`` for the default, the lowest seat the learner plays
    (seat 0 without bots).

    :raises ValueError: naming what is allowed.
    """
    if value is None:
        return min(s for s in range(seats) if s not in bot_seats)
    if value == ALL_SEATS:
        return ALL_SEATS
    if isinstance(value, int) and not isinstance(value, bool) and value in range(seats):
        return value
    raise ValueError(f"reward_seat must be None (the learner's lowest seat), a seat 0-{seats - 1} or "
                     f"{ALL_SEATS!r}, not {value!r}")

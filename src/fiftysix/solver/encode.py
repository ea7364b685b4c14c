"""Turn a :class:`~fiftysix.solver.position.Position` into the arrays of the numba kernel."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from ..core.cards import Card
from . import kernel as k
from .position import Position

_MODES = {"follow": k.MODE_56, "trump-or-follow": k.MODE_55}
"""The kernel's mode for each card-play family (:attr:`fiftysix.games.spec.PlayRule.FAMILY`)."""


def _zobrist(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    z = rng.integers(1, 2**63 - 1, size=(k.MAX_SEATS + 1, k.SLOTS, 8), dtype=np.int64)
    return z


ZA = _zobrist(5601)
ZB = _zobrist(5602)


def _salt(text: str) -> tuple[int, int]:
    d = hashlib.blake2b(text.encode(), digest_size=16).digest()
    a = int.from_bytes(d[:8], "little", signed=True)
    b = int.from_bytes(d[8:], "little", signed=True)
    return a, b


@dataclass
class Encoded:
    """A position as kernel arrays, for one maximising team."""

    one: np.ndarray
    two: np.ndarray
    team: np.ndarray
    ctx: np.ndarray
    pts: np.ndarray
    priv: int
    leader: int
    ntrick: int
    led_slot: int
    best_slot: int
    best_seat: int
    tpts: int
    slot_of: dict[Card, int]
    card_of: dict[int, Card]
    fixed: int
    """Points sure to go to the maximising team whatever is played (the 55 bonus), not in the search."""
    upper: int
    """An upper bound of the searched value (points still to be scored in the search)."""


def encode(pos: Position, team: int) -> Encoded:
    """Encode ``pos`` for a search in which ``team`` maximises its points.

    :raises ValueError: if the position has more seats than the kernel supports.
    """
    n = pos.n
    if n > k.MAX_SEATS:
        raise ValueError(f"the kernel supports at most {k.MAX_SEATS} seats, not {n}")
    rules = pos.rules
    trump = pos.trump
    cards = {c for h in pos.hands for c in h} | set(pos.trick)
    slot_of = {c: rules.slot(c, trump) for c in cards}
    card_of = {s: c for c, s in slot_of.items()}
    one = np.zeros(n, dtype=np.int64)
    two = np.zeros(n, dtype=np.int64)
    for seat, hand in enumerate(pos.hands):
        for c in hand:
            bit = 1 << slot_of[c]
            if one[seat] & bit:
                two[seat] |= bit
            one[seat] |= bit
    pts = np.zeros(k.SLOTS, dtype=np.int64)
    priv = 0
    for c, s in slot_of.items():
        pts[s] = rules.POINTS[c]
        if rules.is_privileged(c, trump):
            priv |= 1 << s
    teams = np.array(pos.team_of, dtype=np.int64)
    trump_suit = -1 if trump is None else int(trump)  # every game places trumps in their suit's block
    mode = _MODES[rules.FAMILY]
    salt_a, salt_b = _salt(f"{pos.game}|{trump}|{team}|{pos.team_of}")
    ctx = np.array([n, trump_suit, team, mode, rules.TRICK_BONUS, salt_a, salt_b], dtype=np.int64)
    ntrick = len(pos.trick)
    led_slot = best_slot = best_seat = -1
    tpts = 0
    if ntrick:
        led_slot = slot_of[pos.trick[0]]
        w = rules.trick_winner(pos.trick, trump)
        best_slot = slot_of[pos.trick[w]]
        best_seat = (pos.leader + w) % n
        tpts = sum(rules.POINTS[c] for c in pos.trick)
    fixed = pos.fixed_points(team)
    upper = pos.points_left() - (5 if pos.bonus_team is not None else 0)
    return Encoded(one, two, teams, ctx, pts, priv, pos.leader, ntrick, led_slot, best_slot, best_seat, tpts,
                   slot_of, card_of, fixed, upper)

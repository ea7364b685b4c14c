"""How many daily sets one process plays at once, and the line for those who come when it is full.

The computers are the cost of a daily set (docs/benchmarks.md): past :attr:`Admission.capacity` sets in play, a
new start waits in a first-come line with an honest estimate, from the rate at which sets in play were seen to
end, instead of a table whose computers answer late.  The sets in play never wait: only new ones do."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

FORGET = 30.0
"""Seconds after which a place in line that was not asked about again is given up (the page asks every few)."""
WINDOW = 600.0
"""Seconds of ended sets the wait is estimated from."""


@dataclass(frozen=True)
class Waiting:
    """A start that must wait: its place in line (1: next) and the estimated seconds (``None``: no set has
    ended in the last :data:`WINDOW` seconds, so there is nothing honest to estimate from)."""

    place: int
    wait: float | None


@dataclass
class Admission:
    capacity: int
    clock: Callable[[], float] = time.monotonic
    playing: set[str] = field(default_factory=set)           # players whose set is in play here
    line: deque[tuple[str, float]] = field(default_factory=deque)    # (player, last asked), first come first
    ended: deque[float] = field(default_factory=deque)        # when sets in play ended (for the estimate)
    in_play: Callable[[str], bool] = lambda _player: True     # is that player's table still held and playing?
    since: float | None = None      # when this process began watching sets end

    def __post_init__(self) -> None:
        if self.since is None:
            self.since = self.clock()

    def ask(self, player: str) -> Waiting | None:
        """``None``: ``player`` may play now (they hold a place in play); else their place in line."""
        now = self.clock()
        if player in self.playing:
            return None
        self._forget(now)
        for gone in [p for p in self.playing if not self.in_play(p)]:     # left idle and unloaded, or ended
            self.release(gone)
        queued = [p for p, _ in self.line]
        if player not in queued:
            self.line.append((player, now))
            queued.append(player)
        else:
            self.line[queued.index(player)] = (player, now)
        place = queued.index(player) + 1
        if len(self.playing) + place <= self.capacity:     # a free place for everyone ahead too
            self.line.remove(self.line[place - 1])
            self.playing.add(player)
            return None
        return Waiting(place, self._estimate(now, place + len(self.playing) - self.capacity))

    def release(self, player: str) -> None:
        """``player``'s set ended here (finished, or its table left idle): a place in play is free."""
        if player in self.playing:
            self.playing.discard(player)
            self.ended.append(self.clock())

    def _forget(self, now: float) -> None:
        self.line = deque((p, t) for p, t in self.line if now - t <= FORGET)
        while self.ended and now - self.ended[0] > WINDOW:
            self.ended.popleft()

    def _estimate(self, now: float, ahead: int) -> float | None:
        """Seconds until ``ahead`` more sets end, at the rate they ended over the last :data:`WINDOW` seconds
        (or since the process started, if sooner)."""
        if not self.ended:
            return None
        assert self.since is not None
        span = max(min(WINDOW, now - self.since), 1.0)
        return ahead * span / len(self.ended)

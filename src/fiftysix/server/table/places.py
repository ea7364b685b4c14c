"""Where one tap to a game (server/play) seated each person, and a person's taps held apart, as every process
knows it.  One process needs nothing of its own here: its tables are all in its hub, and the route's lock holds
its taps apart; with many processes the hub's is :class:`~fiftysix.server.cluster.places.SharedPlaces`."""

from __future__ import annotations

import contextlib
from contextlib import AbstractAsyncContextManager


class Places:
    """One process's: nothing to hold, nothing remembered."""

    def hold(self, player: str) -> AbstractAsyncContextManager[None]:
        """Hold ``player``'s other taps of Play, on every process, until this one is done."""
        return contextlib.nullcontext()

    async def recall(self, player: str) -> str | None:
        """The code of the table Play last seated ``player`` at on any process (a hint: check it), or ``None``."""
        return None

    async def remember(self, player: str, code: str) -> None:
        """Play seated ``player`` at table ``code``: tell the other processes."""

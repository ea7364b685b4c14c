"""The writer's record of its table's people on other processes: who is online there, and who asks to join there
(a part of :class:`.table.ClusterTable`, told by each process's ``here``)."""

from __future__ import annotations


class Elsewhere:
    """Who is online at each other process (``players``) and who asks to join there (``knocks``: player -> the
    name they gave); the writer's only, empty at a replica."""

    def __init__(self) -> None:
        self.players: dict[str, set[str]] = {}
        self.knocks: dict[str, dict[str, str]] = {}

    def processes(self) -> set[str]:
        """The processes this writer heard from."""
        return {*self.players, *self.knocks}

    def online(self, player: str) -> bool:
        return any(player in players for players in self.players.values())

    def everyone(self) -> set[str]:
        """Everyone online on another process."""
        return set().union(*self.players.values())

    def anyone(self) -> bool:
        return any(self.players.values())

    def set_knocks(self, process: str, knocks: dict[str, str]) -> bool:
        """Who asks to join at ``process`` now; ``True`` when that changed."""
        if knocks == self.knocks.get(process, {}):
            return False
        if knocks:
            self.knocks[process] = knocks
        else:
            self.knocks.pop(process, None)
        return True

    def heard(self, process: str, players: set[str], online: set[str], here: set[str]) -> tuple[set[str], set[str]]:
        """Who is online at ``process`` now; returns who came (not ``online`` before) and who went (``online``
        before, and now neither ``here`` nor at any other process)."""
        if players:
            self.players[process] = players
        else:
            self.players.pop(process, None)
        return players - online, online - here - self.everyone()

    def asking(self) -> dict[str, str]:
        """Everyone asking to join on the other processes."""
        merged: dict[str, str] = {}
        for knocks in self.knocks.values():
            merged.update(knocks)
        return merged

    def answered(self, player: str) -> None:
        """The host answered ``player``: no process holds their asking any more."""
        for knocks in self.knocks.values():
            knocks.pop(player, None)

    def clear(self) -> None:
        self.players, self.knocks = {}, {}

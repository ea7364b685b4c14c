"""Who may look at a table: failed lookups limited per client address, and private tables' secrets.

A private table (the default) lets in its members (people who joined), anyone with its link's secret
(``/t/CODE#k=SECRET``: the page sends it in ``hello``; other clients may use ``?k=``), and people the host
lets in when they ask.  Anyone else learns only that the table exists and is private.

Every lookup of a code that does not exist and every wrong secret takes a token from the client address's
bucket (:class:`~.limits.Buckets`); with the bucket empty every lookup from that address is refused (HTTP
429) before the database is asked.
"""

from __future__ import annotations

import secrets
from typing import Literal

from ..state.table import TableState
from .limits import Buckets, Limits

PRIVATE = ("this table is private: open the link its host shared (it holds the table's secret), "
           "or ask the host to let you in")
WRONG_KEY = "the link's secret does not match this table's: ask the host for the link"

Admission = Literal["in", "ask", "wrong"]


class Lookups:
    """Failed lookups (unknown codes, wrong secrets) per client address."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.buckets = Buckets(limits.lookup_rate, limits.lookup_burst)

    async def refused(self, address: str) -> bool:
        """Whether ``address`` has used up its failed lookups (answer 429 without looking).  A coroutine: with
        many processes the bucket is in Redis (:class:`~fiftysix.server.cluster.counters.SharedLookups`)."""
        return self.buckets.empty(address)

    async def failed(self, address: str) -> None:
        self.buckets.take(address)

    def refusal(self) -> str:
        per_minute = self.limits.lookup_rate * 60
        return (f"too many lookups of tables that do not exist or with a wrong secret from your address "
                f"(at most {per_minute:g} a minute, {self.limits.lookup_burst} at once); try again in a minute")


def admission(state: TableState, player: str | None, key: object) -> Admission:
    """``"in"``: a public table, a member, or the right secret; ``"wrong"``: a wrong secret; ``"ask"``: none."""
    if not state.private or (player is not None and player in state.players):
        return "in"
    if not isinstance(key, str) or not key:
        return "ask"
    if state.secret is not None and secrets.compare_digest(key.encode(), state.secret.encode()):
        return "in"
    return "wrong"

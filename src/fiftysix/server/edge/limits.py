"""Limits that keep one client from knocking a server over or finding other people's tables.

- failed lookups (an unknown table code, a wrong link secret) per client address: a token bucket; past
  it every lookup from that address is answered 429 without asking the database;
- quotas per person and per client address: tables created an hour, open (unfinished) tables, tables
  with searching computer players; per table: spectators, members, renames, seat and host changes;
- the same for the whole server, so that many addresses together cannot exhaust it: tables created an hour,
  open tables, open websockets (below the process's file descriptors, :func:`descriptors`);
- work that costs CPU, per client address (token buckets) and overall: share QR codes, review uploads.

All numbers are :class:`Limits` fields (``Settings.limits``); the defaults are written in docs/server.md.
Counters live in memory and start afresh with the server; with many processes (``serve --redis``) the failed
lookups and the table quotas are counted in Redis instead (:mod:`fiftysix.server.cluster.counters`), with the
same refusals.
"""

from __future__ import annotations

import contextlib
import resource
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields, replace
from typing import Any

from ...core.meaning import N_, Meaning
from ..state.table import MATCH_OVER

INLINE_BOTS = frozenset({"random", "rules"})
"""Bots fast enough (well under a millisecond a move) to run on the event loop itself; the others search."""


@dataclass
class Limits:
    lookup_rate: float = 20 / 60          # failed lookups per client address: 20 a minute on average ...
    lookup_burst: int = 20                # ... and 20 at once
    tables_per_hour: int = 20             # tables one person may create in an hour
    tables_per_hour_address: int = 60     # ... and one client address
    open_tables: int = 10                 # unfinished tables one person may host at once
    open_tables_address: int = 30         # ... and one client address
    search_tables: int = 2                # open tables with searching computer players (pimc, ismcts), per person
    search_tables_address: int = 4        # ... and per client address
    spectators: int = 50                  # connections watching one table (not seated)
    members: int = 100                    # people who have joined one table
    renames_per_hour: int = 6             # a member's name changes at one table
    reactions_per_minute: int = 12        # reactions one member may send at one table, on average ...
    reaction_burst: int = 4               # ... and at once
    changes_per_minute: int = 20          # seat and host changes (sit, stand, pause, ...) of a member at a table ...
    change_burst: int = 10                # ... and at once
    table_changes_per_minute: int = 60    # the same changes of all members of one table together ...
    table_change_burst: int = 30          # ... and at once
    tables_per_hour_all: int = 1000       # tables all people together may create in an hour (the whole server)
    open_tables_all: int = 2000           # unfinished tables of all hosts together
    sockets: int = 0                      # open websockets of this process (0: 3/4 of its file descriptors)
    qr_per_minute: float = 30             # share QR codes one client address may have made a minute ...
    qr_burst: int = 10                    # ... and at once (a link asked for again costs nothing: cached)
    qr_running: int = 2                   # QR codes being made at once, by everyone (more: 503, ask again)
    qr_all_per_minute: float = 120        # new QR codes of all addresses together a minute ...
    qr_all_burst: int = 20                # ... and at once (more: the link without its image, 503)
    downloads_running: int = 2            # record files being made at once, by everyone (more: 503; made ones cached)
    reviews_per_minute: float = 6         # new reviews (not yet computed) one client address may ask for ...
    review_burst: int = 6                 # ... and at once; review jobs in all: Settings.review_queue


def limits_from(items: Iterable[str], base: Limits) -> Limits:
    """``base`` with ``NAME=NUMBER`` items applied (``fiftysix serve --limit``).

    :raises ValueError: naming the item that is not a known limit with a non-negative number.
    """
    known = {f.name: f.type for f in fields(Limits)}
    changes: dict[str, Any] = {}     # an int or a float, as the field is
    for item in items:
        name, _, value = item.partition("=")
        name = name.strip()
        if name not in known:
            raise ValueError(f"unknown limit {name!r} in {item!r}; limits are {', '.join(known)}")
        try:
            number: float | int = float(value) if known[name] in (float, "float") else int(value)
        except ValueError:
            raise ValueError(f"limit {name} needs a number, not {value!r}") from None
        if number < 0:
            raise ValueError(f"limit {name} must not be negative")
        changes[name] = number
    return replace(base, **changes)


class Buckets:
    """Token buckets by key (a client address): ``rate`` a second on average, ``burst`` at once.  Full
    buckets are forgotten when there are more than ``keep`` keys, so the map stays small."""

    def __init__(self, rate: float, burst: int, keep: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.keep, self.clock = rate, burst, keep, clock
        self._buckets: dict[str, tuple[float, float]] = {}   # key -> (tokens, when)

    def _tokens(self, key: str) -> float:
        tokens, when = self._buckets.get(key, (float(self.burst), self.clock()))
        return min(float(self.burst), tokens + (self.clock() - when) * self.rate)

    def empty(self, key: str) -> bool:
        """Whether ``key`` has used up its bucket (without taking from it)."""
        return self._tokens(key) < 1

    def allow(self, key: str = "") -> bool:
        """Take a token from ``key``'s bucket if it has one (one connection's messages: the key ``""``)."""
        if self.empty(key):
            return False
        self.take(key)
        return True

    def take(self, key: str) -> None:
        """Take one token from ``key``'s bucket (a failed lookup)."""
        self._buckets[key] = (max(0.0, self._tokens(key) - 1), self.clock())
        if len(self._buckets) > self.keep:
            self._forget_full()

    def _forget_full(self) -> None:
        for key in [k for k in self._buckets if self._tokens(k) >= self.burst]:
            del self._buckets[key]


FD_RESERVE = 64
"""File descriptors kept back from connections: the database, Redis, log and static files, the review workers."""


def descriptors(reserve: int = FD_RESERVE) -> int:
    """File descriptors this process may give to connections: its soft ``RLIMIT_NOFILE`` (see
    :func:`raise_descriptors`) less ``reserve``, at least 16."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = 1 << 20
    return max(16, soft - reserve)


def raise_descriptors() -> int:
    """Raise the soft ``RLIMIT_NOFILE`` to the hard limit (1,024 by default is too few for a busy server);
    the soft limit after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < target:
        with contextlib.suppress(ValueError, OSError):   # some systems cap it lower (macOS: OPEN_MAX)
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def socket_cap(limits: Limits) -> int:
    """Open websockets this process takes (:attr:`Limits.sockets`, or 3/4 of :func:`descriptors`: the
    rest stays for HTTP requests)."""
    return limits.sockets or max(8, descriptors() * 3 // 4)


class QuotaError(Exception):
    """A request over a quota; the message names the limit."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


ALL = "all"                       # the key of the whole server's counts
ALL_WHO = "this server's players"   # refusals over the whole server's quotas: who, and what to do
ALL_HOSTS = "this server has"
ALL_HINT = "the server is full; try again later"
SEARCHING = "tables with searching computer players"


@dataclass
class _Hosted:
    code: str
    player: str
    address: str | None
    searching: bool


class Quotas:
    """Tables created, open and with searching bots, per person and per client address."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits, self.clock = limits, clock
        self._created: dict[str, deque[float]] = {}     # "p:<id>" / "a:<address>" -> creation times
        self._hosted: dict[str, _Hosted] = {}            # code -> who created it

    def check_create(self, player: str, address: str | None, searching: bool, status_of: Callable[[str], str | None],
                     personal: bool = True) -> None:
        """Refuse a new table over a quota.

        :param status_of: a table's status by code (``None``: no longer loaded).
        :param personal: ``False`` for a club night's table: only the whole server's quotas apply (the event's
            form bounds its tables, and its owner's own quotas stay theirs).
        :raises QuotaError: naming the limit.
        """
        lim = self.limits
        self._prune(status_of)
        for key, most, who in ((f"p:{player}", lim.tables_per_hour, "you"),
                               (f"a:{address}", lim.tables_per_hour_address, "your address"),
                               (ALL, lim.tables_per_hour_all, ALL_WHO)):
            if key == "a:None" or (not personal and key != ALL):
                continue
            times = self._created.get(key, deque())
            while times and times[0] <= self.clock() - 3600:
                times.popleft()
            if len(times) >= most:
                raise QuotaError(per_hour_refusal(who, len(times), most))
        mine = [h for h in self._hosted.values() if personal and h.player == player]
        here = [h for h in self._hosted.values() if personal and address is not None and h.address == address]
        self._over("open tables", len(mine), lim.open_tables, "you host",
                   "finish or leave one first")
        self._over("open tables", len(here), lim.open_tables_address, "your address hosts",
                   "finish one first")
        self._over("open tables", len(self._hosted), lim.open_tables_all, ALL_HOSTS, ALL_HINT)
        if searching:
            self._over(SEARCHING, sum(h.searching for h in mine), lim.search_tables,
                       "you host", bot_hint())
            self._over(SEARCHING, sum(h.searching for h in here),
                       lim.search_tables_address, "your address hosts",
                       bot_hint())

    def check_search(self, code: str, status_of: Callable[[str], str | None]) -> None:
        """Refuse a searching computer player at table ``code`` over its host's quota.

        :raises QuotaError: naming the limit.
        """
        self._prune(status_of)
        hosted = self._hosted.get(code)
        if hosted is None or hosted.searching:
            return
        mine = [h for h in self._hosted.values() if h.player == hosted.player]
        here = [h for h in self._hosted.values() if hosted.address is not None and h.address == hosted.address]
        pick = bot_hint()
        self._over(SEARCHING, sum(h.searching for h in mine),
                   self.limits.search_tables, "the host has", pick)
        self._over(SEARCHING, sum(h.searching for h in here),
                   self.limits.search_tables_address, "the host's address has", pick)
        hosted.searching = True

    def created(self, code: str, player: str, address: str | None, searching: bool) -> None:
        now = self.clock()
        if len(self._created) > 10_000:   # forget who created nothing in the last hour
            for key in [k for k, times in self._created.items() if not times or times[-1] <= now - 3600]:
                del self._created[key]
        self._created.setdefault(f"p:{player}", deque()).append(now)
        if address is not None:
            self._created.setdefault(f"a:{address}", deque()).append(now)
        self._created.setdefault(ALL, deque()).append(now)
        self._hosted[code] = _Hosted(code, player, address, searching)

    def resumed(self, code: str, player: str, searching: bool) -> None:
        """A table brought back after a restart counts for its host (its address is not kept)."""
        self._hosted.setdefault(code, _Hosted(code, player, None, searching))

    def _prune(self, status_of: Callable[[str], str | None]) -> None:
        for code in [c for c in self._hosted if status_of(c) in (None, MATCH_OVER)]:
            del self._hosted[code]

    @staticmethod
    def _over(what: str, count: int, most: int, who: str, hint: str) -> None:
        if count >= most:
            raise QuotaError(over_refusal(what, count, most, who, hint))


# Whole sentences, one per who and what, so that each is translated as a sentence (server/edge/lang.py).
_PER_HOUR = {
    "you": N_("you created {count} tables in the last hour, the most allowed ({most} an hour); try again later"),
    "your address": N_("your address created {count} tables in the last hour, the most allowed ({most} an hour); "
                       "try again later"),
    ALL_WHO: N_("this server's players created {count} tables in the last hour, the most allowed ({most} an hour); "
                "try again later"),
}
_OVER = {
    ("you host", "open tables"): N_("you host {count} open tables, the most allowed ({most}); {hint}"),
    ("your address hosts", "open tables"): N_("your address hosts {count} open tables, the most allowed ({most}); "
                                              "{hint}"),
    (ALL_HOSTS, "open tables"): N_("this server has {count} open tables, the most allowed ({most}); {hint}"),
    ("you host", SEARCHING): N_("you host {count} tables with searching computer players, the most allowed "
                                "({most}); {hint}"),
    ("your address hosts", SEARCHING): N_("your address hosts {count} tables with searching computer players, the "
                                          "most allowed ({most}); {hint}"),
    ("the host has", SEARCHING): N_("the host has {count} tables with searching computer players, the most allowed "
                                    "({most}); {hint}"),
    ("the host's address has", SEARCHING): N_("the host's address has {count} tables with searching computer "
                                              "players, the most allowed ({most}); {hint}"),
}
_HINTS = (N_("finish or leave one first"), N_("finish one first"), N_("the server is full; try again later"))


def per_hour_refusal(who: str, count: int, most: int) -> Meaning:
    return Meaning(_PER_HOUR[who], {"count": count, "most": most})


def over_refusal(what: str, count: int, most: int, who: str, hint: str) -> Meaning:
    """``who`` over the quota of ``what`` (one of the pairs of ``_OVER``), and what to do (``hint``)."""
    return Meaning(_OVER[(who, what)], {"count": count, "most": most,
                                        "hint": hint if isinstance(hint, Meaning) else Meaning(hint)})


def bot_hint() -> Meaning:
    """What a host over a quota of searching computer players may choose instead."""
    return Meaning(N_("choose {bots} computer players"), {"bots": " or ".join(sorted(INLINE_BOTS))})


def searching_bots(bots: Iterable[str | None]) -> bool:
    """Whether any of these computer players searches (is not one of the inline bots)."""
    return any(b is not None and b not in INLINE_BOTS for b in bots)

"""Limits counted in Redis, so that they hold across the processes and outlive a process's restart.

Keys (every one expires by itself; times are Redis's own clock, ``TIME`` in the scripts, so the processes'
clocks do not matter):

- ``fs:lookups:<address>``: failed lookups of one client address (unknown codes, wrong secrets).  The token
  bucket of one process (:class:`~..limits.Buckets`: ``lookup_burst`` at once, ``lookup_rate`` a second) kept
  as one number, the time at which the bucket is full again (GCRA); the key expires then.
- ``fs:made:p:<player>``, ``fs:made:a:<address>``: tables created in the last hour, a sorted set of codes
  each scored with the time it stops counting (an hour after its creation).
- ``fs:open:p:<player>``, ``fs:open:a:<address>``: open tables (not match over, held by a writer), scored
  with the time they stop counting unless their writer renews them (every :data:`RENEW_OPEN` lease ticks,
  for :data:`OPEN_TTL` ms: a table of a dead process stops counting then, unless another takes it over).
- ``fs:made:all``, ``fs:open:all``: the same for the whole server (every host on every process).
- ``fs:search:p:<player>``, ``fs:search:a:<address>``: the same for tables with searching computer players.
- ``fs:host:<code>``: who created the table (``p`` player, ``a`` address, ``s`` searching), so that any
  process writing it later renews the right keys; it lives :data:`HOST_TTL` ms after its last renewal.
- ``fs:watch:<code>``: the connections watching the table (no seat) on every process,
  ``<process>:<number>``, scored with the time they stop counting unless their process renews them (every
  lease tick, for :data:`WATCH_TTL` ms): a dead process's spectators stop counting then.

The checks are Lua scripts that look and add in one step: two processes cannot both take the last place.
When Redis cannot be reached a check lets the request through (and logs it): the limits guard against
abuse, and a Redis outage should not stop play on top of the pause it already causes.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from ..edge.access import Lookups
from ..edge.limits import (
    ALL,
    ALL_HINT,
    ALL_HOSTS,
    ALL_WHO,
    SEARCHING,
    Limits,
    QuotaError,
    bot_hint,
    over_refusal,
    per_hour_refusal,
)

log = logging.getLogger("fiftysix.server")

HOUR = 3_600_000
OPEN_TTL = 30_000       # ms an open table counts for its host after its writer last renewed it
RENEW_OPEN = 5          # lease ticks between those renewals
WATCH_TTL = 10_000      # ms a spectator's connection counts after its process last renewed it
HOST_TTL = 7 * 24 * HOUR

_NOW = "local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) "

TAKE = _NOW + """
-- KEYS: sorted sets; ARGV[1]: the member to add to each; ARGV[1 + i]: its ttl in KEYS[i] (ms);
-- ARGV[1 + #KEYS + i]: how many members KEYS[i] may hold.  Adds to all, or returns {i, count} for the first full.
local n = #KEYS
for i = 1, n do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  local count = redis.call('ZCARD', KEYS[i])
  if count >= tonumber(ARGV[1 + n + i]) and not redis.call('ZSCORE', KEYS[i], ARGV[1]) then
    return {i, count}
  end
end
for i = 1, n do
  local ttl = tonumber(ARGV[1 + i])
  redis.call('ZADD', KEYS[i], now + ttl, ARGV[1])
  if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
end
return {0, 0}
"""

KEEP = _NOW + """
-- KEYS: sorted sets; ARGV[1]: ttl (ms); ARGV[1 + i]: the member of KEYS[i] that counts for ttl more.
local ttl = tonumber(ARGV[1])
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], now + ttl, ARGV[1 + i])
  if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
end
return #KEYS
"""

BUCKET = _NOW + """
-- KEYS[1]: when the bucket is full again (ms); ARGV[1]: ms per token; ARGV[2]: burst; ARGV[3]: '1' takes a
-- token.  Returns 1 when the bucket is empty (the address is refused), else 0.
local interval, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local full = tonumber(redis.call('GET', KEYS[1]) or now)
if full < now then full = now end
if ARGV[3] == '1' then
  full = math.min(full + interval, now + burst * interval)
  if full > now then redis.call('SET', KEYS[1], string.format('%d', full), 'PX', math.floor(full - now)) end
end
if full - now > (burst - 1) * interval then return 1 end
return 0
"""


def watch_key(code: str) -> str:
    return f"fs:watch:{code}"


def host_key(code: str) -> str:
    return f"fs:host:{code}"


def _keys(kind: str, player: str, address: str | None) -> list[str]:
    return [f"fs:{kind}:p:{player}"] + ([f"fs:{kind}:a:{address}"] if address is not None else [])


def _all(kind: str) -> str:
    """The whole server's count of ``kind`` ("made", "open")."""
    return f"fs:{kind}:{ALL}"


class Outage:
    """One warning line an outage of Redis, not one a request: the first count that fails says so, the next ones
    are quiet until a count succeeds again (a 10-second outage under load was 1,092 lines a process)."""

    def __init__(self) -> None:
        self.away = False
        self.missed = 0     # counts not made during this outage (said when Redis answers again)

    def failed(self, counting: str) -> None:
        self.missed += 1
        if not self.away:
            self.away = True
            log.warning("Redis is away: %s failed, so nothing is refused by those counts until it is back "
                        "(said once an outage)", counting)

    def answered(self) -> None:
        if self.away:
            log.warning("Redis answers again: %d counts were not made while it was away", self.missed)
            self.away, self.missed = False, 0


class Counters:
    """The scripts above on one Redis connection pool."""

    def __init__(self, redis: aioredis.Redis) -> None:
        self.redis = redis
        self.outage = Outage()
        self._take = redis.register_script(TAKE)
        self._keep = redis.register_script(KEEP)
        self._bucket = redis.register_script(BUCKET)

    async def take(self, places: list[tuple[str, int, int]], member: str) -> tuple[int, int] | None:
        """Add ``member`` to each sorted set of ``places`` ((key, ttl ms, most members)); ``None`` when done,
        else the index of the first full one and its count (nothing is added then)."""
        args: list[Any] = [member, *(ttl for _k, ttl, _m in places), *(most for _k, _t, most in places)]
        index, count = await self._take(keys=[k for k, _t, _m in places], args=args)
        return None if int(index) == 0 else (int(index) - 1, int(count))

    async def keep(self, places: Iterable[tuple[str, str]], ttl: int) -> None:
        """Let each (key, member) count ``ttl`` ms more."""
        pairs = list(places)
        for start in range(0, len(pairs), 500):
            chunk = pairs[start:start + 500]
            await self._keep(keys=[k for k, _m in chunk], args=[ttl, *(m for _k, m in chunk)])

    async def drop(self, places: Iterable[tuple[str, str]]) -> None:
        """Stop counting each (key, member)."""
        pairs = list(places)
        if pairs:
            pipe = self.redis.pipeline(transaction=False)
            for key, member in pairs:
                pipe.zrem(key, member)
            await pipe.execute()

    async def bucket(self, key: str, rate: float, burst: int, take: bool) -> bool:
        """Whether the token bucket ``key`` is empty (after taking a token, with ``take``)."""
        interval = int(1000 / rate) if rate > 0 else 365 * 24 * HOUR
        return bool(await self._bucket(keys=[key], args=[max(1, interval), burst, "1" if take else "0"]))


class SharedLookups(Lookups):
    """Failed lookups per client address, counted in Redis (``fs:lookups:<address>``)."""

    def __init__(self, limits: Limits, counters: Counters) -> None:
        super().__init__(limits)
        self.counters = counters

    async def _bucket(self, address: str, take: bool) -> bool:
        try:
            empty = await self.counters.bucket(f"fs:lookups:{address}", self.limits.lookup_rate,
                                               self.limits.lookup_burst, take)
        except RedisError:
            self.counters.outage.failed("counting failed lookups")
            return False
        self.counters.outage.answered()
        return empty

    async def refused(self, address: str) -> bool:
        return await self._bucket(address, False)

    async def failed(self, address: str) -> None:
        await self._bucket(address, True)


class Hosted:
    """Who created a table, as ``fs:host:<code>`` has it."""

    def __init__(self, player: str, address: str | None, searching: bool) -> None:
        self.player, self.address, self.searching = player, address, searching

    def places(self, code: str) -> list[tuple[str, str]]:
        """The (key, member) pairs this open table counts in."""
        kinds = ["open", "search"] if self.searching else ["open"]
        return [(key, code) for kind in kinds for key in _keys(kind, self.player, self.address)] \
            + [(_all("open"), code)]


class SharedQuotas:
    """The table quotas of :class:`~..limits.Quotas`, counted in Redis; the same refusals."""

    def __init__(self, limits: Limits, counters: Counters) -> None:
        self.limits, self.counters = limits, counters

    async def check_create(self, code: str, player: str, address: str | None, searching: bool,
                           personal: bool = True) -> Hosted:
        """Count a new table ``code`` for its host and address, or refuse it (nothing counted then); with
        ``personal`` false (a club night's table) for the whole server only.

        :raises QuotaError: naming the limit, as :meth:`~..limits.Quotas.check_create` does.
        """
        lim = self.limits
        whos = ["you", "your address"]
        places: list[tuple[str, int, int]] = []
        refusals: list[Any] = []
        own = _keys("made", player, address) if personal else []     # a club night's table: none of its own
        for key, most, who in zip(own, (lim.tables_per_hour, lim.tables_per_hour_address),
                                  whos, strict=False):
            places.append((key, HOUR, most))
            refusals.append(lambda n, m, w=who: per_hour_refusal(w, n, m))
        hints = ("finish or leave one first", "finish one first")
        for key, most, who, hint in zip(_keys("open", player, address) if personal else [],
                                        (lim.open_tables, lim.open_tables_address),
                                        ("you host", "your address hosts"), hints, strict=False):
            places.append((key, OPEN_TTL, most))
            refusals.append(lambda n, m, w=who, h=hint: over_refusal("open tables", n, m, w, h))
        # the whole server's counts: many addresses together
        places.append((_all("made"), HOUR, lim.tables_per_hour_all))
        refusals.append(lambda n, m: per_hour_refusal(ALL_WHO, n, m))
        places.append((_all("open"), OPEN_TTL, lim.open_tables_all))
        refusals.append(lambda n, m: over_refusal("open tables", n, m, ALL_HOSTS, ALL_HINT))
        if searching and personal:
            for key, most, who in zip(_keys("search", player, address),
                                      (lim.search_tables, lim.search_tables_address),
                                      ("you host", "your address hosts"), strict=False):
                places.append((key, OPEN_TTL, most))
                refusals.append(lambda n, m, w=who: over_refusal(SEARCHING, n, m,
                                                                 w, bot_hint()))
        hosted = Hosted(player, address, searching)
        try:
            full = await self.counters.take(places, code)
            if full is None:
                await self.remember(code, hosted)
        except RedisError:
            self.counters.outage.failed("counting a new table")
            return hosted
        self.counters.outage.answered()
        if full is not None:
            index, count = full
            raise QuotaError(refusals[index](count, places[index][2]))
        return hosted

    async def uncount(self, code: str, hosted: Hosted) -> None:
        """Take back the count of a table that could not be stored after all."""
        await self.counters.drop([*((k, code) for k in _keys("made", hosted.player, hosted.address)),
                                  (_all("made"), code), *hosted.places(code)])

    async def check_search(self, code: str, hosted: Hosted) -> None:
        """Count table ``code`` as one with searching computer players for its host, or refuse it.

        :raises QuotaError: naming the limit.
        """
        if hosted.searching:
            return
        lim = self.limits
        places = [(key, OPEN_TTL, most) for key, most in zip(_keys("search", hosted.player, hosted.address),
                                                             (lim.search_tables, lim.search_tables_address),
                                                             strict=False)]
        try:
            full = await self.counters.take(places, code)
        except RedisError:
            self.counters.outage.failed("counting a table's searching players")
            return
        self.counters.outage.answered()
        if full is not None:
            who = ("the host has", "the host's address has")[full[0]]
            raise QuotaError(over_refusal(SEARCHING, full[1], places[full[0]][2],
                                          who, bot_hint()))
        hosted.searching = True
        await self.remember(code, hosted)

    async def remember(self, code: str, hosted: Hosted) -> None:
        pipe = self.counters.redis.pipeline(transaction=False)
        pipe.hset(host_key(code), mapping={"p": hosted.player, "a": hosted.address or "", "s": int(hosted.searching)})
        pipe.pexpire(host_key(code), HOST_TTL)
        await pipe.execute()

    async def recall(self, codes: list[str]) -> dict[str, Hosted]:
        """Who created each of ``codes`` (those Redis still knows)."""
        pipe = self.counters.redis.pipeline(transaction=False)
        for code in codes:
            pipe.hgetall(host_key(code))
        found = {}
        for code, row in zip(codes, await pipe.execute(), strict=True):
            if row:
                row = {k.decode(): v.decode() for k, v in row.items()}
                found[code] = Hosted(row["p"], row["a"] or None, row["s"] == "1")
        return found

"""The line for today's deals shared by every process through Redis (``--redis``): one first-come line, so a place
asked for at one process is the same place at another, while each process still plays at most its own
:attr:`capacity` of sets (the computers it runs are its cost).  Without Redis: :class:`.admission.Admission`.

Keys (``fs:daily:``): ``line`` (a sorted set: player by arrival number, from the counter ``seq``), ``asked``
(player by when they last asked, in Redis's ms: a place not asked about for :data:`.admission.FORGET` s is given
up), ``playing`` (a hash: player -> the process whose place they hold), ``here:<process>`` (a set: the players
whose sets that process plays; it lives a day after its process last touched it, so a dead process's places go),
``ended`` (when sets in play ended, every process's, for the estimate) and ``since`` (when the line began).
Each ask and each release is one Lua script, so two processes never hand out one place or the same arrival
number; the times are Redis's own clock."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .admission import FORGET, WINDOW, Waiting

PREFIX = "fs:daily:"
HERE_TTL = 86_400       # seconds a process's set of places lives after the process last touched it

_NOW = "local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) "

ASK = _NOW + """
local line, asked, seq, playing, here, ended, since = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7]
local player, me, capacity = ARGV[1], ARGV[2], tonumber(ARGV[3])
local forget, window, ttl, prefix = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7]
redis.call('SETNX', since, now)
redis.call('EXPIRE', here, ttl)
local holder = redis.call('HGET', playing, player)
if holder then
  if redis.call('SISMEMBER', prefix .. 'here:' .. holder, player) == 1 then return {0, 0, 0, 0} end
  redis.call('HDEL', playing, player)       -- its process's places are gone: it asks as anyone
end
for _, p in ipairs(redis.call('ZRANGEBYSCORE', asked, '-inf', now - forget)) do
  redis.call('ZREM', line, p)
  redis.call('ZREM', asked, p)
end
redis.call('ZREMRANGEBYSCORE', ended, '-inf', now - window)
if not redis.call('ZSCORE', line, player) then redis.call('ZADD', line, redis.call('INCR', seq), player) end
redis.call('ZADD', asked, now, player)
local place = redis.call('ZRANK', line, player) + 1
local free = capacity - redis.call('SCARD', here)
if place <= free then
  redis.call('ZREM', line, player)
  redis.call('ZREM', asked, player)
  redis.call('SADD', here, player)
  redis.call('EXPIRE', here, ttl)
  redis.call('HSET', playing, player, me)
  return {0, 0, 0, 0}
end
return {place, place - math.max(free, 0), redis.call('ZCARD', ended),
        math.min(window, now - tonumber(redis.call('GET', since)))}
"""

RELEASE = _NOW + """
local playing, here, ended, seq = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local player, me = ARGV[1], ARGV[2]
if redis.call('SREM', here, player) == 1 then
  if redis.call('HGET', playing, player) == me then redis.call('HDEL', playing, player) end
  redis.call('ZADD', ended, now, me .. ':' .. redis.call('INCR', seq))
end
return 0
"""


class SharedLine:
    """The line in Redis (module docstring) for the process ``me`` with ``capacity`` places; ``in_play``: is that
    player's table still held and playing here (a place whose table was left idle and unloaded is freed)."""

    def __init__(self, redis: Any, me: str, capacity: int, in_play: Callable[[str], bool]) -> None:
        self.redis, self.me, self.capacity, self.in_play = redis, me, capacity, in_play
        self.here = f"{PREFIX}here:{me}"
        self._ask = redis.register_script(ASK)
        self._release = redis.register_script(RELEASE)

    async def ask(self, player: str) -> Waiting | None:
        """``None``: ``player`` may play now (a place here, or their set is in play at some process); else their
        place in the one line and the estimated seconds."""
        for held in await self.redis.smembers(self.here):
            gone = held.decode() if isinstance(held, bytes) else str(held)
            if gone != player and not self.in_play(gone):
                await self.release(gone)
        keys = [PREFIX + k for k in ("line", "asked", "seq", "playing")] + [self.here] + [
            PREFIX + k for k in ("ended", "since")]
        place, ahead, ended, span = (int(v) for v in await self._ask(keys=keys, args=[
            player, self.me, self.capacity, int(FORGET * 1000), int(WINDOW * 1000), HERE_TTL, PREFIX]))
        if place == 0:
            return None
        return Waiting(place, ahead * max(span / 1000, 1.0) / ended if ended else None)

    async def release(self, player: str) -> None:
        """``player``'s set ended here (finished, or its table left idle): a place here is free."""
        await self._release(keys=[PREFIX + "playing", self.here, PREFIX + "ended", PREFIX + "seq"],
                            args=[player, self.me])

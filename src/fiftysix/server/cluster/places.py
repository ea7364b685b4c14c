"""One tap to a game across processes (server/play): a person's taps of Play held apart by a lock in Redis, and the
table Play seated them at remembered there, so that a tap on any process finds it.

Keys (each expires by itself):

- ``fs:play:hold:<player>``: redis-py's :class:`~redis.asyncio.lock.Lock` (``SET NX PX`` with a random token,
  released by a script only while the token is still there): held from a tap's reading of the tables to its seat
  being taken and remembered.  It runs out after :data:`HOLD` seconds (a process that died holding it does not
  stop the person for longer); the next tap waits for it, polling every :data:`POLL` seconds.
- ``fs:play:at:<player>``: the code of the table Play last seated them at, for :data:`REMEMBER` seconds.  Only a
  hint: the tap that reads it checks in the table's log that the person still holds a seat there.

When Redis cannot be reached the tap goes on without the lock and the hint (and logs it): a Redis outage pauses
the tables anyway, and Play should not add a refusal of its own to it.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator

import redis.asyncio as aioredis
from redis.exceptions import LockError, RedisError

from ..table.places import Places

log = logging.getLogger("fiftysix.server")

HOLD = 30.0         # seconds a tap may hold its person's lock at most (seating takes well under a second)
POLL = 0.05         # seconds between a waiting tap's tries
REMEMBER = 12 * 3600


def hold_key(player: str) -> str:
    return f"fs:play:hold:{player}"


def at_key(player: str) -> str:
    return f"fs:play:at:{player}"


class SharedPlaces(Places):
    """The per-person lock of Play and where Play seated each person, in Redis, shared by every process."""

    def __init__(self, redis: aioredis.Redis) -> None:
        self.redis = redis

    @contextlib.asynccontextmanager
    async def hold(self, player: str) -> AsyncIterator[None]:
        """Hold ``player``'s other taps, on every process, until this one is done (waiting for one before)."""
        lock = self.redis.lock(hold_key(player), timeout=HOLD, sleep=POLL, blocking_timeout=HOLD,
                               raise_on_release_error=False)
        try:
            got = await lock.acquire()
        except RedisError as e:
            log.warning("play: Redis did not answer (%s); %s's tap goes on without the lock", e, player)
            got = False
        try:
            yield
        finally:
            if got:
                with contextlib.suppress(RedisError, LockError):    # ran out meanwhile: another holds it now
                    await lock.release()

    async def recall(self, player: str) -> str | None:
        """The code of the table Play last seated ``player`` at (a hint: check it), or ``None``."""
        try:
            found = await self.redis.get(at_key(player))
        except RedisError as e:
            log.warning("play: Redis did not answer (%s); where %s sits is not known here", e, player)
            return None
        return found.decode() if isinstance(found, bytes) else found if isinstance(found, str) else None

    async def remember(self, player: str, code: str) -> None:
        """Play seated ``player`` at table ``code``."""
        try:
            await self.redis.set(at_key(player), code, ex=REMEMBER)
        except RedisError as e:
            log.warning("play: Redis did not answer (%s); where %s sits is not kept", e, player)

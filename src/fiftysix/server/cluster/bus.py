"""Redis pub/sub between the server processes (the ``redis`` package's asyncio client).

Channels: ``fs:p:<process>`` each process's inbox (forwarded changes and their answers, who is online
where), ``fs:t:<code>`` a table's applied events (the writer publishes each once; every process with a
replica of the table subscribes), ``fs:all`` what every process must hear (sign-outs).
Messages are JSON objects.  Publishing from a table's writer goes through one queue and one task, so a
table's events reach Redis in their order without the writer waiting for Redis.

When Redis goes away: every call is bounded by a timeout; one task writes this process's heartbeat every
second and is the judge of Redis's health (reported to :class:`~..services.Services`); what is published
meanwhile is dropped (replicas read the log when they see a gap, and all of them read it once on Redis's
return); when the heartbeat succeeds again the subscriber is made anew, subscribed to every channel this
process wants (kept here, whatever Redis saw), and ``on_back`` tells the hub.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from ..services import REDIS, Services
from .messages import Heard

log = logging.getLogger("fiftysix.server")

ALL = "fs:all"
ALIVE_MS = 3000      # a process's heartbeat key lives this long unless renewed
BEAT = 1.0           # seconds between two heartbeats (and two looks at whether Redis is back)
TIMEOUT = 3.0        # seconds any one Redis call may take before it counts as failed


def inbox(process: str) -> str:
    return f"fs:p:{process}"


def table_channel(code: str) -> str:
    return f"fs:t:{code}"


Handler = Callable[[str, Heard], None]


class Bus:
    """One process's Redis: a subscriber connection read by one task, a publishing queue, a heartbeat."""

    def __init__(self, url: str, me: str, handler: Handler, services: Services | None = None) -> None:
        self.url, self.me, self.handler = url, me, handler
        self.services = services or Services()
        self.redis: aioredis.Redis = aioredis.Redis.from_url(url, socket_timeout=TIMEOUT,
                                                             socket_connect_timeout=TIMEOUT)
        self.pubsub = self.redis.pubsub()
        self.channels: set[str] = {inbox(me), ALL}     # what this process listens to, whatever Redis saw
        self.on_back: Callable[[], None] | None = None  # the hub's: Redis answers again after an outage
        self._out: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._look = asyncio.Event()     # a call failed: the heartbeat looks at once, not in a second
        self._stale = False              # the subscriber's connection failed: make a new one

    @property
    def up(self) -> bool:
        return self.services.ok(REDIS)

    async def start(self) -> None:
        """Connect, subscribe to this process's inbox and ``fs:all``, start reading, publishing and beating.

        :raises redis.exceptions.ConnectionError: when Redis cannot be reached.
        """
        await self.redis.ping()
        await self.pubsub.subscribe(*self.channels)
        await self.heartbeat()
        self._tasks = [asyncio.create_task(self._read(), name="redis reader"),
                       asyncio.create_task(self._publish_loop(), name="redis publisher"),
                       asyncio.create_task(self._beat_loop(), name="redis heartbeat")]

    async def stop(self) -> None:
        for _ in range(100):     # what the writer published last still goes out (bounded wait)
            if self._out.empty() or not self.up:
                break
            await asyncio.sleep(0.01)
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def watch(self, channel: str) -> None:
        """Listen to ``channel`` (now, or when Redis is back)."""
        self.channels.add(channel)
        await self._tell_subscriber(self.pubsub.subscribe, channel, "subscribing")

    async def unwatch(self, channel: str) -> None:
        self.channels.discard(channel)
        await self._tell_subscriber(self.pubsub.unsubscribe, channel, "unsubscribing")

    async def _tell_subscriber(self, call: Callable[[str], Awaitable[object]], channel: str, doing: str) -> None:
        """Tell the subscriber now while Redis is up; a new one takes :attr:`channels` as they are then."""
        if self.up:
            try:
                await call(channel)
            except RedisError:
                self._stale = True
                self._failed(doing)

    def _failed(self, doing: str) -> None:
        """A call failed: the heartbeat judges at once whether Redis is away (one failure may be a pooled
        connection from before Redis restarted; the heartbeat's own call is retried on a fresh one)."""
        if self.up:
            log.info("%s in Redis failed; asking whether Redis is there", doing)
        self._look.set()

    async def _beat_loop(self) -> None:
        """The one judge of Redis's health: a heartbeat every :data:`BEAT` seconds (at once after a failed
        call); when it fails Redis is away; when it succeeds after that (or after the subscriber failed), a new
        subscriber listens to every wanted channel and ``on_back`` tells the hub what it may have missed."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._look.wait(), BEAT)
            self._look.clear()
            try:
                await self.heartbeat()
                missed = self._stale or not self.up
                if missed:
                    await self._resubscribe()
            except RedisError:
                self._stale = True
                self.services.report(REDIS, False)
                await asyncio.sleep(BEAT / 4)   # not faster while it is away, however often calls fail
                continue
            except Exception:
                log.exception("the Redis heartbeat failed")
                continue
            self.services.report(REDIS, True)
            if missed and self.on_back is not None:
                self.on_back()

    async def _resubscribe(self) -> None:
        """A new subscriber with every channel this process wants (the old one's connection died with Redis)."""
        old, self.pubsub = self.pubsub, self.redis.pubsub()
        with contextlib.suppress(Exception):
            await old.aclose()
        await self.pubsub.subscribe(*self.channels)
        self._stale = False

    def publish_soon(self, channel: str, message: Heard) -> None:
        """Queue a message; the publisher sends queued messages in order, many in one round trip."""
        self._out.put_nowait((channel, json.dumps(message, separators=(",", ":")).encode()))

    async def publish(self, channel: str, message: Heard) -> int:
        """Publish now; how many subscribers got it (0: nobody listens, e.g. a dead process's inbox).

        :raises redis.exceptions.RedisError: when Redis is away (the heartbeat then judges at once).
        """
        try:
            return int(await self.redis.publish(channel, json.dumps(message, separators=(",", ":"))))
        except RedisError:
            self._failed("publishing")
            raise

    async def heartbeat(self) -> None:
        await self.redis.set(f"fs:alive:{self.me}", "1", px=ALIVE_MS)

    async def alive(self, processes: list[str]) -> set[str]:
        """Those of ``processes`` whose heartbeat is fresh."""
        if not processes:
            return set()
        values = await self.redis.mget([f"fs:alive:{p}" for p in processes])
        return {p for p, v in zip(processes, values, strict=True) if v is not None}

    async def _publish_loop(self) -> None:
        while True:
            batch = [await self._out.get()]
            while not self._out.empty() and len(batch) < 512:
                batch.append(self._out.get_nowait())
            if not self.up:     # dropped: the replicas read the log when Redis is back
                continue
            try:
                if len(batch) == 1:
                    await self.redis.publish(*batch[0])
                else:
                    pipe = self.redis.pipeline(transaction=False)
                    for channel, data in batch:
                        pipe.publish(channel, data)
                    await pipe.execute()
            except RedisError:   # replicas notice the gap in versions and read the log instead
                self._failed(f"publishing {len(batch)} messages")
            except Exception:
                log.exception("publishing %d messages to Redis failed", len(batch))
                await asyncio.sleep(0.1)

    async def _read(self) -> None:
        while True:
            if self._stale or not self.up:    # the heartbeat makes a new subscriber when Redis answers
                await asyncio.sleep(0.2)
                continue
            pubsub = self.pubsub
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                if pubsub is self.pubsub:
                    self._stale = True
                    self._failed("reading")
                await asyncio.sleep(0.2)
                continue
            if message is None or message.get("type") != "message":
                continue
            channel = message["channel"]
            channel = channel.decode() if isinstance(channel, bytes) else str(channel)
            try:
                data: Heard = json.loads(message["data"])     # published by this server's processes (messages.py)
                self.handler(channel, data)
            except Exception:
                log.exception("a message on %s could not be handled", channel)

"""Redis pub/sub between the server processes (the ``redis`` package's asyncio client).

Channels: ``fs:p:<process>`` each process's inbox (forwarded changes and their answers, who is online
where), ``fs:t:<code>`` a table's applied events (the writer publishes each once; every process with a
replica of the table subscribes), ``fs:all`` what every process must hear (sign-outs).
Messages are JSON objects.  Publishing from a table's writer goes through one queue and one task, so a
table's events reach Redis in their order without the writer waiting for Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

import redis.asyncio as aioredis

log = logging.getLogger("fiftysix.server")

ALL = "fs:all"
ALIVE_MS = 3000      # a process's heartbeat key lives this long unless renewed


def inbox(process: str) -> str:
    return f"fs:p:{process}"


def table_channel(code: str) -> str:
    return f"fs:t:{code}"


Handler = Callable[[str, dict[str, Any]], None]


class Bus:
    """One process's Redis: a subscriber connection read by one task, a publishing queue, a heartbeat."""

    def __init__(self, url: str, me: str, handler: Handler) -> None:
        self.url, self.me, self.handler = url, me, handler
        self.redis: aioredis.Redis = aioredis.Redis.from_url(url)
        self.pubsub = self.redis.pubsub()
        self._out: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        """Connect, subscribe to this process's inbox and ``fs:all``, start reading and publishing.

        :raises redis.exceptions.ConnectionError: when Redis cannot be reached.
        """
        await self.redis.ping()
        await self.pubsub.subscribe(inbox(self.me), ALL)
        self._tasks = [asyncio.create_task(self._read(), name="redis reader"),
                       asyncio.create_task(self._publish_loop(), name="redis publisher")]

    async def stop(self) -> None:
        for _ in range(100):     # what the writer published last still goes out (bounded wait)
            if self._out.empty():
                break
            await asyncio.sleep(0.01)
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()  # type: ignore[no-untyped-call]
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def watch(self, channel: str) -> None:
        await self.pubsub.subscribe(channel)

    async def unwatch(self, channel: str) -> None:
        await self.pubsub.unsubscribe(channel)

    def publish_soon(self, channel: str, message: dict[str, Any]) -> None:
        """Queue a message; the publisher sends queued messages in order, many in one round trip."""
        self._out.put_nowait((channel, json.dumps(message, separators=(",", ":")).encode()))

    async def publish(self, channel: str, message: dict[str, Any]) -> int:
        """Publish now; how many subscribers got it (0: nobody listens, e.g. a dead process's inbox)."""
        return int(await self.redis.publish(channel, json.dumps(message, separators=(",", ":"))))

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
            try:
                if len(batch) == 1:
                    await self.redis.publish(*batch[0])
                else:
                    pipe = self.redis.pipeline(transaction=False)
                    for channel, data in batch:
                        pipe.publish(channel, data)
                    await pipe.execute()
            except Exception:   # replicas notice the gap in versions and read the log instead
                log.exception("publishing %d messages to Redis failed", len(batch))
                await asyncio.sleep(0.1)

    async def _read(self) -> None:
        while True:
            try:
                message = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("reading from Redis failed; trying again")
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message":
                continue
            channel = message["channel"]
            channel = channel.decode() if isinstance(channel, bytes) else str(channel)
            try:
                data = json.loads(message["data"])
                self.handler(channel, data)
            except Exception:
                log.exception("a message on %s could not be handled", channel)

"""Record downloads on a whole-server budget: the work a stranger chooses must not cost everyone else's tables.

A match's record is large (every deal of the match), and turning it into JSON is CPU a stranger chooses by
asking.  A finished deal's record never changes, and a match's record changes only when a deal is added, so a
record's text is kept once made (:class:`Downloads`, most recently asked first, at most ``cache_bytes`` in all),
keyed by what it holds.  A record not in the cache is encoded in a thread, at most ``running`` at once for the whole
server; one more is refused at once (503 with ``Retry-After``, and the reason in the asker's language) instead of
queueing behind the others.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Hashable

from ...core.meaning import N_, Meaning

BUSY = Meaning(N_("the server is busy preparing other downloads; try again in a moment"))


class DownloadBusy(Exception):
    """Every download slot is taken: ask again in a moment."""


class Downloads:
    """Encoded records by key, and the whole server's count of records being encoded."""

    def __init__(self, running: int = 2, cache_bytes: int = 16 << 20) -> None:
        self.running_limit, self.cache_bytes = running, cache_bytes
        self.running = 0
        self.made = 0                     # records encoded (not taken from the cache), for tests and the bench
        self._texts: OrderedDict[Hashable, str] = OrderedDict()
        self._size = 0

    def cached(self, key: Hashable) -> str | None:
        text = self._texts.get(key)
        if text is not None:
            self._texts.move_to_end(key)
        return text

    async def text(self, key: Hashable, record: object) -> str:
        """``record`` as indented JSON: from the cache, else encoded in a thread.

        :raises DownloadBusy: when ``running`` records are being encoded already.
        """
        found = self.cached(key)
        if found is not None:
            return found
        if self.running >= self.running_limit:
            raise DownloadBusy(BUSY)
        self.running += 1
        try:
            text = await asyncio.to_thread(lambda: json.dumps(record, indent=1) + "\n")
        finally:
            self.running -= 1
        self.made += 1
        self._keep(key, text)
        return text

    def _keep(self, key: Hashable, text: str) -> None:
        if len(text) > self.cache_bytes // 4:      # one huge record would push out every other
            return
        old = self._texts.pop(key, None)
        if old is not None:
            self._size -= len(old)
        self._texts[key] = text
        self._size += len(text)
        while self._size > self.cache_bytes:
            _, dropped = self._texts.popitem(last=False)
            self._size -= len(dropped)


__all__ = ["BUSY", "DownloadBusy", "Downloads"]

"""Connection-level limits under uvicorn: slow headers and bodies time out, and one address may hold only
so many connections at once.

uvicorn times out an idle keep-alive connection but not a request that arrives slowly: a client sending
its headers a byte every few seconds (slowloris) holds a connection, and a file descriptor, for ever.
:func:`server_config` gives uvicorn its own HTTP protocol class (whichever it would pick, httptools or
h11) with two timers added, and its websocket protocol class with the per-address count carried over from
the HTTP connection that was upgraded:

- **headers**: from the connection's start (or the first byte of the next request on a kept-alive
  connection) to the end of the request's headers, at most :attr:`EdgeLimits.header_timeout` seconds,
  else ``408`` and the connection is closed;
- **body**: from the end of the headers to the end of the body, at most :attr:`EdgeLimits.body_timeout`
  seconds (bodies are 16 KB at most), else the connection is closed;
- **header size**: at most :attr:`EdgeLimits.header_bytes` bytes before the headers are complete, else
  ``431`` and the connection is closed (h11 stops at 16 KB by itself; httptools would keep them all);
- **per address**: at most :attr:`EdgeLimits.per_address` open connections (HTTP and websocket together)
  from one IPv4 address or one IPv6 /64 (one machine's usual share); one more is answered ``429`` and
  closed at once.  Trusted proxies (``exempt``) are not counted: behind one, let the proxy limit clients;
- **in all**: at most :attr:`EdgeLimits.connections` open connections of every address together (by default
  the process's file descriptors less a reserve for the database and files: :func:`~.limits.descriptors`,
  after the soft limit is raised to the hard one); one more is answered ``503`` with ``Retry-After``;
- **writes**: a websocket whose client does not read for :attr:`EdgeLimits.send_timeout` seconds while the
  server has data for it is cut off (its buffer is dropped and its descriptor freed): the server's buffers
  and descriptors are not held by clients that never read; the kernel's send buffer of a connection is
  :attr:`EdgeLimits.send_buffer` bytes (Linux grows it to 4 MB for a client that never reads).

:func:`server_config` also keeps link secrets out of the log: :class:`RedactSecrets` on uvicorn's loggers
replaces the value of ``k=``, ``key=`` and ``token=`` in logged paths with ``***``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import re
import socket
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import uvicorn
from uvicorn.protocols.utils import ClientDisconnected

from .limits import descriptors, raise_descriptors

log = logging.getLogger("fiftysix.server")


@dataclass(frozen=True)
class EdgeLimits:
    header_timeout: float = 10.0     # seconds for a request's headers (0: no limit)
    body_timeout: float = 20.0       # seconds for a request's body after its headers (0: no limit)
    per_address: int = 64            # open connections from one address (0: no limit)
    header_bytes: int = 65536        # bytes a request may send before its headers are complete
    exempt: tuple[str, ...] = ()     # addresses not counted (trusted proxies); "*" for all
    connections: int = 0             # open connections in all (0: the file descriptors less a reserve)
    send_timeout: float = 10.0       # seconds a websocket's client may leave the server's data unread (0: no limit)
    send_buffer: int = 262144        # the kernel's send buffer per connection, bytes (0: the system's own)


def address_key(peer: Any) -> str | None:
    """What a connection counts against: its IPv4 address or its IPv6 /64; ``None`` for no IP peer."""
    if not isinstance(peer, tuple) or not peer or not isinstance(peer[0], str):
        return None
    try:
        ip = ipaddress.ip_address(peer[0].split("%")[0])
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class Slots:
    """Open connections per address, shared by the HTTP and websocket protocols of one server."""

    def __init__(self, limit: int, exempt: tuple[str, ...] = (), total: int = 0) -> None:
        self.limit, self.total = limit, total      # per address, and in all (0: no limit)
        self.count = 0                             # open connections in all
        self.exempt = frozenset(a if a == "*" else address_key((a,)) or a for a in exempt)
        self.open: Counter[str] = Counter()
        # transport being upgraded to a websocket -> its address and whether it counts in the total
        self.handover: dict[object, tuple[str | None, bool]] = {}
        # connections waiting for a request's headers, oldest first (what is given up when all are taken)
        self.waiting: dict[asyncio.BaseProtocol, asyncio.Transport] = {}
        self.evicted = 0

    def evict(self) -> bool:
        """Make room when every connection is taken: close the one that has waited longest for a request's
        headers (slow clients hold descriptors that way; players at a table and requests being served are never
        given up); ``False`` when no connection is waiting."""
        while self.waiting:
            protocol = next(iter(self.waiting))
            transport = self.waiting.pop(protocol)
            if not transport.is_closing():
                transport.abort()
                self.evicted += 1
                return True
        return False

    def full(self) -> bool:
        """Whether the connections of every address together are at :attr:`total`."""
        return 0 < self.total <= self.count

    def take(self, key: str | None) -> bool:
        """Count one more connection from ``key``; ``False`` (nothing counted) when it is over the limit."""
        if key is None or self.limit <= 0 or "*" in self.exempt or key in self.exempt:
            return True
        if self.open[key] >= self.limit:
            return False
        self.open[key] += 1
        return True

    def release(self, key: str | None) -> None:
        if key is not None and self.open.get(key, 0) > 0:
            self.open[key] -= 1
            if not self.open[key]:
                del self.open[key]

    def close(self, key: str | None, counted: bool) -> None:
        """A connection from ``key`` is gone: release its slot, and its place in the total when it ``counted``."""
        self.release(key)
        if counted:
            self.count -= 1


def _plain(status: bytes, text: str, retry_after: int = 0) -> bytes:
    body = text.encode()
    retry = b"retry-after: " + str(retry_after).encode() + b"\r\n" if retry_after else b""
    return (b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
            + retry + b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


def guarded_http(base: type[asyncio.Protocol], limits: EdgeLimits, slots: Slots) -> type[asyncio.Protocol]:
    """``base`` (uvicorn's httptools or h11 protocol) with the header and body timers and the address count.

    It reads only what both of uvicorn's protocols have: ``cycle`` (the request being served, created when
    its headers are complete; ``more_body`` false once its body is), ``transport`` and ``loop``.
    """

    class Guarded(base):  # type: ignore[misc, valid-type]
        _timer: asyncio.TimerHandle | None = None
        _waiting: str = ""              # "headers" or "body": what the running timer waits for
        _slot: str | None = None
        _head: int = 0                  # bytes received while waiting for the headers

        _counted: bool = False

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            # the descriptors are nearly all taken: make room by closing the slowest request, else refuse
            if slots.full() and not slots.evict():
                log.warning("refused a connection: %d open in all, the most allowed", slots.count)
                transport.write(_plain(b"503 Service Unavailable", "the server has as many connections as it can "
                                       "take; try again in a minute", retry_after=60))
                transport.close()
                return
            slots.count += 1
            self._counted = True
            sock = transport.get_extra_info("socket")
            if limits.send_buffer > 0 and sock is not None:     # else it grows to megabytes a client never reads
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, limits.send_buffer)
            key = address_key(transport.get_extra_info("peername"))
            if not slots.take(key):
                log.info("refused a connection from %s: %d open already", key, slots.limit)
                transport.write(_plain(b"429 Too Many Requests",
                                       f"too many connections from your address (at most {slots.limit})"))
                transport.close()
                return
            self._slot = key
            self._arm("headers")

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            slots.close(self._slot, self._counted)
            self._slot, self._counted = None, False
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._waiting == "headers":      # httptools keeps every header line: bound them
                self._head += len(data)
                if self._head > limits.header_bytes:
                    log.info("closed a connection from %s: headers over %d bytes", self._slot, limits.header_bytes)
                    self._disarm()
                    self.transport.write(_plain(b"431 Request Header Fields Too Large",
                                                f"the request's headers are over {limits.header_bytes} bytes"))
                    self.transport.close()
                    return
            before = self.cycle
            super().data_received(data)
            if self.transport.get_protocol() is not self:   # upgraded to a websocket
                return
            cycle = self.cycle
            if cycle is not before:                  # a new request's headers are complete
                if cycle.more_body:
                    self._arm("body")
                else:
                    self._disarm()
            elif self._waiting == "body" and cycle is not None and not cycle.more_body:
                self._disarm()                       # its body is complete
            elif not self._waiting and (cycle is None or not cycle.more_body):
                self._arm("headers")                 # the first bytes of the next request

        def handle_websocket_upgrade(self, *args: Any) -> None:
            self._disarm()
            # the websocket protocol takes this connection's counts over
            slots.handover[self.transport] = (self._slot, self._counted)
            self._slot, self._counted = None, False
            super().handle_websocket_upgrade(*args)

        def _arm(self, what: str) -> None:
            self._disarm()
            seconds = limits.header_timeout if what == "headers" else limits.body_timeout
            self._head = 0
            self._waiting = what
            if what == "headers":
                slots.waiting[self] = self.transport
            if seconds > 0:
                self._timer = self.loop.call_later(seconds, self._expired, what)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = None
            self._waiting = ""
            slots.waiting.pop(self, None)

        def _expired(self, what: str) -> None:
            self._timer = None
            self._waiting = ""
            if self.transport is None or self.transport.is_closing():
                return
            log.info("closed a connection from %s: its request %s took too long", self._slot, what)
            if what == "headers" and (self.cycle is None or self.cycle.response_complete):
                self.transport.write(_plain(b"408 Request Timeout", f"the request's {what} took too long"))
            self.transport.close()

    Guarded.__name__ = Guarded.__qualname__ = f"Guarded{base.__name__}"
    return Guarded


ABORT = "fiftysix.abort"
"""The key, in a websocket's ASGI ``scope["extensions"]``, of a function that cuts the connection off at once
(see :func:`abort_of`)."""

AFTER_CLOSE = 65536
"""Bytes a websocket client may send after the server's close frame before it is cut off."""

PARSE_AT_ONCE = 16384
"""Bytes of a websocket's input parsed in one turn of the loop: a client that sends without pause hands the
server up to 256 KiB a read, thousands of small frames, and parsing them all at once held the loop for hundreds
of ms (issue 59, found by :mod:`.looplag`); the rest waits for the next turn, the socket's reading paused."""


def abort_of(scope: Any) -> Callable[[str], None] | None:
    """The function that cuts a websocket off at once (given why, for the log), when served by
    :func:`server_config`'s protocol; ``None`` otherwise (a test client: close it the usual way)."""
    extensions = scope.get("extensions") if isinstance(scope, dict) else None
    found = extensions.get(ABORT) if isinstance(extensions, dict) else None
    return found if callable(found) else None


def guarded_websocket(base: type[asyncio.Protocol], slots: Slots, send_timeout: float = 0.0,
                      ) -> type[asyncio.Protocol]:
    """``base`` (uvicorn's websocket protocol) releasing the counts it took over when it closes, and cutting
    off a client that leaves the server's data unread for ``send_timeout`` seconds.

    uvicorn's ``send`` waits for the transport's buffer to drain below its high-water mark with no limit, and
    a close (its own keep-alive timeout's too) waits for that buffer to be written: a client that never
    reads holds its buffer and its file descriptor for ever.  Aborting the transport frees both at once.
    """

    class GuardedWebSocket(base):  # type: ignore[misc, valid-type]
        _slot: str | None = None
        _counted: bool = False

        _after_close: int = 0           # bytes received since the server sent its close frame
        _rest: bytes = b""              # input not parsed yet (:data:`PARSE_AT_ONCE`)

        def connection_made(self, transport: asyncio.Transport) -> None:
            self._slot, self._counted = slots.handover.pop(transport, (None, False))
            super().connection_made(transport)

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)     # the app's task has not started yet: it sees this
            if isinstance(scope, dict):
                scope.setdefault("extensions", {})[ABORT] = self.abort

        def abort(self, why: str) -> None:
            """Cut the connection off now: no close handshake, its buffers and descriptor freed at once."""
            if not self.transport.is_closing():
                log.info("cut off a websocket from %s: %s", self._slot, why)
            self.transport.abort()

        def data_received(self, data: bytes) -> None:
            # after the server's close frame uvicorn reads (and discards) whatever comes until the client's
            # close or 10 s: a flooder would have every byte of those 10 s parsed.  A little is a client
            # finishing its message; more is cut off.
            if getattr(self, "close_sent", False):
                self._after_close += len(data)
                if self._after_close > AFTER_CLOSE:
                    self.abort(f"over {AFTER_CLOSE} bytes after the server's close")
                    return
            if self._rest:              # behind already: in order, after what waits
                self._rest += data
                return
            self._parse(data)

        def _parse(self, data: bytes) -> None:
            """Parse at most :data:`PARSE_AT_ONCE` bytes now, the rest on the loop's next turn."""
            if len(data) > PARSE_AT_ONCE:
                self._rest = data[PARSE_AT_ONCE:]
                data = data[:PARSE_AT_ONCE]
                self.transport.pause_reading()
                asyncio.get_running_loop().call_soon(self._parse_rest)
            super().data_received(data)

        def _parse_rest(self) -> None:
            rest, self._rest = self._rest, b""
            if self.transport.is_closing() or not rest:
                return
            self._parse(rest)
            # uvicorn pauses reading too, until the app has taken what it queued: its pause stands
            if not self._rest and not self.transport.is_closing() and not getattr(self, "read_paused", False):
                self.transport.resume_reading()

        def connection_lost(self, exc: Exception | None) -> None:
            slots.close(self._slot, self._counted)
            self._slot, self._counted = None, False
            super().connection_lost(exc)

        async def send(self, message: Any) -> None:
            writable = getattr(self, "writable", None)      # uvicorn's flow control (paused while full)
            if send_timeout > 0 and isinstance(writable, asyncio.Event) and not writable.is_set():
                try:
                    await asyncio.wait_for(writable.wait(), send_timeout)
                except TimeoutError:
                    self.abort(f"it read nothing for {send_timeout:g} s")
                    raise ClientDisconnected from None
            await super().send(message)

    GuardedWebSocket.__name__ = GuardedWebSocket.__qualname__ = f"Guarded{base.__name__}"
    return GuardedWebSocket


def server_config(app: Any, limits: EdgeLimits | None = None, http: str = "auto", **options: Any) -> uvicorn.Config:
    """A ``uvicorn.Config`` for ``app`` whose connections keep ``limits``; ``http``: uvicorn's HTTP
    implementation to build on ("auto", "httptools", "h11"); ``options`` go to uvicorn as they are.

    :raises RuntimeError: when uvicorn has no websocket library (install ``fiftysix[server]``).
    :raises KeyError: for an unknown ``http``.
    """
    from uvicorn.config import HTTP_PROTOCOLS
    from uvicorn.importer import import_from_string
    from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

    if AutoWebSocketsProtocol is None or not isinstance(AutoWebSocketsProtocol, type):
        raise RuntimeError("uvicorn found no websocket library: pip install 'fiftysix[server]'")
    base = import_from_string(HTTP_PROTOCOLS[http])
    limits = limits or EdgeLimits()
    raise_descriptors()
    slots = Slots(limits.per_address, limits.exempt, limits.connections or descriptors())
    config = uvicorn.Config(app, http=guarded_http(base, limits, slots),
                            ws=guarded_websocket(AutoWebSocketsProtocol, slots, limits.send_timeout), **options)
    redact_logs()       # after the Config: it sets uvicorn's logging up
    return config


_SECRETS = re.compile(r"([?&](?:k|key|token)=)[^&#\s\"']*", re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` with the values of ``k=``, ``key=`` and ``token=`` query parameters replaced by ``***``."""
    return _SECRETS.sub(r"\1***", text)


class RedactSecrets(logging.Filter):
    """Keeps link secrets and tokens out of the log: uvicorn logs each request's path with its query string
    (the access log; the websocket's "accepted" line goes to ``uvicorn.error``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and record.args:
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


def redact_logs() -> None:
    """Put :class:`RedactSecrets` on uvicorn's loggers (once)."""
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())

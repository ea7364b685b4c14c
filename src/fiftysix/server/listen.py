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
  closed at once.  Trusted proxies (``exempt``) are not counted: behind one, let the proxy limit clients.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from collections import Counter
from dataclasses import dataclass
from typing import Any

import uvicorn

log = logging.getLogger("fiftysix.server")


@dataclass(frozen=True)
class EdgeLimits:
    header_timeout: float = 10.0     # seconds for a request's headers (0: no limit)
    body_timeout: float = 20.0       # seconds for a request's body after its headers (0: no limit)
    per_address: int = 64            # open connections from one address (0: no limit)
    header_bytes: int = 65536        # bytes a request may send before its headers are complete
    exempt: tuple[str, ...] = ()     # addresses not counted (trusted proxies); "*" for all


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

    def __init__(self, limit: int, exempt: tuple[str, ...] = ()) -> None:
        self.limit = limit
        self.exempt = frozenset(a if a == "*" else address_key((a,)) or a for a in exempt)
        self.open: Counter[str] = Counter()
        self.handover: dict[object, str] = {}    # transport being upgraded to a websocket -> its address

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


def _plain(status: bytes, text: str) -> bytes:
    body = text.encode()
    return (b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


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

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
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
            slots.release(self._slot)
            self._slot = None
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
            if self._slot is not None:               # the websocket protocol takes this connection's count over
                slots.handover[self.transport] = self._slot
                self._slot = None
            super().handle_websocket_upgrade(*args)

        def _arm(self, what: str) -> None:
            self._disarm()
            seconds = limits.header_timeout if what == "headers" else limits.body_timeout
            self._head = 0
            self._waiting = what
            if seconds > 0:
                self._timer = self.loop.call_later(seconds, self._expired, what)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = None
            self._waiting = ""

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


def guarded_websocket(base: type[asyncio.Protocol], slots: Slots) -> type[asyncio.Protocol]:
    """``base`` (uvicorn's websocket protocol) releasing the address count it took over when it closes."""

    class GuardedWebSocket(base):  # type: ignore[misc, valid-type]
        _slot: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:
            self._slot = slots.handover.pop(transport, None)
            super().connection_made(transport)

        def connection_lost(self, exc: Exception | None) -> None:
            slots.release(self._slot)
            self._slot = None
            super().connection_lost(exc)

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
    slots = Slots(limits.per_address, limits.exempt)
    return uvicorn.Config(app, http=guarded_http(base, limits, slots),
                          ws=guarded_websocket(AutoWebSocketsProtocol, slots), **options)

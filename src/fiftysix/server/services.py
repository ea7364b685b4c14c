"""The services a server stands on (the database; Redis with many processes) and whether each answers now.

Whoever talks to a service reports what it saw (:meth:`Services.report`); a change is logged once and told
to every viewer as ``{"type": "service", "service": "database", "ok": false}`` (then ``true`` when it is
back), so the page can say "reconnecting" instead of failing.  An HTTP request that needed a service that
is down is answered 503 with ``Retry-After`` (:func:`unavailable`), never 500.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Literal, TypedDict

from ..core.meaning import N_

log = logging.getLogger("fiftysix.server")

DATABASE = "database"
REDIS = "redis"
RETRY_AFTER = 5     # seconds a client is asked to wait before trying again while a service is down

WORDS = {DATABASE: N_("the server's database is not answering just now; your table waits and goes on when "
                      "it is back (try again in a few seconds)"),
         REDIS: N_("the link between the server's processes (Redis) is not answering just now; your table "
                   "waits and goes on when it is back (try again in a few seconds)")}


class ServiceMessage(TypedDict):
    """What a viewer is told when ``service`` goes down or comes back."""

    type: Literal["service"]
    service: str
    ok: bool


def service_message(service: str, ok: bool) -> ServiceMessage:
    return ServiceMessage(type="service", service=service, ok=ok)


class Services:
    """Which services are down now, and who is told when that changes (listeners take ``(service, ok)``)."""

    def __init__(self) -> None:
        self.down: set[str] = set()
        self.listeners: list[Callable[[str, bool], None]] = []

    def report(self, service: str, ok: bool) -> None:
        """What a caller just saw of ``service``; only a change is logged and told."""
        if ok == (service not in self.down):
            return
        if ok:
            self.down.discard(service)
            log.warning("%s is answering again", service)
        else:
            self.down.add(service)
            log.error("%s is not answering; tables wait for it", service)
        for listener in list(self.listeners):
            try:
                listener(service, ok)
            except Exception:
                log.exception("telling that %s is %s failed", service, "back" if ok else "down")

    def ok(self, service: str) -> bool:
        return service not in self.down

    def messages(self) -> list[ServiceMessage]:
        """What a new viewer must hear now: one message per service that is down."""
        return [service_message(s, False) for s in sorted(self.down)]


_ASYNCPG_LOST = frozenset({"ConnectionDoesNotExistError", "CannotConnectNowError", "AdminShutdownError",
                           "ConnectionFailureError", "InterfaceError", "TooManyConnectionsError"})
"""asyncpg's errors for a server that went away or does not take connections (by name: asyncpg is optional)."""


def service_of(error: BaseException) -> str | None:
    """The service behind an exception (a database or Redis failure), or ``None`` for any other error."""
    from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    try:
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeout
    except ImportError:     # no Redis client installed: a single process
        redis_errors: tuple[type[BaseException], ...] = ()
    else:
        redis_errors = (RedisConnectionError, RedisTimeout)
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if redis_errors and isinstance(error, redis_errors):
            return REDIS
        if isinstance(error, OperationalError | InterfaceError | PoolTimeout) or (
                isinstance(error, DBAPIError) and error.connection_invalidated):
            return DATABASE
        if isinstance(error, ConnectionError | TimeoutError) or type(error).__name__ in _ASYNCPG_LOST:
            return DATABASE
        error = error.__cause__ or error.__context__    # type: ignore[assignment]
    return None

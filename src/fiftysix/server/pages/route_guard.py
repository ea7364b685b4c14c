"""The protections the feature pages' JSON routes share (history, accounts, clubs): a foreign Origin refused (403),
even on reads, and token buckets per client address and for the whole process (429), with the feature's own
sentence in the reader's language.  The buckets live on the app, one set per feature."""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import Response

from ...core.meaning import Meaning
from ..edge.lang import language_of
from ..edge.limits import Buckets
from ..edge.security import cross_site, origin_of
from ..serving import Server, address_of, refusal, serving


class RouteGuard:
    """One feature's guard: ``per_address`` and ``whole`` are (requests a second on average, at once)."""

    def __init__(self, name: str, per_address: tuple[float, int], whole: tuple[float, int],
                 too_many: Meaning) -> None:
        self.name, self.per_address, self.whole, self.too_many = name, per_address, whole, too_many

    def buckets(self, request: Request) -> tuple[Buckets, Buckets]:
        """This app's (per address, whole process) buckets of the feature, made on first use."""
        state = request.app.state
        key = f"{self.name}_guard"
        if not hasattr(state, key):
            setattr(state, key, (Buckets(*self.per_address), Buckets(*self.whole)))
        found: tuple[Buckets, Buckets] = getattr(state, key)
        return found

    def refused(self, request: Request, server: Server, lang: str) -> Response | None:
        """A foreign origin (403) or too many asks (429), else ``None``."""
        allowed = frozenset(origin_of(o) for o in server.settings.allowed_origins)
        why = cross_site(Headers(scope=request.scope), allowed, request.url.scheme)
        if why is not None:
            return refusal(why, 403, lang)
        address, whole = self.buckets(request)
        if not whole.allow() or not address.allow(address_of(request)):
            return refusal(self.too_many, 429, lang)
        return None

    def admit(self, request: Request) -> tuple[Server, str] | Response:
        """The server and the reader's language for a request the guard lets through, else its refusal."""
        server, lang = serving(request), language_of(request)
        refused = self.refused(request, server, lang)
        return (server, lang) if refused is None else refused

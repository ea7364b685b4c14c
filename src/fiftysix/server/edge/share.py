"""The link friends can reach, and its QR code: ``POST /api/share {"path": "/t/CODE#k=..."}``.

QR codes cost some 15 ms of pure Python each (segno): :class:`QRCodes` makes them in a thread, never on the
event loop, keeps the recent ones (a link asked for again costs no CPU), and limits them per client address
(a token bucket: every request counts), for the whole server (a bucket of all addresses together: however many
addresses ask, the QR work stays a few per cent of one core) and at once (:attr:`~.limits.Limits.qr_running`).
A refused QR code still gets its link: the page shows the link without the image.

The base of the link is, in this order: the ``--public-url`` the server was given (behind a proxy, a tunnel or a
name); when it listens on every interface (``--host 0.0.0.0`` or ``::``), this machine's address on the local
network, found without sending anything (a UDP socket's ``connect`` only picks the route); otherwise the address
the browser used.  The secret stays in the fragment; the server keeps nothing of what it is asked.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from urllib.parse import urlsplit

from ...core.meaning import N_, Meaning
from .limits import Buckets, Limits

MAX_PATH = 200
ALL_INTERFACES = ("0.0.0.0", "::", "")
_ROUTE_PROBE = ("192.0.2.1", 9)      # TEST-NET-1 (RFC 5737): connect() on UDP sends no packet


def lan_address() -> str:
    """This machine's address on the network its default route leads to, without any traffic; the loopback
    address when there is none."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(_ROUTE_PROBE)
            address = str(s.getsockname()[0])
            if not ipaddress.ip_address(address).is_unspecified:
                return address
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = str(info[4][0])
            if not ipaddress.ip_address(address).is_loopback:
                return address
    except OSError:
        pass
    return "127.0.0.1"


def check_public_url(url: str) -> str:
    """``url`` without a trailing slash.

    :raises ValueError: when it is not an http(s) URL with a host (and no query or fragment).
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ValueError(f"--public-url must be an http:// or https:// address like https://cards.example.org, "
                         f"not {url!r}")
    return url.rstrip("/")


def share_base(public_url: str | None, listen_host: str | None, request_base: str, port: int | None) -> str:
    """Scheme, host and port (and a path prefix of a public URL) for links to tables."""
    if public_url:
        return public_url.rstrip("/")
    if listen_host is not None and listen_host in ALL_INTERFACES:
        scheme = urlsplit(request_base).scheme or "http"
        host = lan_address()
        default = {"http": 80, "https": 443}.get(scheme)
        return f"{scheme}://{host}" + (f":{port}" if port and port != default else "")
    return request_base.rstrip("/")


def loopback_only(base: str) -> bool:
    """Whether links with this base reach only this computer."""
    host = urlsplit(base).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_path(path: object) -> str:
    """A table page's path (with its fragment), or a club's invite (``/club#i=SECRET``).

    :raises ValueError: when it is neither, or over 200 characters.
    """
    if not isinstance(path, str) or not path.startswith(("/t/", "/club#i=")) or len(path) > MAX_PATH \
            or not path.isprintable() or " " in path:
        raise ValueError(f"path must be a table's path like /t/ABC234 or a club's invite like /club#i=... "
                         f"(at most {MAX_PATH} characters)")
    return path


def qr_data_uri(text: str) -> str:
    """An SVG QR code of ``text`` as a data: URI (the page's CSP allows data: images); the latest 512 are kept
    (:func:`recent_qr`)."""
    found = recent_qr(text)
    if found is not None:
        return found
    import segno

    made = str(segno.make(text, error="m").svg_data_uri(scale=4, border=2))
    if len(_recent) >= 512:
        _recent.pop(next(iter(_recent)))
    _recent[text] = made
    return made


def recent_qr(text: str) -> str | None:
    """``text``'s QR code if it was made recently (no CPU), else ``None``."""
    found = _recent.pop(text, None)
    if found is not None:
        _recent[text] = found           # the most recent now: the oldest go first
    return found


_recent: dict[str, str] = {}
"""The latest QR codes made, by text, oldest first (at most 512; :func:`qr_data_uri` fills it)."""


class QRBusy(Exception):
    """A QR code refused for now: ``status`` (429: this address asked too often; 503: the server is making
    as many as it will at once), ``retry_after`` seconds, and the words (a :class:`Meaning`)."""

    def __init__(self, words: Meaning, status: int, retry_after: int) -> None:
        super().__init__(words)
        self.words, self.status, self.retry_after = words, status, retry_after


class QRCodes:
    """QR codes of share links, made in a thread, limited per client address and overall."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.buckets = Buckets(limits.qr_per_minute / 60, limits.qr_burst)
        self.everyone = Buckets(limits.qr_all_per_minute / 60, limits.qr_all_burst, keep=1)
        self.running = 0

    async def make(self, url: str, address: str) -> str:
        """``url``'s QR code as a data: URI.

        :raises QRBusy: when ``address`` has asked for too many new ones, or too many are being made.
        """
        lim = self.limits
        if self.buckets.empty(address):
            wait = max(1, round(1 / lim.qr_per_minute * 60)) if lim.qr_per_minute > 0 else 60
            raise QRBusy(Meaning(N_("too many QR codes from your address (at most {burst} at once and {rate} a "
                                    "minute); try again in {seconds} s"),
                                 {"burst": lim.qr_burst, "rate": f"{lim.qr_per_minute:g}", "seconds": wait}),
                         429, wait)
        self.buckets.take(address)          # every request counts for its address, made or not
        cached = recent_qr(url)
        if cached is not None:
            return cached
        if self.running >= lim.qr_running or not self.everyone.allow():
            raise QRBusy(Meaning(N_("the server is busy making QR codes; share the link, or try again in a "
                                    "moment")), 503, 1)
        self.running += 1
        try:    # pure Python: in a thread the event loop keeps its turns (the GIL switches every 5 ms); a link
            return await asyncio.to_thread(qr_data_uri, url)    # made recently is taken from the cache
        finally:
            self.running -= 1

"""Where passkeys may be offered, and how many an account has: read by the account page (:mod:`.routes`) and by
the passkey routes (:mod:`.passkeys`), which build on the account page's helpers."""

from __future__ import annotations

from urllib.parse import urlsplit

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.requests import Request

from .schema import passkeys


def relying_party(request: Request) -> tuple[str, str] | None:
    """(rp id, origin) of this page if it has a secure context with a name; else ``None``."""
    parts = urlsplit(str(request.base_url))
    host = parts.hostname or ""
    named = bool(host) and not host.replace(".", "").isdigit() and ":" not in host
    if not named or (parts.scheme != "https" and host != "localhost"):
        return None
    return host, f"{parts.scheme}://{parts.netloc}"


async def count(engine: AsyncEngine, player_id: str) -> int:
    async with engine.connect() as conn:
        return len((await conn.execute(select(passkeys.c.id).where(passkeys.c.account_id == player_id))).all())

"""The viewer's language at the server's edge: chosen from the ``lang`` cookie or ``Accept-Language``, and
the messages to the viewer translated into it (the rules' meanings, errors, the create form's sentences)."""

from __future__ import annotations

from starlette.requests import HTTPConnection

from ...i18n import COOKIE, choose, localize, translate


def language_of(conn: HTTPConnection) -> str:
    """The language of a request or websocket: the player's choice (cookie), else the browser's."""
    return choose(conn.headers.get("accept-language"), conn.cookies.get(COOKIE))


def localize_message(message: dict[str, object], lang: str) -> dict[str, object]:
    """A websocket message in ``lang``: every rules meaning in it, and an error's text."""
    out: dict[str, object] = localize(message, lang)
    if out.get("type") == "error" and isinstance(text := out.get("message"), str):
        out = {**out, "message": translate(text, lang)}
    return out

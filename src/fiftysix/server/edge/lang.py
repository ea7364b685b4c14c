"""The viewer's language at the server's edge: chosen from the ``lang`` cookie or ``Accept-Language``, and
the messages to the viewer translated into it (the rules' meanings, errors, the create form's sentences)."""

from __future__ import annotations

from typing import Any

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


def localize_catalogue(catalogue: dict[str, Any], lang: str) -> dict[str, Any]:
    """The create form's catalogue with its preset and option sentences in ``lang``."""
    if lang == "en":
        return catalogue
    out: dict[str, Any] = {}
    for game, info in catalogue.items():
        options = {key: ({**spec, "descriptions": {v: translate(d, lang) for v, d in spec["descriptions"].items()}}
                         if "descriptions" in spec else spec) for key, spec in info["options"].items()}
        words = {key: {"label": translate(w["label"], lang), "help": translate(w["help"], lang) if w["help"] else "",
                       "values": {v: translate(d, lang) for v, d in w["values"].items()}}
                 for key, w in info["option_words"].items()}
        out[game] = {**info, "options": options, "option_words": words,
                     "descriptions": {p: translate(d, lang) for p, d in info["descriptions"].items()}}
    return out

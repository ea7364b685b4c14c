"""Translation at the edges: the server (per viewer) and the terminal client put the rules' English words
into the player's language.

The catalogues are gettext ``.po`` files kept with Babel (``make i18n``: extract from the Python and the page's
``t()``/``tn()`` calls, merge, compile).  The compiled ``.mo`` (read here by the standard library's
:mod:`gettext`) and the page's JSON (``static/i18n/LANG.json``) are committed, so a fresh clone needs no build
step and Babel only at development time.  A :class:`~fiftysix.core.meaning.Meaning` keeps its message id and
parameters and is translated with them; a plain string is translated when it is itself a message id.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from ..core.meaning import Meaning, Plural

LOCALES = Path(__file__).parent / "locale"
DOMAIN = "fiftysix"
LANGUAGES: dict[str, str] = {"en": "English", "ml": "മലയാളം"}
"""The languages a player may choose, each named in itself."""
DEFAULT = "en"


@cache
def catalogue(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (English, the message ids themselves, for any other)."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALES, [lang], fallback=True)


def indian(n: int) -> str:
    """A number in Indian digit grouping: ``1,00,000`` (the last three digits, then pairs)."""
    sign, digits = ("-", str(-n)) if n < 0 else ("", str(n))
    if len(digits) <= 3:
        return sign + digits
    head, tail = digits[:-3], digits[-3:]
    pairs: list[str] = []
    while len(head) > 2:
        pairs.insert(0, head[-2:])
        head = head[:-2]
    return sign + ",".join([head, *pairs, tail])


def _param(value: object, lang: str) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return indian(value)
    if isinstance(value, Meaning):
        return translate(value, lang)
    return str(value)     # names and notation stay as written


def translate(text: str, lang: str) -> str:
    """``text`` in ``lang``: a :class:`Meaning` with its parameters translated too; a plain string only when
    it is a message id of the catalogue (notation such as ``28H`` passes through)."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return str(text) if isinstance(text, Meaning) else text
    if isinstance(text, Plural):
        found = catalogue(lang).ngettext(text.msgid, text.plural, text.n)
    else:
        found = catalogue(lang).gettext(text.msgid if isinstance(text, Meaning) else text)
    if not isinstance(text, Meaning):
        return found
    params = {k: _param(v, lang) for k, v in text.params.items()}
    return found.format(**params) if params else found


def ntranslate(singular: str, plural: str, n: int, lang: str, **params: object) -> str:
    """The plural form of ``lang`` for ``n`` (``{n}`` and other placeholders filled)."""
    form = catalogue(lang).ngettext(singular, plural, n)
    return form.format(n=indian(n), **{k: _param(v, lang) for k, v in params.items()})


def tr(lang: str, msgid: str, /, **params: object) -> str:
    """The message ``msgid`` in ``lang`` with ``params`` filled (numbers in Indian grouping outside English,
    a :class:`Meaning` parameter translated too).  Extracted by ``make i18n`` (keyword ``tr``, 2nd argument)."""
    return translate(Meaning(msgid, params), lang)


def ntr(lang: str, singular: str, plural: str, n: int, /, **params: object) -> str:
    """The plural form of ``lang`` for ``n`` (``{n}`` filled; keyword ``ntr``, 2nd and 3rd arguments)."""
    return ntranslate(singular, plural, n, lang, **params)


def localize(message: Any, lang: str) -> Any:
    """A copy of a JSON-able message with every :class:`Meaning` in it translated (the same object for
    English, where a Meaning already is its English text)."""
    if lang == DEFAULT:
        return message
    if isinstance(message, Meaning):
        return translate(message, lang)
    if isinstance(message, dict):
        return {k: localize(v, lang) for k, v in message.items()}
    if isinstance(message, list):
        return [localize(v, lang) for v in message]
    return message


_RANGE = re.compile(r"^\s*([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*$")


def choose(accept_language: str | None, chosen: str | None = None) -> str:
    """The language to speak: the one the player chose (cookie), else the first of ``Accept-Language`` (by
    weight) that we have, else English."""
    if chosen in LANGUAGES:
        return chosen
    best: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "").split(",")[:20]):
        m = _RANGE.match(part)
        if not m:
            continue
        try:
            q = float(m.group(2)) if m.group(2) else 1.0
        except ValueError:
            continue
        code = m.group(1).lower()
        if code in LANGUAGES and q > 0:
            best.append((-q, i, code))
    return min(best)[2] if best else DEFAULT


def from_environment(env: Mapping[str, str]) -> str:
    """The terminal's language from the POSIX locale variables (``LANGUAGE`` ``ml:en``, ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG`` such as ``ml_IN.UTF-8``), else English."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for part in env.get(name, "").split(":"):
            code = part.split(".")[0].split("_")[0].split("@")[0].lower()
            if code in LANGUAGES:
                return code
            if code and code not in ("c", "posix"):
                break
    return DEFAULT


COOKIE = "lang"
"""The cookie (also kept in the page's localStorage) that remembers a player's choice."""

__all__ = ["COOKIE", "LANGUAGES", "catalogue", "choose", "from_environment", "indian", "localize", "ntr",
           "ntranslate", "tr", "translate"]

"""JSON from clients, parsed without surprises: bounded nesting, short integers, no NaN, valid Unicode, no NUL.

Both the HTTP API and the websocket parse client JSON here, so a hostile document gets the same clear
refusal on either: a :class:`BadJSON` whose message names what was wrong and what is allowed.  Python's own
parser would raise ``RecursionError`` on deep nesting and ``ValueError`` on an integer of more than 4,300
digits; here nesting is counted before parsing (one regular-expression pass, at C speed) and integers are
refused past :data:`MAX_DIGITS` digits while parsing.  A string holding U+0000 (NUL) is refused too: no text a
person types holds one, and PostgreSQL refuses it in a text column (an id looked up would answer 500).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import orjson
from starlette.responses import JSONResponse as _StarletteJSON

MAX_DEPTH = 32       # our messages nest 3 deep at most
MAX_DIGITS = 32      # a seat, a version, a number of seconds: far below this

# a JSON string (skipped whole, so brackets inside it do not count; an unterminated one runs to the end,
# which keeps the scan linear) or one bracket
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)


class BadJSON(ValueError):
    """A client's JSON that is refused; ``str(e)`` is the message for the client."""


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise BadJSON(f"a number has {len(digits.lstrip('-'))} digits; at most {MAX_DIGITS} are allowed")
    return int(digits)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadJSON(f"the number {text[:24]} is too large; numbers must be finite")
    return value


def _parse_constant(name: str) -> Any:
    raise BadJSON(f"{name} is not JSON; numbers must be finite")


_DECODER = json.JSONDecoder(parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether arrays and objects in ``text`` nest deeper than ``limit`` (brackets in strings do not count)."""
    if text.count("[") + text.count("{") <= limit:   # the common case: too few brackets to matter
        return False
    level = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token == "[" or token == "{":
            level += 1
            if level > limit:
                return True
        elif token == "]" or token == "}":
            level -= 1
    return False


def _holds_nul(value: Any) -> bool:
    """Whether a string anywhere in ``value`` (a key or a value; nesting is bounded already) holds U+0000."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_holds_nul(k) or _holds_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_holds_nul(v) for v in value)
    return False


def loads(data: str | bytes, limit: int = MAX_DEPTH) -> Any:
    """Parse client JSON nested at most ``limit`` deep.

    :raises BadJSON: for text that is not UTF-8 or not JSON, nested deeper than ``limit``, with an
        integer of more than :data:`MAX_DIGITS` digits, NaN or Infinity, or a lone surrogate or a NUL in a string.
    """
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise BadJSON("not JSON: the text is not UTF-8") from None
    if too_deep(data, limit):
        raise BadJSON(f"not accepted: JSON nested more than {limit} deep (arrays and objects)")
    try:
        value = _DECODER.decode(data)
    except BadJSON:
        raise
    except (ValueError, RecursionError):    # JSONDecodeError is a ValueError
        raise BadJSON("not JSON") from None
    if "\\u" in data:   # only an escape can make a lone surrogate: the text itself was valid UTF-8
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise BadJSON("not accepted: a string holds a lone surrogate (\\ud800-\\udfff), "
                          "which is not a character") from None
        if "\\u0000" in data and _holds_nul(value):   # only an escape can make a NUL: JSON refuses it raw
            raise BadJSON("not accepted: a string holds U+0000 (NUL), which no text may hold") from None
    return value


def encode(message: Any) -> str:
    """A message to a client as compact JSON text.  orjson is some ten times faster than ``json.dumps`` on
    our messages (which the server encodes for every connection at every move); text it refuses (a lone
    surrogate stored before names were checked) goes through ``json.dumps``, which escapes it."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:       # orjson.JSONEncodeError is a TypeError
        return json.dumps(message, separators=(",", ":"))


class JSONResponse(_StarletteJSON):
    """Starlette's JSON response, but ASCII-escaped: text stored before names were checked (a lone
    surrogate) still makes a valid answer instead of an encoding error."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, separators=(",", ":")).encode("ascii")

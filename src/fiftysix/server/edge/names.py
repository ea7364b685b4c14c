"""Names people choose (players, tables): printable text only, NFC-normalized, length-limited.

A name is shown to everyone at a table and stored in its log, so what is refused is what could fool or
break a reader or a database: control characters (NUL, ESC, ...), format characters that reorder or hide
text (the bidi overrides and isolates U+202A-202E, U+2066-2069, zero-width spaces, ...), surrogates (not
characters at all: PostgreSQL and UTF-8 refuse them), private-use and unassigned code points, and line
or paragraph separators.  Zero-width (non-)joiners U+200C/U+200D stay allowed: Malayalam, Tamil, Persian
and emoji sequences need them.  Runs of spaces become one space; ends are trimmed.
"""

from __future__ import annotations

import unicodedata

from ...core.meaning import N_, Meaning

PLAYER_NAME = 24
TABLE_NAME = 40
DEVICE_NAME = 40        # a signed-in device's name, its owner's only ("Asha's phone")

REFUSED_CATEGORIES = {"Cc": N_("a control character"), "Cf": N_("an invisible formatting character"),
                      "Cs": N_("a lone surrogate"), "Co": N_("a private-use character"),
                      "Cn": N_("an unassigned code point"), "Zl": N_("a line separator"),
                      "Zp": N_("a paragraph separator")}
WHAT = {"name": N_("name"), "table name": N_("table name"),     # what a refusal calls the name it refuses
        "club name": N_("club name"), "event name": N_("event name"), "team name": N_("team name"),
        "device name": N_("device name")}
JOINERS = {"\u200c", "\u200d"}


def check_name(value: object, what: str = "name", limit: int = PLAYER_NAME) -> str:
    """``value`` as a clean name: NFC, single spaces, trimmed, 1 to ``limit`` characters.

    :raises ValueError: naming the first refused character (its code point and position) or the length,
        and what is allowed (its argument a :class:`Meaning`, for the player's language).
    """
    thing = Meaning(WHAT[what]) if what in WHAT else what
    if not isinstance(value, str):
        raise ValueError(Meaning("the {what} must be text", {"what": thing}))
    for position, ch in enumerate(value, 1):
        category = unicodedata.category(ch)
        # tab, newline and the like are whitespace: they become a space below
        if category in REFUSED_CATEGORIES and ch not in JOINERS and not (category == "Cc" and ch in "\t\n\r"):
            label = unicodedata.name(ch, "")
            raise ValueError(Meaning("the {what} has {character} ({code}) at character {position}; "
                                     "names are printable text",
                                     {"what": thing, "character": Meaning(REFUSED_CATEGORIES[category]),
                                      "code": f"U+{ord(ch):04X}{' ' + label if label else ''}",
                                      "position": position}))
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if not name:
        raise ValueError(Meaning("choose a {what} (1 to {limit} characters)", {"what": thing, "limit": limit}))
    if len(name) > limit:
        raise ValueError(Meaning("the {what} has {count} characters; at most {limit} are allowed",
                                 {"what": thing, "count": len(name), "limit": limit}))
    return name

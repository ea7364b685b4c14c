"""Words for players that the edges can translate: a :class:`Meaning` is the English text (it *is* a ``str``)
that also keeps its message id and parameters, so the server (per viewer) and the terminal client can put it
into the player's language with :mod:`fiftysix.i18n`.  The rules core stays free of catalogues and I/O.
"""

from __future__ import annotations

from collections.abc import Mapping


def N_(msgid: str) -> str:
    """Mark a message id for extraction (``pybabel extract -k N_``) without building a :class:`Meaning`."""
    return msgid


class Meaning(str):
    """English text made from a message id with ``{name}`` placeholders and its parameters.

    Parameters may themselves be :class:`Meaning` (a suit's word, a clause), translated with the message.
    """

    msgid: str
    params: dict[str, object]

    def __new__(cls, msgid: str, params: Mapping[str, object] | None = None) -> Meaning:
        values = dict(params or {})
        self = super().__new__(cls, msgid.format(**values) if values else msgid)
        self.msgid = msgid
        self.params = values
        return self

    def __reduce__(self) -> tuple[type[Meaning], tuple[str, dict[str, object]]]:
        return (Meaning, (self.msgid, self.params))


class Plural(Meaning):
    """A :class:`Meaning` whose words depend on a count ``n`` (``{n}`` among its placeholders): the English
    singular for 1, the plural otherwise; the edges pick the language's plural form (``ngettext``)."""

    plural: str
    n: int

    def __new__(cls, singular: str, plural: str, n: int, params: Mapping[str, object] | None = None) -> Plural:
        values = {**dict(params or {}), "n": n}
        self = str.__new__(cls, (singular if n == 1 else plural).format(**values))
        self.msgid = singular
        self.plural = plural
        self.n = n
        self.params = values
        return self

    def __reduce__(self) -> tuple[type[Plural], tuple[str, str, int, dict[str, object]]]:  # type: ignore[override]
        return (Plural, (self.msgid, self.plural, self.n, {k: v for k, v in self.params.items() if k != "n"}))


def suit_word(word: str) -> Meaning:
    """A suit's word (``hearts``, or ``heart`` for one card) as a translatable meaning."""
    return Meaning(word)


# the suits' words, so that extraction finds them (cards.py stays as it is)
SUIT_WORDS = (N_("spades"), N_("hearts"), N_("diamonds"), N_("clubs"),
              N_("spade"), N_("heart"), N_("diamond"), N_("club"))


def words_of(error: BaseException) -> str:
    """An error's words as raised: its :class:`Meaning` (or message id) when it has one, so an edge can
    translate it; else its text."""
    first = error.args[0] if len(error.args) == 1 else None
    return first if isinstance(first, str) else str(error)

"""The catalogues are complete and consistent: every message id in the sources (Python ``N_``/``Meaning``,
the page's ``t()``/``tn()`` and static HTML) has a Malayalam translation with the same placeholders, and the
committed ``.mo`` and page JSON are compiled from the current ``.po``."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("babel")

from babel.messages.pofile import read_po  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "src" / "fiftysix" / "i18n" / "locale" / "ml" / "LC_MESSAGES" / "fiftysix.po"
PAGE = ROOT / "src" / "fiftysix" / "server" / "static" / "i18n" / "ml.json"
PLACEHOLDER = re.compile(r"\{(\w*)\}")


def _tool() -> Any:
    spec = importlib.util.spec_from_file_location("i18n_tool", ROOT / "tools" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _ids(message_id: str | tuple[str, ...]) -> tuple[str, ...]:
    return (message_id,) if isinstance(message_id, str) else tuple(message_id)


def test_every_message_in_the_sources_has_a_malayalam_translation() -> None:
    tool = _tool()
    template = tool.extract([])
    assert len(template) > 100         # the extraction found the sources (not an empty scan)
    missing = tool.untranslated(PO, template)
    assert missing == [], f"no Malayalam for {missing[:5]}: add them to {PO.name} and run make i18n"


def test_translations_keep_every_placeholder() -> None:
    with PO.open("rb") as f:
        catalog = read_po(f)
    wrong = []
    for message in catalog:
        if not message.id:
            continue
        wanted = set(PLACEHOLDER.findall(" ".join(_ids(message.id))))
        for form in _ids(message.string):
            if set(PLACEHOLDER.findall(form)) != wanted:
                wrong.append((message.id, form))
    assert wrong == []


def test_compiled_catalogues_are_current() -> None:
    tool = _tool()
    mo, page = tool.compiled(PO)
    assert PO.with_suffix(".mo").read_bytes() == mo, "the .mo is stale: run make i18n"
    assert PAGE.read_text(encoding="utf-8") == page, "static/i18n/ml.json is stale: run make i18n"


def test_every_page_string_is_in_the_page_catalogue() -> None:
    """Each t()/tn() call of static/*.js and each static HTML text finds its entry in ml.json, in the form
    i18n.js reads (a string, or one string per plural category)."""
    tool = _tool()
    page = json.loads(PAGE.read_text(encoding="utf-8"))
    seen = 0
    for message in tool.extract([]):
        if not message.id or not any(tool._on_page(f) for f, _ in message.locations):
            continue
        seen += 1
        key = _ids(message.id)[0]
        assert key in page, f"{key!r} is not in ml.json"
        if isinstance(message.id, str):
            assert isinstance(page[key], str) and page[key]
        else:
            assert set(page[key]) == {"one", "other"} and all(page[key].values())
    assert seen > 20


# a Malayalam vowel sign, virama or anusvara needs a letter before it: after a digit, hyphen or placeholder the
# browser draws a dotted circle, and a font without one (the shipped Manjari cut) draws a box: "1▯ാം" (issue 57)
_BASELESS = re.compile(r"(?<![\u0d00-\u0d7f\u200c\u200d])[\u0d00-\u0d03\u0d3b-\u0d4d\u0d57\u0d62\u0d63]")


def test_no_malayalam_sign_stands_without_its_letter() -> None:
    with PO.open("rb") as f:
        catalogue = read_po(f)
    baseless = [m.string for m in catalogue for s in _ids(m.string) if s and _BASELESS.search(s)]
    assert not baseless, baseless[:5]

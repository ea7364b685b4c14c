"""Keep the message catalogues (``make i18n``): extract, merge, compile.

1. **extract** every message id: the Python sources' ``N_("...")``/``Meaning("...")``/``_("...")``/
   ``tr(lang, "...")``/``ntr(lang, "...", "...", n)``, the page's ``t("...")``/``tn("...", "...")`` calls in ``static/*.js`` and the static HTML's text and labels (which
   ``static/lang.js`` puts through ``t()``) into ``src/fiftysix/i18n/fiftysix.pot``;
2. **merge** the template into each ``locale/LANG/LC_MESSAGES/fiftysix.po`` (new ids arrive untranslated,
   gone ids become obsolete);
3. **compile** each ``.po`` into the ``.mo`` the server and the terminal read (stdlib :mod:`gettext`) and the
   JSON the page reads (``static/i18n/LANG.json``: ``{msgid: msgstr}``, a plural ``{msgid: {one, other}}``).

``--check`` changes nothing and fails when the compiled files are stale or a message lacks a translation.
``--also DIR`` extracts the ``*.js``/``*.html`` of another static folder too (used before a merge).
Babel is a development dependency only.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from html.parser import HTMLParser
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "fiftysix"
I18N = PACKAGE / "i18n"
STATIC = PACKAGE / "server" / "static"
POT = I18N / "fiftysix.pot"
PLURAL_CATEGORIES = {"ml": ("one", "other")}


class _HTMLText(HTMLParser):
    """Text nodes (whitespace collapsed) and label attributes of a static page, as ``static/lang.js`` sees them."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, int]] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "code"):
            self._skip += 1
        for name, value in attrs:
            if name in ("placeholder", "title", "aria-label") and value:
                self._add(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "code"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self._add(data)

    def _add(self, text: str) -> None:
        text = " ".join(text.split())
        if text and any(c.isalpha() for c in text):
            self.found.append((text, self.getpos()[0]))


def extract(also: list[Path]) -> Catalog:
    template = Catalog(project="fiftysix", charset="utf-8")
    keywords = {**DEFAULT_KEYWORDS, "Meaning": (1,), "Plural": (1, 2), "tr": (2,), "ntr": (2, 3)}
    for filename, lineno, message, comments, _context in extract_from_dir(
            PACKAGE, [("**.py", "python")], keywords=keywords):
        template.add(message, locations=[(f"src/fiftysix/{filename}", lineno)], auto_comments=comments)
    for folder in [STATIC, *also]:
        for path in sorted(folder.glob("*.js")):
            for lineno, message, comments, _context in extract_from_file(
                    "javascript", str(path), keywords={"t": (1,), "tn": (1, 2)},
                    options={"parse_template_string": True}):      # t() inside `${...}` too
                template.add(message, locations=[(_where(path), lineno)], auto_comments=comments)
        for path in sorted(folder.glob("*.html")):
            parser = _HTMLText()
            parser.feed(path.read_text(encoding="utf-8"))
            for text, lineno in parser.found:
                template.add(text, locations=[(_where(path), lineno)])
    return template


def _where(path: Path) -> str:
    """A source's location as the catalogue writes it; a file of another static folder (``--also``: another
    checkout's) is written where it will be in this one."""
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return (STATIC / path.name).relative_to(ROOT).as_posix()


def catalogues() -> list[Path]:
    return sorted((I18N / "locale").glob("*/LC_MESSAGES/fiftysix.po"))


def page_json(catalog: Catalog, lang: str) -> str:
    """The page's catalogue: every translated message the page's scripts or HTML use (the server translates
    the rest), plural forms by Intl.PluralRules category."""
    out: dict[str, object] = {}
    categories = PLURAL_CATEGORIES.get(lang, ("one", "other"))
    for message in catalog:
        if not message.id or not message.string or not any(_on_page(f) for f, _ in message.locations):
            continue
        if isinstance(message.id, tuple | list):
            out[message.id[0]] = dict(zip(categories, message.string, strict=False))
        else:
            out[message.id] = message.string
    return json.dumps(out, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


def _on_page(filename: str) -> bool:
    return filename.endswith((".js", ".html"))


def compiled(po: Path) -> tuple[bytes, str]:
    with po.open("rb") as f:
        catalog = read_po(f)
    mo = io.BytesIO()
    write_mo(mo, catalog, use_fuzzy=False)
    return mo.getvalue(), page_json(catalog, po.parent.parent.name)


def untranslated(po: Path, template: Catalog) -> list[str]:
    with po.open("rb") as f:
        catalog = read_po(f)
    missing = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id)
        strings = found.string if found is not None else None
        if found is None or found.fuzzy or not strings or (isinstance(strings, tuple) and not all(strings)):
            missing.append(message.id if isinstance(message.id, str) else message.id[0])
    return missing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="change nothing; fail if stale or untranslated")
    ap.add_argument("--also", type=Path, action="append", default=[], help="another static folder to scan")
    args = ap.parse_args(argv)
    template = extract(args.also)
    problems = []
    for po in catalogues():
        lang = po.parent.parent.name
        mo_path, json_path = po.with_suffix(".mo"), STATIC / "i18n" / f"{lang}.json"
        if not args.check:
            with po.open("rb") as f:
                catalog = read_po(f)
            for key, message in list(catalog.obsolete.items()):    # a message back in the sources keeps its words
                catalog[key] = message
            catalog.obsolete.clear()
            catalog.update(template, no_fuzzy_matching=True)
            with po.open("wb") as f:     # gone messages stay as #~ comments (a branch not merged yet may use them)
                write_po(f, catalog, width=116, include_previous=False)
            mo, page = compiled(po)
            mo_path.write_bytes(mo)
            json_path.parent.mkdir(exist_ok=True)
            json_path.write_text(page, encoding="utf-8")
        else:
            mo, page = compiled(po)
            if not mo_path.exists() or mo_path.read_bytes() != mo:
                problems.append(f"{mo_path.relative_to(ROOT)} is stale: run make i18n")
            if not json_path.exists() or json_path.read_text(encoding="utf-8") != page:
                problems.append(f"{json_path.relative_to(ROOT)} is stale: run make i18n")
        problems += [f"{lang}: no translation for {m!r}" for m in untranslated(po, template)]
    if not args.check:
        with POT.open("wb") as f:
            write_po(f, template, width=116, omit_header=False)
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems and args.check else 0


if __name__ == "__main__":
    sys.exit(main())

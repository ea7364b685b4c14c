"""Every relative link of the README and of docs/ leads to a file of this repository, so a fresh clone's
documentation has no dead links (the specs and example records live in docs/, not beside the clone)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

# [text](target) and ![alt](target), the target up to a space (a title may follow) or the closing bracket;
# code spans and fenced blocks are dropped first, as Markdown reads no links inside them.
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE = re.compile(r"`[^`\n]*`")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)     # https:, mailto:, ...
# A path up from the page written as code, `../spec/a.md`: not a link, but a reader follows it all the same.
PATH_UP = re.compile(r"`(\.\./[^`\s]+)`")


def links(text: str) -> list[str]:
    targets = (m.group(1) for m in LINK.finditer(CODE.sub("", FENCE.sub("", text))))
    return [t for t in targets if not EXTERNAL.match(t) and not t.startswith("#")]


def resolve(page: Path, target: str) -> Path:
    path = unquote(target.split("#", 1)[0])
    return (ROOT / path.lstrip("/")) if path.startswith("/") else (page.parent / path)


def dead(page: Path, targets: list[str]) -> list[str]:
    found = []
    for target in targets:
        path = resolve(page, target).resolve()
        if not path.is_relative_to(ROOT):
            found.append(f"{target} (outside the repository)")
        elif not path.exists():
            found.append(f"{target} (no such file)")
    return found


def test_the_pages_are_found() -> None:
    assert ROOT / "README.md" in PAGES and ROOT / "docs" / "spec" / "rules-56.md" in PAGES


def test_links_are_read_but_not_inside_code() -> None:
    text = "[a](spec/a.md) ![b](b.png \"title\") `[c](c.md)` [d](https://x.org) [e](#top)\n```\n[f](f.md)\n```\n"
    assert links(text) == ["spec/a.md", "b.png"]
    assert resolve(ROOT / "docs" / "x.md", "spec/a.md#rules") == ROOT / "docs" / "spec" / "a.md"
    outside = "../shared/spec/records.md"
    assert dead(ROOT / "README.md", [outside]) == [f"{outside} (outside the repository)"]


@pytest.mark.parametrize("doc", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves_inside_the_repository(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    assert not dead(doc, links(text)), doc.relative_to(ROOT)
    assert not dead(doc, PATH_UP.findall(text)), doc.relative_to(ROOT)

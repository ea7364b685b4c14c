"""The bots read a seat's knowledge typed (issue 29): no module of ``fiftysix.bots`` reads a view dict by key,
except the boundary: ``base.py``, where a JSON view handed to a bot is read into its observation once
(:func:`fiftysix.bots.base.observed`), and ``protocol.py``, the stdin/stdout protocol, whose messages are JSON
and whose outside programs are sent the JSON view itself."""

from __future__ import annotations

import re
from pathlib import Path

import fiftysix.bots
from fiftysix.views import SeatView, TrickView

BOTS = Path(fiftysix.bots.__file__).parent
BOUNDARY = {"base.py", "protocol.py"}
KEYS = sorted({*SeatView.__annotations__, *TrickView.__annotations__,
               "winner", "team", "value", "strain", "players"})   # a finished trick's, a contract's, the rules'
READ = re.compile(r"""(\[\s*["'](?:%s)["']\s*\]|\.get\(\s*["'](?:%s)["']\s*[,)])""" % (("|".join(KEYS),) * 2))


def key_reads() -> list[str]:
    return [f"{path.relative_to(BOTS)}:{n}: {line.strip()}"
            for path in sorted(BOTS.rglob("*.py")) if path.name not in BOUNDARY or path.parent != BOTS
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if READ.search(line)]


def test_the_bots_read_no_view_dict_by_key() -> None:
    assert key_reads() == []


def test_the_scan_sees_a_key_read() -> None:
    assert READ.search('legal = view["legal"]') and READ.search("view.get('trick') or {}")
    assert READ.search('int(contract.get("value") or 28)') and not READ.search('last.get("how")')

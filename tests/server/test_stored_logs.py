"""The tables a server of commit e8e5a5c stored load unchanged today (issue 29: the protocol and events were
reworked, the stored log format was not to change).

``tests/fixtures/stored-logs-e8e5a5c.db`` was written by that commit's code (``tests/fixtures/make_stored_logs.py``:
a 56-4 match of computer players, a paused 55 table with a turn clock and a person's move, a private 56-6 lobby
with an admitted guest, a 56-8 lobby with seats swapped), and ``stored-logs-e8e5a5c.json`` holds what that server
said of each table when started again on it.  Today's server, started on a copy, must say the same: every field
the old messages had, with the same value (fields added since are not compared; the clock's ``now`` is the time).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from helpers.server import KEYS, client, hello, keyed

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
OLD = json.loads((FIXTURES / "stored-logs-e8e5a5c.json").read_text(encoding="utf-8"))
MOMENT = {"now", "deadline"}      # the server's clock at the time of asking


def same(old: Any, new: Any, where: str = "") -> list[str]:
    """Where ``new`` differs from ``old`` in what ``old`` has (new keys are allowed)."""
    if isinstance(old, dict):
        if not isinstance(new, dict):
            return [f"{where}: {new!r} is not an object"]
        return [d for k, v in old.items() if k not in MOMENT
                for d in (same(v, new[k], f"{where}.{k}") if k in new else [f"{where}.{k}: missing"])]
    if isinstance(old, list):
        if not isinstance(new, list) or len(new) != len(old):
            return [f"{where}: {new!r} is not a list of {len(old)}"]
        return [d for i, (a, b) in enumerate(zip(old, new, strict=True)) for d in same(a, b, f"{where}[{i}]")]
    return [] if old == new else [f"{where}: was {old!r}, now {new!r}"]


@pytest.fixture()
def stored(tmp_path: Path) -> Path:
    db = tmp_path / "old.db"
    shutil.copy(FIXTURES / "stored-logs-e8e5a5c.db", db)
    return db


def test_every_stored_table_of_e8e5a5c_reads_as_it_did(stored: Path) -> None:
    assert len(OLD["tables"]) == 4
    with client(stored, bot_delay=3600, next_delay=3600) as c:
        for table in OLD["tables"]:
            code = table["code"]
            if table["key"]:
                KEYS[code] = table["key"]
            with c.websocket_connect(keyed(f"/ws/{code}")) as ws:
                state = hello(ws, OLD["token"])      # the token signed by the old server still holds
            info = c.get(keyed(f"/api/tables/{code}")).json()
            differences = same(table["state"], state, f"{code} state") + same(table["info"], info, f"{code} info")
            assert differences == [], differences[:10]


def test_the_comparison_sees_a_changed_field() -> None:
    old = OLD["tables"][1]["state"]
    changed = json.loads(json.dumps(old))
    changed["view"]["hand"] = changed["view"]["hand"][1:]
    changed["table"]["extra"] = "a field added since is fine"
    assert same(old, changed) and same(old, json.loads(json.dumps(old))) == []

"""Every example record (56 and 55) gives exactly the result the independent checker printed.

For invalid records only ``valid``, ``field`` and ``index`` (and, in match records, ``deal_field`` and
``deal_index``) must match; the wording of ``error`` is ours but must not be empty.
"""

from __future__ import annotations

import pytest

from fiftysix import check
from helpers.examples import example_pairs, load

PAIRS = [pair for game in ("56", "55") for pair in example_pairs(game)]


@pytest.mark.parametrize(("game", "at_least"), [("56", 20), ("55", 50)])
def test_examples_exist(game: str, at_least: int) -> None:
    assert len(example_pairs(game)) >= at_least


@pytest.mark.parametrize(("record", "expected"), PAIRS, ids=[f"{p[0].parent.name}/{p[0].name}" for p in PAIRS])
def test_example(record, expected) -> None:
    want = load(expected)
    got = check(load(record))
    if want["valid"]:
        assert got == want
        return
    keys = ["valid", "field", "index"] + [k for k in ("deal_field", "deal_index") if k in want]
    assert {k: got[k] for k in keys} == {k: want[k] for k in keys}
    assert got["error"]

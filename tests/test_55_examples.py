"""Every 55 example record gives exactly the result the independent checker printed."""

from __future__ import annotations

import pytest

from conftest import example_pairs, load
from fiftysix import check

PAIRS = example_pairs("55")


def test_examples_exist() -> None:
    assert len(PAIRS) >= 50


@pytest.mark.parametrize(("record", "expected"), PAIRS, ids=[p[0].name for p in PAIRS])
def test_example(record, expected) -> None:
    want = load(expected)
    got = check(load(record))
    if want["valid"]:
        assert got == want
    else:
        assert {k: got[k] for k in ("valid", "field", "index")} == {k: want[k] for k in ("valid", "field", "index")}
        assert got["error"]
        if "deal_field" in want:
            assert (got["deal_field"], got["deal_index"]) == (want["deal_field"], want["deal_index"])

"""Every 56 example record gives exactly the result the independent checker printed."""

from __future__ import annotations

import pytest

from conftest import example_pairs, load
from fiftysix import check

PAIRS = example_pairs("56")


def test_examples_exist() -> None:
    assert len(PAIRS) >= 20


@pytest.mark.parametrize(("record", "expected"), PAIRS, ids=[p[0].name for p in PAIRS])
def test_example(record, expected) -> None:
    want = load(expected)
    got = check(load(record))
    if want["valid"]:
        assert got == want
    else:
        assert {k: got[k] for k in ("valid", "field", "index")} == {k: want[k] for k in ("valid", "field", "index")}
        assert got["error"]

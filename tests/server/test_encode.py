"""Messages to clients are encoded by orjson, and read back by any JSON parser as the same values."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from fiftysix.server.edge.safejson import encode

_scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.floats(allow_nan=False,
                                                                                     allow_infinity=False) | st.text()
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=5)
                       | st.dictionaries(st.text(max_size=8), inner, max_size=5), max_leaves=30)


@given(_values)
def test_a_message_reads_back_as_sent(value: object) -> None:
    text = encode(value)
    assert json.loads(text) == value


def test_text_orjson_refuses_still_goes_out_escaped() -> None:
    lone = {"name": "As\udc80ha", "seats": (1, 2), 3: "three"}
    text = encode(lone)
    assert json.loads(text) == {"name": "As\udc80ha", "seats": [1, 2], "3": "three"}
    text.encode("utf-8")      # valid UTF-8 on the wire

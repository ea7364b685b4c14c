"""The database's parts read what they are given as it must be: a stored JSON column is an object, a create
event's time a number (anything else reads as 0, as an old log without it)."""

from __future__ import annotations

import pytest

from fiftysix.server.storage.db_reads import _json
from fiftysix.server.storage.db_writer import _created


def test_a_stored_json_object_reads_from_text_or_from_a_dict() -> None:
    assert _json('{"kind": "sit", "seat": 2}') == {"kind": "sit", "seat": 2}
    stored = {"kind": "sit"}
    read = _json(stored)
    assert read == stored and read is not stored


@pytest.mark.parametrize("value", ["[1, 2]", "3", [1, 2], None])
def test_a_stored_value_that_is_not_an_object_is_refused(value: object) -> None:
    with pytest.raises(ValueError, match="JSON object"):
        _json(value)


@pytest.mark.parametrize(("event", "time"), [({"kind": "create", "time": 1700000000}, 1700000000),
                                             ({"kind": "create", "time": 12.7}, 12),
                                             ({"kind": "create"}, 0), ({"kind": "create", "time": None}, 0)])
def test_a_create_events_time(event: dict[str, object], time: int) -> None:
    assert _created(event) == time

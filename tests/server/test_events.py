"""Table events as classes (issue 42): every stored kind reads into its dataclass and writes back to the same
bytes, and an event that is not one the table knows is refused with a clear error."""

from __future__ import annotations

import dataclasses
import inspect
import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fiftysix.server.state import events as ev
from fiftysix.server.state.errors import EventError, TableError
from fiftysix.server.state.table import TableState
from fiftysix.server.storage.sqlite_writer import to_text

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "stored-logs-e8e5a5c.db"


def stored_rows() -> list[str]:
    with sqlite3.connect(FIXTURE) as db:
        return [row[0] for row in db.execute("SELECT data FROM events ORDER BY table_code, version")]


def test_every_stored_event_of_the_fixture_reads_into_its_class_and_writes_the_same_bytes() -> None:
    rows = stored_rows()
    kinds = set()
    for text in rows:
        event = ev.decode(json.loads(text))
        assert type(event) is ev.EVENTS[event.kind]
        assert to_text(event.to_json()) == text
        kinds.add(event.kind)
    assert {"create", "stand", "start", "move", "next", "pause", "admit", "bot", "swap"} <= kinds


def test_the_fixture_replays_through_the_typed_state_to_the_same_bytes() -> None:
    tables: dict[str, TableState] = {}
    with sqlite3.connect(FIXTURE) as db:
        for code, text in db.execute("SELECT table_code, data FROM events ORDER BY table_code, version"):
            state = tables.setdefault(code, TableState(code))
            assert to_text(state.apply(json.loads(text))) == text


# -- generated events of every kind ----------------------------------------------------------------------------
_TEXT = st.text(min_size=0, max_size=12)
_INT = st.integers(min_value=-(2**62), max_value=2**62)
_FLOAT = st.floats(allow_nan=False, allow_infinity=False)
_NUMBER = st.one_of(_INT, _FLOAT)


def _values(cls: type[ev.Event]) -> st.SearchStrategy[ev.Event]:
    """Events of ``cls`` with each field drawn from what its type allows (sparse fields often left out)."""
    parts: dict[str, st.SearchStrategy[object]] = {}
    for name, allowed, _sparse in ev._FIELDS[cls]:
        options: list[st.SearchStrategy[object]] = []
        for c in allowed:
            if c is type(None):
                options.append(st.none())
            elif c is bool:
                options.append(st.booleans())
            elif c is int:
                options.append(_INT)
            elif c is float:
                options.append(_FLOAT)
            elif c is str:
                options.append(_TEXT)
            elif c is dict:
                options.append(st.dictionaries(st.sampled_from(["move", "bank", "bid"]), _NUMBER, max_size=3))
        parts[name] = st.one_of(*options)
    return st.builds(cls, **parts)   # type: ignore[arg-type]


ANY_EVENT = st.one_of(*(_values(cls) for cls in ev.EVENTS.values()))


@settings(max_examples=300, deadline=None)
@given(ANY_EVENT)
def test_any_event_goes_to_json_and_back_unchanged(event: ev.Event) -> None:
    data = event.to_json()
    text = to_text(data)
    again = ev.decode(json.loads(text))
    assert again == event
    assert to_text(again.to_json()) == text
    assert list(data)[0] == "kind"


def test_every_kind_is_listed_once() -> None:
    classes = [c for c in vars(ev).values() if isinstance(c, type) and issubclass(c, ev.Event) and c is not ev.Event]
    kinds = [c for c in classes if "kind" in vars(c)]
    assert sorted(c.kind for c in kinds) == sorted(ev.EVENTS)
    # the others only hold the fields kinds share: private, no kind, and never listed
    assert all(c.__name__.startswith("_") and c not in ev.EVENTS.values() for c in classes if c not in kinds)


def test_every_field_a_kind_declares_is_a_dataclass_field() -> None:
    # a kind without ``@dataclass`` of its own inherits its base's fields: a field it declared would be lost
    for cls in ev.EVENTS.values():
        for c in cls.__mro__:
            if issubclass(c, ev.Event):
                assert set(inspect.get_annotations(c)) - {"kind"} <= {f.name for f in dataclasses.fields(cls)}, c


# -- refusals --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("data", "words"), [
    ({"kind": "launch", "player": "p"}, "unknown event kind 'launch'"),
    ({"player": "p"}, "unknown event kind None"),
    ({"kind": 3}, "unknown event kind 3"),
    ({"kind": "sit", "player": "p", "seat": "zero"}, "event 'sit': seat must be int, not str 'zero'"),
    ({"kind": "sit", "player": "p", "seat": True}, "event 'sit': seat must be int, not bool True"),
    ({"kind": "sit", "player": "p"}, "event 'sit' needs the field 'seat'"),
    ({"kind": "sit", "player": "p", "seat": 1, "chair": 2}, "event 'sit' has no field chair"),
    ({"kind": "move", "seat": 0, "move": "P", "by": "player", "id": 7}, "event 'move': id must be str or null"),
    ({"kind": "create", "game": "56", "rules": 4, "name": "t", "host": "h", "host_name": "H", "fill": None,
      "grace": 60}, "event 'create': rules must be str or dict"),
])
def test_an_event_the_table_does_not_know_is_refused_clearly(data: dict[str, object], words: str) -> None:
    with pytest.raises(EventError) as caught:
        ev.decode(data)
    assert words in str(caught.value)
    assert isinstance(caught.value, TableError)      # refused as any request is, nothing changes
    state = TableState("ABCDEF")
    with pytest.raises(EventError):
        state.apply(data)
    assert state.version == 0

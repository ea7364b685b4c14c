"""Every client message is a dataclass, decoded once (issue 29): each ``type`` the protocol takes has its frozen
class, the fields come from the JSON object by name, a move's text and id are checked as it is decoded."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from fiftysix.i18n import translate
from fiftysix.server.state.table import TableError
from fiftysix.server.table import protocol
from fiftysix.server.table.client_messages import MESSAGES, MISSING, TYPES, ClientMessage, Move, Swap, decode
from helpers.server import client, create, keyed, player, receive_until


@pytest.mark.parametrize("kind", TYPES)
def test_each_type_decodes_to_its_own_frozen_dataclass(kind: str) -> None:
    message = decode({"type": kind, "move": "28H"})       # a move needs its text; the others ignore it
    assert dataclasses.is_dataclass(message) and isinstance(message, ClientMessage)
    assert message.kind == kind and type(message) is MESSAGES[kind]
    field = next(iter(dataclasses.fields(message)), None)
    if field is not None:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(message, field.name, 1)


def test_the_protocol_documents_every_type_and_takes_no_other() -> None:
    client_part = (protocol.__doc__ or "").split("Besides")[0]       # then what the server sends
    documented = set(re.findall(r'\{"type": "(\w+)"', client_part))
    assert documented - {"moved"} == set(TYPES)        # "moved": the answer to a move, named beside it
    assert len(set(MESSAGES.values())) == len(TYPES)      # one class a type


def test_fields_are_read_by_name_and_the_rest_is_ignored() -> None:
    assert decode({"type": "swap", "a": 0, "b": 3, "c": 9}) == Swap(a=0, b=3)
    move = decode({"type": "move", "move": "28H", "id": "c-1"})
    assert move == Move("28H", "c-1", MISSING)          # no seat: the sender's own
    assert decode({"type": "move", "move": "JS", "seat": 2}) == Move("JS", None, 2)


@pytest.mark.parametrize(("msg", "says"), [
    ({"type": "move"}, "a move must be a non-empty string"),
    ({"type": "move", "move": "   "}, "a move must be a non-empty string"),
    ({"type": "move", "move": 28}, "a move must be a non-empty string"),
    ({"type": "move", "move": "x" * 65}, "a move must be a non-empty string"),
    ({"type": "move", "move": "28H", "id": ""}, "a move id must be text of 1-32 printable characters"),
    ({"type": "move", "move": "28H", "id": "a\nb"}, "a move id must be text of 1-32 printable characters"),
    ({"type": "move", "move": "28H", "id": 7}, "a move id must be text of 1-32 printable characters"),
])
def test_a_malformed_move_is_refused_as_it_is_decoded(msg: dict[str, object], says: str) -> None:
    with pytest.raises(TableError, match=re.escape(says)):
        decode(msg)


@pytest.mark.parametrize(("msg", "english", "malayalam"), [
    ({"type": "sit", "seat": "zero"}, "the seat must be a number", "സീറ്റ് ഒരു സംഖ്യയായിരിക്കണം"),
    ({"type": "sit", "seat": True}, "the seat must be a number", "സീറ്റ് ഒരു സംഖ്യയായിരിക്കണം"),
    ({"type": "swap", "a": 0, "b": 1.5}, "the seat must be a number", "സീറ്റ് ഒരു സംഖ്യയായിരിക്കണം"),
    ({"type": "move", "move": "28H", "seat": "2"}, "the seat must be a number", "സീറ്റ് ഒരു സംഖ്യയായിരിക്കണം"),
    ({"type": "join", "name": 7}, "the name must be text", "പേര് എഴുത്തായിരിക്കണം"),
    ({"type": "bot", "seat": 1, "bot": ["pimc"]}, "the bot must be text", "കമ്പ്യൂട്ടർ എഴുത്തായിരിക്കണം"),
    ({"type": "react", "reaction": 3}, "the reaction must be text", "reaction എഴുത്തായിരിക്കണം"),
    ({"type": "hello", "version": "17"}, "the version must be a number", "പതിപ്പ് ഒരു സംഖ്യയായിരിക്കണം"),
    ({"type": "hello", "token": 5}, "the player token must be text", "കളിക്കാരന്റെ ടോക്കൺ എഴുത്തായിരിക്കണം"),
    ({"type": "hello", "key": True}, "the table's secret must be text", "മേശയുടെ രഹസ്യവാക്ക് എഴുത്തായിരിക്കണം"),
    ({"type": "ask", "name": ["Ben"]}, "the name must be text", "പേര് എഴുത്തായിരിക്കണം"),
])
def test_a_field_of_the_wrong_type_is_refused_as_it_is_decoded_in_each_language(
        msg: dict[str, object], english: str, malayalam: str) -> None:
    with pytest.raises(TableError) as caught:
        decode(msg)
    assert english in caught.value.message
    assert malayalam in translate(caught.value.message, "ml")


def test_each_field_is_typed() -> None:
    """No field of any message, ``hello`` and ``ask`` included, takes any object (issue 42)."""
    untyped = [(cls.kind, f.name) for cls in MESSAGES.values() for f in dataclasses.fields(cls)
               if f.type in ("object", object)]
    assert not untyped


def test_a_hello_with_a_field_of_the_wrong_type_is_told_and_the_socket_watches(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        asha = player(c, "Asha")
        code = create(c, asha, preset="56-4")
        c.cookies.clear()
        with c.websocket_connect(keyed(f"/ws/{code}")) as ws:
            ws.send_json({"type": "hello", "version": "seventeen"})
            said = receive_until(ws, lambda m: m["type"] == "error")
            assert "the version must be a number" in said["message"]
            ws.send_json({"type": "ping"})
            assert receive_until(ws, lambda m: m["type"] == "pong")["version"] >= 1


@pytest.mark.parametrize("message", [
    MESSAGES["pause"](), MESSAGES["resume"](), MESSAGES["replace"](seat=2, bot="rules"),    # a club night's
    MESSAGES["sit"](seat=0), Move(move="28H", id="c-1"), Move(move="JH", seat=3), Swap(a=0, b=1)])
def test_a_message_made_as_its_class_is_the_json_a_client_sends(message: ClientMessage) -> None:
    """How a feature commands a table (:func:`.protocol.send_as`): the class's own JSON, decoded back the same,
    with what was left unset left out."""
    sent = message.to_json()
    assert sent["type"] == message.kind and None not in sent.values() and MISSING not in sent.values()
    assert decode(sent) == message

"""Events and messages are made as their declared classes: no dict literal in server/ names a ``type`` or a ``kind``
outside the module that declares that kind (issue 56: a wrong key was found only when the program ran)."""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "src" / "fiftysix" / "server"

DECLARATIONS = {"state/events.py", "table/outgoing.py", "table/client_messages.py"}
"""Where events, outgoing messages and client messages are declared (each class's ``to_json`` writes the JSON)."""

ASGI = ("http.", "websocket.", "lifespan.")
"""ASGI's own messages (``{"type": "http.request"}``) are the server framework's protocol, not the table's."""

ELSEWHERE: set[tuple[str, str]] = set()
"""(file, kind) of a literal let through while another branch rewrites that file: none."""


def literals(rel: str, source: str) -> list[str]:
    """Each dict literal (or ``dict(type=...)`` call) of ``source`` with a ``type`` or ``kind`` key, as
    ``"line N: type=value"`` (the value ``?`` when it is no string constant)."""
    found = []
    tree = ast.parse(source)
    words = {id(a) for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
             and n.func.id == "Meaning" for a in n.args}     # a sentence's placeholders: {"type": "move"}
    for node in ast.walk(tree):
        pairs: list[tuple[str, ast.expr]] = []
        if isinstance(node, ast.Dict) and id(node) not in words:
            pairs = [(k.value, v) for k, v in zip(node.keys, node.values, strict=True)
                     if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
            pairs = [(k.arg, k.value) for k in node.keywords if k.arg is not None]
        for key, value in pairs:
            if key not in ("type", "kind"):
                continue
            named = value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) else "?"
            if named.startswith(ASGI) or (rel, named) in ELSEWHERE:
                continue
            found.append(f"line {node.lineno}: {key}={named}")
    return found


def test_no_event_or_message_is_a_dict_literal_outside_its_declaration() -> None:
    bad = {rel: hits for p in sorted(SERVER.rglob("*.py"))
           if (rel := p.relative_to(SERVER).as_posix()) not in DECLARATIONS
           and (hits := literals(rel, p.read_text(encoding="utf-8")))}
    assert bad == {}


def test_the_scan_sees_each_way_of_writing_one() -> None:
    assert literals("x.py", 'conn.send({"type": "error", "message": "no"})\n') == ["line 1: type=error"]
    assert literals("x.py", 'e = {"kind": "sit", "player": p, "seat": 2}\n') == ["line 1: kind=sit"]
    assert literals("x.py", "m = dict(type=kind, seat=1)\n") == ["line 1: type=?"]
    assert literals("x.py", 'seats.append({"seat": 1, "kind": "bot"})\n') == ["line 1: kind=bot"]
    assert literals("x.py", 'await send({"type": "websocket.accept"})\n') == []     # ASGI's
    assert literals("x.py", 'Error("no")\nSit(player=p, seat=2)\n{"seat": 1}\n') == []
    assert literals("x.py", 'Meaning("a {type} message", {"type": kind})\n') == []       # words' placeholder

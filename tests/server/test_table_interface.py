"""The hub talks to a table through its public methods (issue 42): outside the table's own modules nothing
writes a table's fields or calls its private methods (read from the source with ``ast``)."""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "src" / "fiftysix" / "server"
OWN = {SERVER / "table" / "live.py", SERVER / "table" / "presence.py", SERVER / "cluster" / "table.py",
       SERVER / "cluster" / "replica.py"}
TABLE_NAMES = {"table", "t", "found", "live"}     # how the server's code names a table it holds


def _on_a_table(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in TABLE_NAMES


def trespasses(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            for part in ast.walk(target):
                if _on_a_table(part) and isinstance(part.ctx, ast.Store):
                    assert isinstance(part, ast.Attribute)
                    found.append(f"line {node.lineno}: writes .{part.attr}")
        if isinstance(node, ast.Call) and _on_a_table(node.func):
            assert isinstance(node.func, ast.Attribute)
            if node.func.attr.startswith("_") and not node.func.attr.startswith("__"):
                found.append(f"line {node.lineno}: calls .{node.func.attr}()")
    return found


def test_nothing_outside_a_table_writes_its_fields_or_calls_its_private_methods() -> None:
    bad = {str(p.relative_to(SERVER)): t for p in sorted(SERVER.rglob("*.py")) if p not in OWN
           if (t := trespasses(ast.parse(p.read_text())))}
    assert not bad, bad


def test_the_check_finds_a_trespass() -> None:
    assert trespasses(ast.parse("table.owner = 1\nt.hosted, t.counted = h, True\ntable._answer_later()")) == [
        "line 1: writes .owner", "line 2: writes .hosted", "line 2: writes .counted", "line 3: calls ._answer_later()"]

"""The server's folders stand in layers (issues 42 and 56): a module imports only from its own folder and the layers
below it (read from the source with ``ast``).  The feature folders (accounts, clubs, matches, nights, play) are one
layer above the table core and the pages they serve: the table publishes what happens (a deal finishing, a deal
stored, a read to judge) and features subscribe, so nothing below them imports one (no exemption: issue 56)."""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "src" / "fiftysix" / "server"
# from the ground up: a module may import its own layer and those before it
LAYERS = ["services.py", "review.py", "state", "edge", "storage", "table", "cluster", "serving.py", "pages", "features",
          "app.py"]
FEATURES = {"accounts", "clubs", "daily", "matches", "nights", "play"}
"""The feature folders: one layer (a feature may use another: a club night's tables are a club's)."""


def layer_of(parts: list[str]) -> str | None:
    """The layer of a module given by its parts below ``fiftysix.server``; None for the package itself."""
    if not parts:
        return None
    if parts[0] in FEATURES:
        return "features"
    return parts[0] if (SERVER / parts[0]).is_dir() else f"{parts[0]}.py"


def imported(rel: tuple[str, ...], source: str) -> list[tuple[int, list[str]]]:
    """(line, the parts below ``fiftysix.server``) of each server module that the module at ``rel`` (its path
    below ``server/``) imports; a name imported from a package counts as a module of it."""
    package = ["fiftysix", "server", *rel[:-1]]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = base + (node.module.split(".") if node.module else [])
            targets = [target] if node.module else [[*target, a.name] for a in node.names]
            found += [(node.lineno, t[2:]) for t in targets if t[:2] == ["fiftysix", "server"]]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name.split(".")[2:]) for a in node.names if a.name.startswith("fiftysix.server.")]
    return found


def upward(rel: tuple[str, ...], source: str) -> list[str]:
    """Each import of the module at ``rel`` from a layer above its own."""
    own = layer_of([Path(rel[0]).stem, *rel[1:]])
    if own is None or rel == ("__init__.py",):      # the package's face hands on the public names
        return []
    bad = []
    for line, parts in imported(rel, source):
        other = layer_of(parts)
        if other is not None and LAYERS.index(other) > LAYERS.index(own):
            bad.append(f"line {line}: {own} imports {'.'.join(parts)} ({other})")
    return bad


def test_every_module_and_folder_of_the_server_has_a_layer() -> None:
    names = {p.name for p in SERVER.iterdir() if p.suffix == ".py" or (p / "__init__.py").exists()}
    assert names - {"__init__.py"} - FEATURES == set(LAYERS) - {"features"}


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    bad = {str(p.relative_to(SERVER)): b for p in sorted(SERVER.rglob("*.py"))
           if (b := upward(p.relative_to(SERVER).parts, p.read_text(encoding="utf-8")))}
    assert not bad, bad


def test_the_check_finds_an_import_from_above() -> None:
    source = "from ..table.live import LiveTable\nfrom ..state.table import TableState\nfrom . import db_schema\n"
    assert upward(("storage", "db.py"), source) == ["line 1: storage imports table.live (table)"]
    assert upward(("state", "table.py"), "from .. import serving\n") == ["line 1: state imports serving (serving.py)"]
    assert upward(("serving.py",), "import fiftysix.server.pages.socket\n") == [
        "line 1: serving.py imports pages.socket (pages)"]
    assert upward(("storage", "db_writer.py"), "from ..matches import store\n") == [
        "line 1: storage imports matches (features)"]                 # the core imports no feature
    assert upward(("serving.py",), "from .accounts.store import Accounts\n") == [
        "line 1: serving.py imports accounts.store (features)"]
    assert upward(("matches", "store.py"), source) == []                    # a feature builds on the core
    assert upward(("nights", "routes.py"), "from ..clubs.routes import endpoint\n") == []   # and on another

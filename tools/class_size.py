"""List the classes longer than a limit: ``python tools/class_size.py src/fiftysix/server [--max 250]`` counts a
class alone (lines from ``class`` to its last line); ``--with-bases`` counts it with the lines of every base class
defined in the project (recursively, each once), so a class split into a chain of bases is measured whole.
Exits 1 when one is over."""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path
from typing import NamedTuple

PROJECT = Path(__file__).resolve().parents[1] / "src"


class ClassInfo(NamedTuple):
    """One class of the project: where it is, its own lines, and its bases as ``(module, name)``."""

    module: str
    name: str
    path: Path
    lines: int
    bases: tuple[tuple[str, str], ...]


def long_classes(root: Path, limit: int) -> list[tuple[int, str, str]]:
    """``(lines, file, class)`` for every class over ``limit`` lines alone under ``root``, longest first."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    found.append((lines, str(path), node.name))
    return sorted(found, reverse=True)


def _module_name(path: Path, source_root: Path) -> str:
    parts = list(path.relative_to(source_root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported_names(tree: ast.Module, module: str, is_package: bool) -> dict[str, tuple[str, str]]:
    """Local name -> ``(module, name)`` for every ``from X import name`` (relative ones resolved)."""
    names: dict[str, tuple[str, str]] = {}
    package = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package[: len(package) - node.level + 1]
            source = ".".join(base + ([node.module] if node.module else []))
        else:
            source = node.module or ""
        for alias in node.names:
            names[alias.asname or alias.name] = (source, alias.name)
    return names


def project_classes(source_root: Path = PROJECT) -> dict[tuple[str, str], ClassInfo]:
    """Every top-level-or-nested class under ``source_root`` by ``(module, name)``, its bases resolved through the
    module's own classes and its ``from ... import`` lines."""
    classes: dict[tuple[str, str], ClassInfo] = {}
    for path in sorted(source_root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = _module_name(path, source_root)
        imported = _imported_names(tree, module, path.name == "__init__.py")
        own = {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef) or node.end_lineno is None:
                continue
            bases = []
            for base in node.bases:
                target = base.value if isinstance(base, ast.Subscript) else base
                if isinstance(target, ast.Name):
                    if target.id in own:
                        bases.append((module, target.id))
                    elif target.id in imported:
                        bases.append(imported[target.id])
            classes[(module, node.name)] = ClassInfo(module, node.name, path, node.end_lineno - node.lineno + 1,
                                                     tuple(bases))
    return classes


def _resolve(key: tuple[str, str], classes: dict[tuple[str, str], ClassInfo]) -> ClassInfo | None:
    """The class a base names, following a re-export through a package's ``__init__`` once."""
    if key in classes:
        return classes[key]
    return next((c for c in classes.values() if c.name == key[1] and c.module.startswith(key[0] + ".")), None)


def lines_with_bases(info: ClassInfo, classes: dict[tuple[str, str], ClassInfo]) -> int:
    """The class's own lines plus those of every project base class, each counted once."""
    seen: set[tuple[str, str]] = {(info.module, info.name)}
    total = info.lines
    todo = list(info.bases)
    while todo:
        base = _resolve(todo.pop(), classes)
        if base is None or (base.module, base.name) in seen:
            continue
        seen.add((base.module, base.name))
        total += base.lines
        todo.extend(base.bases)
    return total


def long_classes_with_bases(root: Path, limit: int, source_root: Path = PROJECT) -> list[tuple[int, str, str]]:
    """``(lines with bases, file, class)`` for every class under ``root`` over ``limit``, longest first."""
    classes = project_classes(source_root)
    root = root.resolve()
    found = []
    for info in classes.values():
        if info.path.resolve().is_relative_to(root):
            lines = lines_with_bases(info, classes)
            if lines > limit:
                found.append((lines, str(info.path), info.name))
    return sorted(found, reverse=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("roots", nargs="+", type=Path)
    parser.add_argument("--max", type=int, default=250)
    parser.add_argument("--with-bases", action="store_true", help="count each class with its project base classes")
    parser.add_argument("--source", type=Path, default=PROJECT, help="the source root the bases are looked up in")
    args = parser.parse_args()
    if args.with_bases:
        over = [c for root in args.roots for c in long_classes_with_bases(root, args.max, args.source)]
    else:
        over = [c for root in args.roots for c in long_classes(root, args.max)]
    for lines, path, name in over:
        print(f"{lines:5d}  {path}  {name}")
    print(f"{len(over)} classes over {args.max} lines{' with their bases' if args.with_bases else ''}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())

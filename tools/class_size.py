"""List the classes longer than a limit (lines from ``class`` to its last line): ``python tools/class_size.py
src/fiftysix/server [--max 250]``; exits 1 when one is over."""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path


def long_classes(root: Path, limit: int) -> list[tuple[int, str, str]]:
    """``(lines, file, class)`` for every class over ``limit`` lines under ``root``, longest first."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    found.append((lines, str(path), node.name))
    return sorted(found, reverse=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("roots", nargs="+", type=Path)
    parser.add_argument("--max", type=int, default=250)
    args = parser.parse_args()
    over = [c for root in args.roots for c in long_classes(root, args.max)]
    for lines, path, name in over:
        print(f"{lines:5d}  {path}  {name}")
    print(f"{len(over)} classes over {args.max} lines")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())

"""The complexity gate of ``make lint``: no function or method above cyclomatic complexity 25 (radon's measure).

A function over the limit is split along its seams into named helpers; the few listed in :data:`EXCEPTIONS`
are left over it on purpose, each with the reason.  ``python tools/complexity.py [PATH...]`` prints every
function over the limit and exits 1 if any is not excepted (default path: ``src/fiftysix``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Class

LIMIT = 25

# The one place for what may stay over the limit: (file, function) → why.
EXCEPTIONS: dict[tuple[str, str], str] = {
    # the numba kernel of the double-dummy search: one flat loop per search is what numba compiles fast,
    # and its tests compare it with the pure-Python reference instead
    ("src/fiftysix/solver/kernel.py", "*"): "compiled search kernel",
}


def over_limit(path: Path, root: Path) -> list[tuple[str, str, int, int]]:
    """(file, function, line, complexity) of each function or method of ``path`` above :data:`LIMIT`."""
    found = []
    name = path.resolve().relative_to(root).as_posix()
    for block in cc_visit(path.read_text(encoding="utf-8")):
        # a class's methods come again as functions of their own; its score is theirs, not a function's
        if not isinstance(block, Class) and block.complexity > LIMIT:
            found.append((name, block.fullname, block.lineno, block.complexity))
    return found


def excepted(name: str, function: str) -> bool:
    return (name, "*") in EXCEPTIONS or (name, function) in EXCEPTIONS


def main(argv: list[str]) -> int:
    root = Path.cwd().resolve()
    paths = [Path(a) for a in argv] or [Path("src/fiftysix")]
    files = sorted(f for p in paths for f in ([p] if p.is_file() else p.rglob("*.py")))
    failed = False
    for path in files:
        for name, function, line, complexity in over_limit(path, root):
            if excepted(name, function):
                continue
            failed = True
            print(f"{name}:{line}: {function} has cyclomatic complexity {complexity} (limit {LIMIT}): "
                  "split it into named helpers", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

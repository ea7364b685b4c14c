"""The lock (requirements/*.txt, made by `make lock`) pins every package the project installs."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LOCKS = ROOT / "requirements"
# a requirement line of a lock: `name==version` (an environment marker and a hash continuation may follow)
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?==([^\s;\\]+)")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(spec: str) -> str:
    return canonical(re.split(r"[\s\[<>=!~;]", spec, maxsplit=1)[0])


def pins(lock: str) -> dict[str, set[str]]:
    """Each package of a lock with its pinned versions (two where a marker splits them by Python version)."""
    found: dict[str, set[str]] = {}
    for line in (LOCKS / lock).read_text().splitlines():
        if not line or line[0] in " #-":
            continue
        match = PIN.match(line)
        assert match, f"{lock}: a requirement without an exact version: {line!r}"
        found.setdefault(canonical(match[1]), set()).add(match[3])
    return found


def project() -> dict[str, list[str]]:
    """pyproject.toml's optional dependency sets, the build system's requirements among them."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    sets: dict[str, list[str]] = dict(data["project"]["optional-dependencies"])
    sets["build"] = list(data["build-system"]["requires"])
    sets["main"] = list(data["project"]["dependencies"])
    return sets


@pytest.mark.parametrize("lock", ["test.txt", "serve.txt", "uv.txt"])
def test_every_line_of_a_lock_pins_one_version_and_carries_hashes(lock: str) -> None:
    text = (LOCKS / lock).read_text()
    assert pins(lock), f"{lock} pins nothing"
    blocks = re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 2)[-1])
    for block in blocks:
        if PIN.match(block):
            assert "--hash=sha256:" in block, f"{lock}: no hash for {block.splitlines()[0]!r}"


def test_every_dependency_of_pyproject_is_in_the_test_lock() -> None:
    locked = pins("test.txt")
    for extra, specs in project().items():
        for spec in specs:
            assert requirement_name(spec) in locked, f"{spec!r} ({extra}) is not in requirements/test.txt"


def test_the_serve_lock_holds_the_server_set_only_at_the_test_locks_versions() -> None:
    serve, test = pins("serve.txt"), pins("test.txt")
    sets = project()
    for spec in sets["server"] + sets["solver"] + sets["build"]:
        assert requirement_name(spec) in serve, f"{spec!r} is not in requirements/serve.txt"
    for name in ("pytest", "mypy", "open-spiel", "ray", "redis", "playwright"):
        assert name not in serve, f"the server's lock installs {name}, which only the tests need"
    for name, versions in serve.items():
        assert versions <= test.get(name, set()), f"{name}: serve pins {versions}, test pins {test.get(name)}"


def test_the_makefile_installs_from_the_lock_only() -> None:
    makefile = (ROOT / "Makefile").read_text()
    installs = [line for line in makefile.splitlines() if re.search(r"\bpip (install|sync)\b", line)]
    assert installs
    for line in installs:
        assert "requirements/" in line or "--no-deps" in line, f"an install not from the lock: {line.strip()}"

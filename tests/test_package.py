"""What a built package holds: an install that is not editable must lose nothing the code reads from its own files."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out, tree = tmp_path_factory.mktemp("wheel"), tmp_path_factory.mktemp("tree")
    # a copy of the files git knows: a build left in the checkout (egg-info, build/) would hide a missing entry
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.splitlines()
    for name in listed:
        if (ROOT / name).is_file():
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, tree / name)
    # setuptools comes from the lock, so the build needs no index
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--no-index", "-w", str(out), str(tree)], check=True, cwd=out)
    [built] = out.glob("fiftysix-*.whl")
    return zipfile.ZipFile(built)


def test_the_wheel_carries_every_message_catalogue(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    catalogues = sorted(p.relative_to(ROOT / "src").as_posix()
                        for p in (ROOT / "src/fiftysix/i18n/locale").glob("*/LC_MESSAGES/fiftysix.mo"))
    assert catalogues, "no compiled catalogue in the source tree"
    for catalogue in catalogues:
        assert catalogue in names, f"the wheel lacks {catalogue}: an installed server would speak English only"


def test_the_wheel_carries_the_pages_the_fonts_and_the_migrations(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    static = ROOT / "src/fiftysix/server/static"
    for path in static.rglob("*"):
        if path.is_file():
            assert path.relative_to(ROOT / "src").as_posix() in names, f"the wheel lacks {path.name}"
    versions = ROOT / "src/fiftysix/server/migrations/versions"
    for path in versions.glob("*.py"):
        assert path.relative_to(ROOT / "src").as_posix() in names, f"the wheel lacks migration {path.name}"

"""What a built package holds: an install that is not editable must lose nothing the code reads from its own files."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tree = tmp_path_factory.mktemp("tree")
    # a copy of the files git knows: a build left in the checkout (egg-info, build/) would hide a missing entry
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.splitlines()
    for name in listed:
        if (ROOT / name).is_file():
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, tree / name)
    return tree


@pytest.fixture(scope="module")
def wheel(tree: Path, tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
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


def test_the_wheel_carries_py_typed(wheel: zipfile.ZipFile) -> None:
    """Issue 56: without it users' mypy treats the package as untyped (PEP 561); the sdist's test checks it too."""
    assert (ROOT / "src/fiftysix/py.typed").is_file()
    assert "fiftysix/py.typed" in wheel.namelist()


def test_the_wheel_carries_the_pages_the_fonts_and_the_migrations(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    static = ROOT / "src/fiftysix/server/static"
    for path in static.rglob("*"):
        if path.is_file():
            assert path.relative_to(ROOT / "src").as_posix() in names, f"the wheel lacks {path.name}"
    versions = ROOT / "src/fiftysix/server/storage/migrations/versions"
    for path in versions.glob("*.py"):
        assert path.relative_to(ROOT / "src").as_posix() in names, f"the wheel lacks migration {path.name}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str, lang: str, body: bytes | None = None) -> tuple[int, str]:
    origin = "/".join(url.split("/")[:3])
    request = urllib.request.Request(url, data=body, headers={
        "Accept-Language": lang, "Origin": origin, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def _malayalam(text: str) -> bool:
    return any("\u0d00" <= ch <= "\u0d7f" for ch in text)


@pytest.mark.slow
def test_the_installed_wheel_serves_malayalam_without_the_source_tree(
        wheel: zipfile.ZipFile, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    uv = Path(sys.executable).parent / "uv"
    # the server's dependencies from the lock (uv's cache holds them after make test's install), then the wheel alone
    subprocess.run([str(uv), "pip", "sync", "--quiet", "--python", str(python), "--require-hashes",
                    str(ROOT / "requirements/serve.txt")], check=True)
    subprocess.run([str(uv), "pip", "install", "--quiet", "--python", str(python), "--no-deps", wheel.filename or ""],
                   check=True)
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    server = subprocess.Popen([str(python), "-m", "fiftysix", "serve", "--port", str(port), "--db",
                               f"sqlite+aiosqlite:///{tmp_path / 'served.db'}", "--log-level", "warning"],
                              cwd=tmp_path, env=env)   # cwd: no source tree in sight
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(300):
            with contextlib.suppress(OSError):
                if _get(base + "/", "en")[0] == 200:
                    break
            time.sleep(0.1)
        found = subprocess.run([str(python), "-c", "import fiftysix; print(fiftysix.__file__)"], cwd=tmp_path,
                               capture_output=True, text=True, check=True).stdout
        assert str(venv) in found, f"the test ran the source tree, not the wheel: {found}"
        # a table asked for by someone with no name yet: a refusal from the server's catalogue
        en_status, en_body = _get(base + "/api/tables", "en", b"{}")
        ml_status, ml_body = _get(base + "/api/tables", "ml", b"{}")
        assert en_status == ml_status >= 400 and not _malayalam(json.loads(en_body)["error"])
        assert _malayalam(json.loads(ml_body)["error"]), f"the installed server answered in English: {ml_body}"
        status, page_words = _get(base + "/static/i18n/ml.json", "ml")
        assert status == 200 and any(_malayalam(v) for v in json.loads(page_words).values() if isinstance(v, str))
        assert _get(base + "/", "ml")[0] == 200
    finally:
        server.terminate()
        server.wait(timeout=20)


def test_the_sdist_carries_what_the_wheel_is_built_from(tree: Path, tmp_path: Path) -> None:
    out = tmp_path / "dist"
    subprocess.run([sys.executable, "-c", "import sys; from setuptools import build_meta; "
                    "build_meta.build_sdist(sys.argv[1])", str(out)], cwd=tree, check=True, capture_output=True)
    [built] = out.glob("fiftysix-*.tar.gz")
    with tarfile.open(built) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    for wanted in ("src/fiftysix/i18n/locale/ml/LC_MESSAGES/fiftysix.mo", "src/fiftysix/server/static/index.html",
                   "requirements/serve.txt", "pyproject.toml", "src/fiftysix/py.typed"):
        assert wanted in names, f"the sdist lacks {wanted}"

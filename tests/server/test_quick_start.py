"""A quick start (issue 59): the server imports what a request needs when it needs it.  Importing the app, making
it and ``fiftysix serve``'s command line import none of the heavy modules (each checked in a fresh interpreter:
``sys.modules``); a database at the migrations' head starts without Alembic; the computer players are imported in
the background after the start.  The lazily imported parts are tested through their routes elsewhere
(test_accounts.py's passkeys, test_review_workers.py, test_server.py's computer players)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from fiftysix.server.storage.db import MIGRATIONS, Database, heads

SRC = Path(__file__).resolve().parents[2] / "src"
HEAVY = ("alembic", "webauthn", "numba", "numpy", "redis", "mako", "fiftysix.solver", "fiftysix.bots",
         "fiftysix.analysis")
"""Modules the start does without (:mod:`fiftysix.server.app`'s ``WARM_UP`` names those warmed after it)."""


def heavy_after(code: str, timeout: float = 120) -> list[str]:
    """The :data:`HEAVY` modules loaded after running ``code`` in a new interpreter on this checkout's source."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))\n"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=timeout,
                         check=True).stdout
    return list(json.loads(out.strip().splitlines()[-1]))


def test_importing_and_making_the_app_imports_no_heavy_module(tmp_path: Path) -> None:
    assert heavy_after("import fiftysix.server.app") == []
    assert heavy_after("from fiftysix.server import Settings, create_app\n"
                       f"create_app(Settings(db_url='sqlite+aiosqlite:///{tmp_path / 'q.db'}'))") == []


def test_the_serve_command_imports_no_other_command_nor_the_bots() -> None:
    assert heavy_after("import contextlib, io\nfrom fiftysix.cli.main import main\n"
                       "with contextlib.redirect_stdout(io.StringIO()):\n"
                       "    assert main(['serve', '--help']) == 0") == []


def test_the_heads_read_from_the_files_are_alembics() -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    assert heads() == frozenset(ScriptDirectory.from_config(cfg).get_heads())


def test_a_database_at_the_head_starts_without_alembic(db: str) -> None:
    url = db

    async def migrate() -> None:
        base = Database(url)
        try:
            assert not await base._at_head()       # a new database: no revision yet
            await base.migrate()
            assert await base._at_head()
        finally:
            await base.close()

    asyncio.run(migrate())
    start = ("import asyncio\nfrom fiftysix.server.storage.db import Database\n"
             f"async def main():\n    base = Database({url!r})\n    await base.migrate()\n"
             "    assert await base.secret()\n    await base.close()\nasyncio.run(main())")
    assert "alembic" not in heavy_after(start)


def test_the_bots_are_warmed_after_the_start_and_the_catalogue_names_them(tmp_path: Path) -> None:
    code = ("import sys, time\nfrom starlette.testclient import TestClient\n"
            "from fiftysix.server import Settings, create_app\n"
            f"app = create_app(Settings(db_url='sqlite+aiosqlite:///{tmp_path / 'w.db'}'))\n"
            "with TestClient(app) as c:\n"
            "    assert c.get('/').status_code == 200\n"
            "    end = time.monotonic() + 60\n"
            "    while 'fiftysix.bots' not in sys.modules and time.monotonic() < end:\n"
            "        time.sleep(0.05)\n"
            "    assert 'fiftysix.bots' in sys.modules, 'not warmed'\n"
            "    games = c.get('/api/catalogue').json()\n"
            "    assert 'rules' in games['56']['bots'] and games['56']['levels']['club']\n")
    assert {"fiftysix.bots", "numpy"} <= set(heavy_after(code))

"""Every page and file the server names is there: the app's pages, the installable app's worker and manifest, and
each URL the worker precaches (a module moved to another folder once looked for ``static/`` beside itself)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from fiftysix.server import Settings
from fiftysix.server.pages.pwa import precached
from helpers.server import TestClient, create_app


def test_every_page_and_precached_file_is_served(tmp_path: Path) -> None:
    app = create_app(Settings(db_url=f"sqlite+aiosqlite:///{tmp_path / 'p.db'}"))
    with TestClient(app, base_url="http://127.0.0.1:8056") as c:
        worker = c.get("/sw.js")
        assert worker.status_code == 200, worker.text[:200]
        assert "__VERSION__" not in worker.text and "__PRECACHE__" not in worker.text
        listed = json.loads(re.search(r"\[\"/\".*?\]", worker.text, re.S).group(0))   # type: ignore[union-attr]
        assert listed == precached() and len(listed) > 10
        manifest = c.get("/manifest.webmanifest")
        assert manifest.status_code == 200 and manifest.json()["name"]
        for url in [*listed, "/history", "/account", "/signin", "/club", "/review"]:
            r = c.get(url)
            assert r.status_code == 200, (url, r.status_code)
            assert r.content, url

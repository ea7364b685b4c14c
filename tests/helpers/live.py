"""A real server on 127.0.0.1 in a background thread, for browser tests and manual looks."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn

from fiftysix.server import Settings, Timing, create_app
from fiftysix.server.edge.limits import Limits
from fiftysix.server.edge.listen import server_config

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    def __init__(self, db_path: Path, bot_delay: float = 0.0, next_delay: float = 0.0, port: int | None = None,
                 limits: Limits | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.db_path = db_path
        settings = Settings(db_url=f"sqlite+aiosqlite:///{db_path}",
                            timing=Timing(bot_delay=bot_delay, next_delay=next_delay), limits=limits or Limits())
        config = server_config(create_app(settings), host="127.0.0.1", port=self.port, log_level="warning",
                               ws_max_size=1 << 20)   # the connection limits of `fiftysix serve`
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def browser_api() -> Any:
    """Playwright's sync API for a browser test module, called at its top: the module is skipped when the system
    Chromium is missing, except in CI (``CI=true``), where that fails the run."""
    import os

    import pytest

    if not CHROMIUM.exists():
        why = "the system Chromium (/usr/bin/chromium) is not installed: apt-get install chromium"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"{why} (CI=true: the browser tests must run)", pytrace=False)
        pytest.skip(why, allow_module_level=True)
    return pytest.importorskip("playwright.sync_api")


def on_server(live: LiveServer, work: Any, timeout: float = 20) -> Any:
    """Run a coroutine function of the live server's own app on its event loop (the database and the tables
    live there), given the app's :class:`~fiftysix.server.serving.Server`; its result."""
    import asyncio

    app = live.server.config.loaded_app
    while not hasattr(app, "state"):
        app = app.app
    loop = live.server.servers[0].get_loop()
    return asyncio.run_coroutine_threadsafe(work(app.state.server), loop).result(timeout=timeout)

"""Record downloads on the whole server's budget (issue 41): a record made once is served from the cache without
new work, a match's record is made again when a deal is added, and with every slot taken a new one is refused at
once (503, Retry-After, the reason in the asker's language) while a cached one is still served."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from test_server import deal_over, play_until

from fiftysix.server.edge.downloads import DownloadBusy, Downloads
from helpers.server import client, create, hello, keyed, player


def test_a_record_is_made_once_and_refused_at_once_when_every_slot_is_taken(tmp_path: Path) -> None:
    with client(tmp_path / "d.db") as c:
        token = player(c, "Asha")
        code = create(c, token, preset="56-4", fill="random")
        with c.websocket_connect(keyed(f"/ws/{code}")) as ws:
            hello(ws, token)
            ws.send_json({"type": "start"})
            play_until(ws, deal_over)
        app = c.app
        while not hasattr(app, "state"):
            app = app.app
        downloads = app.state.server.downloads
        first = c.get(keyed(f"/api/tables/{code}/deals/1.json"))
        assert first.status_code == 200 and downloads.made == 1
        again = c.get(keyed(f"/api/tables/{code}/deals/1.json"))
        assert again.text == first.text and downloads.made == 1           # from the cache: no new work
        match = c.get(keyed(f"/api/tables/{code}/matches/1.json"))
        assert match.status_code == 200 and json.loads(match.text)["deals"] == [first.json()]
        assert downloads.made == 2

        downloads.running = downloads.running_limit        # every slot taken (others are being made)
        busy = c.get(keyed(f"/api/tables/{code}/matches/1.json"))     # cached: still served
        assert busy.status_code == 200 and busy.text == match.text
        downloads._texts.clear()
        refused = c.get(keyed(f"/api/tables/{code}/deals/1.json"))
        assert refused.status_code == 503 and refused.headers["retry-after"] == "1"
        assert "busy preparing other downloads" in refused.json()["error"]
        refused_ml = c.get(keyed(f"/api/tables/{code}/deals/1.json"), headers={"Accept-Language": "ml"})
        assert refused_ml.status_code == 503 and "ഡൗൺലോഡ" in refused_ml.json()["error"]
        assert downloads.made == 2                          # nothing made while refused
        downloads.running = 0
        assert c.get(keyed(f"/api/tables/{code}/deals/1.json")).text == first.text
        assert c.get(keyed(f"/api/tables/{code}/deals/2.json")).status_code == 404


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 400)), min_size=1, max_size=40))
def test_the_cache_stays_within_its_bytes_and_always_gives_what_was_asked(asks: list[tuple[int, int]]) -> None:
    downloads = Downloads(running=1, cache_bytes=2000)

    async def run() -> None:
        for key, size in asks:
            record = {"key": key, "pad": "x" * size}
            text = await downloads.text(key, record)
            assert json.loads(text) == record or json.loads(text)["key"] == key
            assert downloads._size == sum(len(t) for t in downloads._texts.values()) <= 2000
            assert downloads.running == 0

    asyncio.run(run())


def test_a_busy_budget_raises_and_leaves_nothing_behind() -> None:
    downloads = Downloads(running=1)
    downloads.running = 1

    async def run() -> None:
        try:
            await downloads.text("k", {"a": 1})
        except DownloadBusy:
            return
        raise AssertionError("a full budget made a record")

    asyncio.run(run())
    assert downloads.cached("k") is None and downloads.made == 0 and downloads.running == 1

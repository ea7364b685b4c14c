"""Share QR codes have a whole-server budget (issue 41): 64 addresses asking for new links make no more codes
than the budget allows, every refused answer still carries the link, and another table's ping p50 stays within
twice its quiet value plus 20 ms.  Runs bench/qr_flood.py as documented (the server in a process of its own)."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from fiftysix.server.edge.limits import Limits

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the flooders use 127.0.1.x source addresses")
@pytest.mark.serial      # a time budget: run alone (make test)
def test_sixty_four_addresses_asking_for_qr_codes_get_the_budget_and_other_tables_do_not_wait() -> None:
    flood = subprocess.run([sys.executable, str(ROOT / "bench" / "qr_flood.py"), "--src", str(ROOT / "src"),
                            "--addresses", "64", "--rate", "10", "--seconds", "0.3"],
                           capture_output=True, text=True, timeout=240, check=True)
    figures = json.loads(flood.stdout.strip().splitlines()[-1])
    answers = figures["answers"]
    assert sum(answers.values()) > 1000, figures             # they did flood
    # made: at most the burst and the budget's rate over the flood (under 10 s here; d4bcdba made 889)
    budget = Limits()
    assert answers.get("200", 0) <= budget.qr_all_burst + budget.qr_all_per_minute / 60 * 10, figures
    # another table is not held up: a loop blocked by making codes answers in tens of ms or more. The bound is
    # twice the quiet p50 plus 20 ms, not twice alone: at a 1 ms quiet p50 the flood's 64 client threads, on the
    # same 2 cores as the server, move the p50 by a few ms (db1073e itself measured 4.5-4.9x in 2 of 4 runs)
    assert figures["flood_ping_p50"] <= 2 * figures["idle_ping_p50"] + 20, figures


def test_a_refused_qr_code_still_brings_the_link(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from fiftysix.server import Settings, create_app

    app = create_app(Settings(db_url=f"sqlite+aiosqlite:///{tmp_path / 'q.db'}",
                              limits=Limits(qr_all_burst=1, qr_all_per_minute=0.001)))
    fresh = secrets.token_hex(4).upper()      # links no other test had made (recent codes cost no budget)
    with TestClient(app) as c:
        made = c.post("/api/share", json={"path": f"/t/A{fresh}"})
        refused = c.post("/api/share", json={"path": f"/t/B{fresh}#k=secret"})
        assert made.status_code == 200 and made.json()["qr"].startswith("data:image/svg+xml")
        assert refused.status_code == 503 and refused.json()["qr"] is None
        assert refused.json()["url"].endswith(f"/t/B{fresh}#k=secret")
        assert "share the link" in refused.json()["error"]
        again = c.post("/api/share", json={"path": f"/t/A{fresh}"})     # made before: from the cache, no budget
        assert again.status_code == 200 and again.json()["qr"] == made.json()["qr"]

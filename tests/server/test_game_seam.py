"""What the server takes from each game's GameSpec: structured legal moves in every message, and the create
form's catalogue (presets and option values with their sentences)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fiftysix.games import GAMES
from helpers.server import client, create, hello, is_snapshot, player

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.mark.parametrize("preset", ["56-hidden", "55-teams-4"])
def test_every_message_carries_the_legal_moves_structured(tmp_path: Path, preset: str) -> None:
    with client(tmp_path / "t.db") as c:
        token = player(c, "Asha")
        kinds: set[str] = set()
        # a deal each on new tables until both a call and a card were this seat's to make (random bots may end
        # an auction, with a redouble, before this seat's turn)
        for _ in range(8):
            code = create(c, token, preset=preset, fill="random")
            with c.websocket_connect(f"/ws/{code}") as ws:
                msg: dict[str, Any] = hello(ws, token)
                assert msg["legal_moves"] is None
                ws.send_json({"type": "start"})
                for _ in range(5000):
                    msg = ws.receive_json()
                    if not is_snapshot(msg):
                        continue
                    legal = (msg["view"] or {}).get("legal")
                    if legal is None:
                        assert msg["legal_moves"] is None
                    else:
                        moves = msg["legal_moves"]
                        assert [m["move"] for m in moves] == legal
                        assert all(set(m) == {"move", "kind", "suit", "label"} and m["label"] for m in moves)
                        kinds.update(m["kind"] for m in moves)
                        ws.send_json({"type": "move", "move": legal[-1]})
                    if msg["table"]["status"] in ("deal_over", "match_over"):
                        break
            if "card" in kinds and kinds & {"bid", "pass"}:
                break
        assert "card" in kinds and kinds & {"bid", "pass"}


def test_the_catalogue_comes_from_the_game_specs(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        cat = c.get("/api/catalogue").json()
    assert set(cat) == set(GAMES)
    for name, game in GAMES.items():
        info = cat[name]
        assert info["descriptions"] == dict(game.preset_descriptions)
        assert info["default_preset"] == game.default_preset and info["side_word"] == game.side_word
        assert set(info["options"]) == set(game.choices)
        for option, meanings in game.option_descriptions.items():
            assert info["options"][option]["descriptions"] == dict(meanings)

"""The server speaks each viewer's language: the same bot's bid arrives as Malayalam to a viewer whose
browser (or cookie) asks for it and as English to another; errors and the create form's sentences too."""

from __future__ import annotations

import re
from typing import Any

from helpers.server import client, create, hello, is_snapshot, keyed, player, receive_until

MALAYALAM = re.compile(r"[\u0d00-\u0d7f]")


def _meanings(msg: dict[str, Any]) -> list[str]:
    view = msg.get("view") or {}
    return list(view.get("auction_meanings") or [])


def test_meanings_and_errors_arrive_in_each_viewers_language(db: str) -> None:
    with client(db) as c:
        token = player(c, "Asha")
        code = create(c, token, preset="56-6", fill="random")
        ml = {"accept-language": "ml-IN,ml;q=0.9,en;q=0.5"}
        with c.websocket_connect(keyed(f"/ws/{code}"), headers=ml) as ws, \
                c.websocket_connect(keyed(f"/ws/{code}"), headers={"accept-language": "en-GB"}) as watcher:
            hello(ws, token)
            hello(watcher)
            ws.send_json({"type": "start"})
            seen = receive_until(watcher, lambda m: is_snapshot(m) and len(_meanings(m)) >= 1)
            english = _meanings(seen)
            # the same calls, at this version or later (an auction only grows: compare its first calls)
            mine = receive_until(ws, lambda m, v=seen["version"]: is_snapshot(m) and m["version"] >= v)
            malayalam = _meanings(mine)[:len(english)]
            assert len(malayalam) == len(english) >= 1
            for ml_text, en_text in zip(malayalam, english, strict=True):
                assert MALAYALAM.search(ml_text) and not MALAYALAM.search(en_text), (ml_text, en_text)
            ws.send_json({"type": "sit", "seat": 99})
            error = receive_until(ws, lambda m: m["type"] == "error")
            assert MALAYALAM.search(error["message"]), error


def test_the_cookie_overrides_the_browser_for_the_create_form(db: str) -> None:
    with client(db) as c:
        c.cookies.set("lang", "ml")
        ml = c.get("/api/catalogue", headers={"accept-language": "en"}).json()
        c.cookies.set("lang", "en")
        en = c.get("/api/catalogue", headers={"accept-language": "ml"}).json()
        assert MALAYALAM.search(ml["56"]["descriptions"]["56-6"])
        assert en["56"]["descriptions"]["56-6"] == "56 for 6 players in two teams (the classic)."
        assert ml["56"]["presets"] == en["56"]["presets"]          # only words change, never the rules
        assert MALAYALAM.search(ml["56"]["options"]["trump"]["descriptions"]["hidden"])

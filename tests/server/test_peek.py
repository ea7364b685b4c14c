"""A watcher asks to see a seated person's hand (issue 43): the hand reaches that watcher only, never anyone
seated; seated views are unchanged by any request; a watcher who saw a hand sits only after the match."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.server import KEYS, client, create, hello, is_snapshot, player, receive_until


def seen_now(ws: Any) -> dict[str, Any]:
    """The connection's current snapshot (asked for now): its version, view and the table's facts."""
    ws.send_json({"type": "state"})
    msg = receive_until(ws, lambda m: m["type"] == "state")
    return {"version": msg["version"], "view": msg["view"], "you": msg["you"]}


def post(c: Any, token: str, path: str, body: dict[str, Any]) -> Any:
    c.cookies.clear()
    c.cookies.set("fiftysix_player", token)
    return c.post(path, json=body)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seat=st.sampled_from([0, 2]), answer=st.sampled_from(["allow", "refuse", "always"]),
       again=st.booleans())
def test_a_hand_reaches_only_the_watcher_and_seated_views_are_unchanged(tmp_path: Path, seat: int, answer: str,
                                                                        again: bool) -> None:
    with client(tmp_path / f"p{seat}{answer}{again}.db") as c:
        asha, ben, wen = player(c, "Asha"), player(c, "Ben"), player(c, "Wen")
        code = create(c, asha, preset="56-4", fill="random")     # a new table: a new random deal
        path = f"/api/tables/{code}/peek?k={KEYS[code]}"
        url = f"/ws/{code}?k={KEYS[code]}"
        with c.websocket_connect(url) as wa, c.websocket_connect(url) as wb, c.websocket_connect(url) as ww:
            hello(wa, asha)
            hello(wb, ben)
            wb.send_json({"type": "join", "name": "Ben"})
            wb.send_json({"type": "sit", "seat": 2})
            receive_until(wb, lambda m: is_snapshot(m) and m["you"]["seat"] == 2)
            hello(ww, wen)
            ww.send_json({"type": "join", "name": "Wen"})
            receive_until(ww, lambda m: is_snapshot(m) and m["you"]["joined"])
            wa.send_json({"type": "start"})
            receive_until(wa, lambda m: is_snapshot(m) and m["table"]["status"] == "playing")
            seated = {0: (wa, asha), 2: (wb, ben)}
            asked_ws, asked_token = seated[seat]
            before = {s: seen_now(ws) for s, (ws, _) in seated.items()}
            for _ in range(2 if again else 1):
                r = post(c, wen, path, {"seat": seat})
                assert r.status_code == 200, r.text
                if r.json().get("asked"):
                    ask = receive_until(asked_ws, lambda m: m["type"] == "peek_ask")
                    assert ask["name"] == "Wen" and ask["seat"] == seat
                    r = post(c, asked_token, path.replace("/peek?", "/peek/answer?"),
                             {"watcher": ask["watcher"], "answer": answer})
                    assert r.status_code == 200, r.text
                else:       # "always" the first time: shown without asking
                    assert answer == "always" and again
            after = {s: seen_now(ws) for s, (ws, _) in seated.items()}
            assert after == before      # no seated view changed, and no message of a hand came first
            if answer == "refuse":
                receive_until(ww, lambda m: m["type"] == "peek_refused")
                ww.send_json({"type": "sit", "seat": 1})     # refused: only the seat rule answers, not the bar
                assert "match ends" not in receive_until(ww, lambda m: m["type"] == "error")["message"]
                return
            shown = receive_until(ww, lambda m: m["type"] == "peek_hand")
            assert shown["seat"] == seat and shown["hand"] == before[seat]["view"]["hand"]
            ww.send_json({"type": "sit", "seat": 1})
            refused = receive_until(ww, lambda m: m["type"] == "error")
            assert "match ends" in refused["message"]
            assert seen_now(ww)["you"]["seat"] is None


def test_a_seated_person_cannot_ask_and_nobody_answers_an_ask_never_made(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        asha, wen = player(c, "Asha"), player(c, "Wen")
        code = create(c, asha, preset="56-4", fill="random")
        path = f"/api/tables/{code}/peek?k={KEYS[code]}"
        with c.websocket_connect(f"/ws/{code}?k={KEYS[code]}") as wa:
            hello(wa, asha)
            wa.send_json({"type": "start"})
            receive_until(wa, lambda m: is_snapshot(m) and m["table"]["status"] == "playing")
            assert post(c, asha, path, {"seat": 0}).status_code == 400
            assert post(c, wen, path, {"seat": 1}).status_code == 400      # a computer's seat
            r = post(c, asha, path.replace("/peek?", "/peek/answer?"), {"watcher": "x", "answer": "allow"})
            assert r.status_code == 400
            assert post(c, wen, path, {"seat": 0}, ).status_code == 200
            foreign = c.post(path, json={"seat": 0}, headers={"origin": "https://evil.example"})
            assert foreign.status_code == 403

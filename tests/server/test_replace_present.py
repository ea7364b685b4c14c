"""The host's ``replace`` never puts a computer under a person who is at the table mid-deal: the person plays the
deal out and the computer takes the seat at the next deal; a person who is away is replaced at once (issue 41)."""

from __future__ import annotations

from typing import Any

from fiftysix.server.state.table import DEAL_OVER, PLAYING, TableState
from fiftysix.server.table.hub import creation_event
from helpers.server import client, create, hello, is_snapshot, keyed, player, receive_until


def _play_out(state: TableState) -> None:
    """Every move of the deal, the first legal one, each by whoever holds the seat."""
    while state.status == PLAYING:
        seat = state.to_move_table_seat()
        assert seat is not None and state.deal is not None
        move = str(state.deal.legal_moves()[0])
        person = state.seats[seat].player
        state.apply({"kind": "move", "seat": seat, "move": move, "by": "player" if person else "bot",
                     **({"player": person} if person else {})})


def test_a_replacement_at_the_next_deal_waits_for_it_and_then_takes_the_seat() -> None:
    state = TableState("X")
    state.apply_event(creation_event("p-host", "Host", {"preset": "56-4", "fill": "rules"}))
    state.apply({"kind": "join", "player": "p-ben", "name": "Ben"})
    state.apply({"kind": "sit", "player": "p-ben", "seat": 1})
    state.apply({"kind": "start", "player": "p-host", "seed": 5, "dealer": 0})
    state.apply({"kind": "replace", "player": "p-host", "seat": 1, "bot": "rules", "at_next_deal": True})
    assert state.seats[1].player == "p-ben"               # Ben plays this deal out
    _play_out(state)
    assert state.status == DEAL_OVER and state.seats[1].player == "p-ben"
    state.apply({"kind": "next", "player": "p-host", "seed": 6})
    assert state.seats[1].player is None and state.seats[1].bot == "rules"


def test_a_person_who_stood_up_meanwhile_is_not_replaced_again() -> None:
    state = TableState("X")
    state.apply_event(creation_event("p-host", "Host", {"preset": "56-4", "fill": "rules"}))
    for who, seat in (("p-ben", 1), ("p-cy", 2)):
        state.apply({"kind": "join", "player": who, "name": who})
        state.apply({"kind": "sit", "player": who, "seat": seat})
    state.apply({"kind": "start", "player": "p-host", "seed": 5, "dealer": 0})
    state.apply({"kind": "replace", "player": "p-host", "seat": 1, "bot": "pimc", "at_next_deal": True})
    _play_out(state)
    state.apply({"kind": "stand", "player": "p-ben"})
    state.apply({"kind": "sit", "player": "p-cy", "seat": 1})     # Cy moved to Ben's seat after the deal
    state.apply({"kind": "next", "player": "p-host", "seed": 6})
    assert state.seats[1].player == "p-cy"


def test_the_server_defers_the_replacement_of_a_person_who_is_connected(db: str) -> None:
    with client(db) as c:
        asha, ben = player(c, "Asha"), player(c, "Ben")
        code = create(c, asha, preset="56-4", fill="rules")
        with c.websocket_connect(keyed(f"/ws/{code}")) as wa, c.websocket_connect(keyed(f"/ws/{code}")) as wb:
            hello(wa, asha)
            hello(wb, ben)
            wb.send_json({"type": "join", "name": "Ben"})
            wb.send_json({"type": "sit", "seat": 1})
            receive_until(wa, lambda m: is_snapshot(m) and m["table"]["seats"][1]["kind"] == "player")
            wa.send_json({"type": "start"})
            receive_until(wa, lambda m: is_snapshot(m) and m["table"]["status"] == "playing")
            wa.send_json({"type": "replace", "seat": 1})
            after: Any = receive_until(wa, lambda m: is_snapshot(m) and m.get("event", {}).get("kind") == "replace")
            assert after["table"]["seats"][1]["kind"] == "player"     # Ben, who is here, keeps his seat mid-deal
            assert after["table"]["replacing"] == [1]                 # ... and the computer takes it next deal

"""Property: no message the server sends to a connection ever holds a card that its viewer may not see.

Tables of random presets (hidden trumps, closed 55 discards included) are played by two people, bots and
a spectator, with random moves and a reconnect with a version in the middle.  Every message each
connection gets is checked against what its viewer may know at that message's version, computed from the
table's log: never a card of another seat's unplayed hand, of the kitty, of the undealt cards, or of a
closed discard that is not the viewer's own.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from fiftysix.core.cards import Card  # noqa: E402
from fiftysix.games import GAMES  # noqa: E402
from fiftysix.server.state.table import PLAYING, TableState, replay  # noqa: E402
from fiftysix.server.storage.db import Database  # noqa: E402
from fiftysix.server.table.hub import Hub  # noqa: E402
from fiftysix.server.table.live import Connection, LiveTable, Timing  # noqa: E402
from fiftysix.server.table.protocol import handle_message  # noqa: E402
from helpers.server import cards_in  # noqa: E402

PRESETS = [("56-4", {}), ("56-hidden", {}), ("56-pairs-6", {}), ("56-announce", {}),
           ("55", {"discards": "closed"}), ("55-3", {}), ("55-teams-4", {"discards": "closed"})]


def forbidden(state: TableState, player: str | None) -> set[str]:
    """Cards the viewer may not see at this state: hidden cards minus anything the viewer may see."""
    deal = state.deal
    if deal is None:
        return set()
    table_seat = state.seat_of(player)
    seat = state.deal_seat(table_seat) if table_seat is not None else None
    hidden: set[Card] = set()
    for s, hand in enumerate(deal.hands):
        if s != seat:
            hidden |= set(hand)
    if deal.game == "55":
        dealt = {c for h in deal.dealt for c in h} | set(deal.kitty)
        hidden |= set(GAMES["55"].deck(deal.rules)) - dealt          # the undealt cards
        if not deal.kitty_taken:
            hidden |= set(deal.kitty)
        if deal.discard is not None and deal.rules.discards == "closed" and seat != deal.bidder:
            hidden |= set(deal.discard)
    allowed: set[Card] = set(m for _, m in deal.history if isinstance(m, Card))
    if seat is not None:
        allowed |= set(deal.dealt[seat]) | set(deal.hands[seat])
        if deal.game == "55" and seat == deal.bidder and deal.kitty_taken:
            allowed |= set(deal.kitty)
    if deal.game == "55" and deal.discard is not None and deal.rules.discards == "open":
        allowed |= set(deal.discard)
    return {str(c) for c in hidden - allowed}


async def scenario(db_path: Path, preset: str, options: dict[str, Any], choices: list[int], reconnect_at: int) -> None:
    db = Database(f"sqlite+aiosqlite:///{db_path}")
    await db.migrate()
    hub = Hub(db, Timing(bot_delay=0, next_delay=0))
    table: LiveTable = await hub.create("p-asha", "Asha", {"preset": preset, "options": options, "fill": "random",
                                                           "grace": 3600})
    conns = {"asha": Connection("p-asha"), "ben": Connection("p-ben"), "watch": Connection(None),
             "dee": Connection("p-dee")}
    for conn in conns.values():
        await table.connect(conn, None)
    await handle_message(table, conns["ben"], {"type": "join", "name": "Ben"})
    await handle_message(table, conns["ben"], {"type": "sit", "seat": 1})
    await handle_message(table, conns["dee"], {"type": "join", "name": "Dee"})     # joined, not seated
    await handle_message(table, conns["asha"], {"type": "start"})
    sent: dict[str, list[dict[str, Any]]] = {k: [] for k in conns}
    moves = 0
    for _ in range(2000):
        await asyncio.sleep(0)
        state = table.state
        if state.status != PLAYING:
            break
        who = state.to_move_table_seat()
        person = {0: "asha", 1: "ben"}.get(who) if who is not None else None
        if person is None:
            await asyncio.sleep(0.001)
            continue
        legal = [str(m) for m in state.deal.legal_moves()]
        pick = choices[moves % len(choices)] if choices else 0
        await handle_message(table, conns[person], {"type": "move", "move": legal[pick % len(legal)]})
        moves += 1
        if moves == reconnect_at:   # Ben drops and comes back with the version he last saw
            drain(conns["ben"], sent["ben"])
            last = max((m["version"] for m in sent["ben"] if m.get("type") in ("state", "event")), default=None)
            table.disconnect(conns["ben"])
            conns["ben"] = Connection("p-ben")
            await table.connect(conns["ben"], last)
    for key, conn in conns.items():
        drain(conn, sent[key])
    # each message against what its viewer may know at its version
    log = await db.events_of(table.code)
    states = [replay(table.code, log[:n]) for n in range(len(log) + 1)]
    players = {"asha": "p-asha", "ben": "p-ben", "watch": None, "dee": "p-dee"}
    checked = 0
    for key, messages in sent.items():
        for msg in messages:
            if "version" not in msg:
                continue
            bad = set(cards_in(msg)) & forbidden(states[msg["version"]], players[key])
            assert not bad, f"{key} was sent {sorted(bad)} at version {msg['version']} ({preset})"
            checked += 1
    assert checked > 0
    await hub.stop()
    await db.close()


def drain(conn: Connection, into: list[dict[str, Any]]) -> None:
    while not conn.queue.empty():
        msg = conn.queue.get_nowait()
        if msg is not None:
            into.append(msg)


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(PRESETS), choices=st.lists(st.integers(0, 400), max_size=40),
       reconnect_at=st.integers(1, 30))
def test_no_message_shows_a_card_its_viewer_may_not_see(preset: tuple[str, dict[str, Any]], choices: list[int],
                                                         reconnect_at: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(scenario(Path(tmp) / "t.db", preset[0], preset[1], choices, reconnect_at))

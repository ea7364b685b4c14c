"""The websocket protocol: what a client may send, and how each message becomes a table event.

Client messages are JSON objects of at most :data:`MAX_MESSAGE` bytes with a ``type``::

    {"type": "hello", "version": 17, "token": "..."}   first message; version = last one seen (optional)
    {"type": "join", "name": "Asha"}                   become a member of the table (watching)
    {"type": "sit", "seat": 2}   {"type": "stand"}     take or leave a seat
    {"type": "bot", "seat": 3, "bot": "random"}        host: a computer player in a seat
    {"type": "unbot", "seat": 3}                       host: remove it (before the start)
    {"type": "swap", "a": 0, "b": 1}                   host: swap two seats (between deals)
    {"type": "start"}  {"type": "next"}  {"type": "rematch"}
    {"type": "move", "move": "28H"}                    a call, a card, a trump, a discard: the rules' notation
    {"type": "explain", "move": "+2H"}                 the meaning of one of your legal calls, before making it
    {"type": "state"}                                  a full state now (after a gap, or to be sure)
    {"type": "ping"}

A refused message gets ``{"type": "error", "message": ...}`` on that connection only; the table is
unchanged and the connection stays open.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

from ..core.errors import FiftySixError
from ..core.moves import Call
from . import safejson
from .messages import snapshot
from .state import TableError
from .table import Connection, LiveTable
from .tokens import clean_name

MAX_MESSAGE = 4096

TYPES = ("hello", "join", "sit", "stand", "bot", "unbot", "swap", "start", "next", "rematch", "move", "explain",
         "state", "ping")


class RateLimit:
    """A token bucket: on average ``rate`` messages a second, at most ``burst`` at once.  Clients send a
    few messages a second; a flood is refused message by message so that it cannot starve the table."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.last = clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def refusal(self) -> str:
        return (f"too many messages: at most {self.rate:g} a second on average and {self.burst} at once; "
                "this one was ignored")


def read_message(text: str | bytes | None) -> tuple[dict[str, Any] | None, str | None]:
    """Parse one client message (a text frame; ``bytes`` for a binary frame): ``(message, None)`` or
    ``(None, error for the client)``."""
    if not isinstance(text, str):
        return None, "malformed message: a binary frame; messages are JSON in text frames"
    if len(text) > MAX_MESSAGE:
        return None, f"message too long ({len(text)} characters; at most {MAX_MESSAGE})"
    try:
        msg = safejson.loads(text)
    except safejson.BadJSON as e:
        return None, f"malformed message: {e}"
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        return None, 'malformed message: a JSON object with a "type" is expected'
    if msg["type"] not in TYPES:
        return None, f"unknown message type {msg['type'][:32]!r}; types are {', '.join(TYPES)}"
    return msg, None


async def handle_message(table: LiveTable, conn: Connection, msg: dict[str, Any]) -> None:
    """Turn a client message into a table event (or an answer), reporting a refusal to ``conn`` alone."""
    try:
        await _handle(table, conn, msg)
    except TableError as e:
        error: dict[str, Any] = {"type": "error", "message": e.message}
        if e.legal:
            error["legal"] = list(e.legal)
        conn.send(error)


async def _handle(table: LiveTable, conn: Connection, msg: dict[str, Any]) -> None:
    kind = msg["type"]
    if kind == "ping":
        conn.send({"type": "pong", "version": table.state.version})
        return
    if kind == "hello":
        raise TableError("already connected; send hello once per connection")
    if kind == "state":
        async with table.lock:
            conn.send(snapshot(table.state, table.presence, conn.player))
        return
    player = conn.player
    if player is None:
        raise TableError("you are watching: choose a name and join the table to play")
    if kind == "explain":
        async with table.lock:
            conn.send(_explain(table, player, msg.get("move")))
        return
    event: dict[str, Any] = {"kind": kind, "player": player}
    if kind == "join":
        try:
            event["name"] = clean_name(msg.get("name"))
        except ValueError as e:
            raise TableError(str(e)) from None
    elif kind == "sit" or kind == "unbot":
        event["seat"] = msg.get("seat")
    elif kind == "bot":
        event["seat"] = msg.get("seat")
        from .hub import bot_names

        bots = bot_names(table.state.game.name)
        if msg.get("bot") not in bots:
            raise TableError(f"bot must be one of {', '.join(bots)}")
        event["bot"] = msg["bot"]
    elif kind == "swap":
        event["a"], event["b"] = msg.get("a"), msg.get("b")
    elif kind in ("start", "rematch", "next"):
        event["seed"] = secrets.randbits(62)
        if kind != "next":
            event["dealer"] = secrets.randbelow(len(table.state.seats))
    elif kind == "move":
        move = msg.get("move")
        if not isinstance(move, str) or not move.strip() or len(move) > 64:
            raise TableError("a move must be a non-empty string in the notation of the rules")
        async with table.lock:
            seat = table.state.seat_of(player)
            if seat is None:
                raise TableError("you have no seat at this table; you are watching")
            claimed = msg.get("seat", seat)
            if claimed != seat:
                raise TableError(f"seat {claimed} is not yours; you sit in seat {seat}")
            if table.state.status == "playing" and table.state.to_move_table_seat() != seat:
                to_move = table.state.to_move_table_seat()
                name = _seat_name(table, to_move)
                raise TableError(f"it is not your turn: {name} (seat {to_move}) is to move")
            await table.commit({"kind": "move", "seat": seat, "move": move, "by": "player"})
        return
    if kind != "join" and player not in table.state.players:
        raise TableError("join the table with a name first")
    await table.submit(event)


def _seat_name(table: LiveTable, seat: int | None) -> str:
    if seat is None:
        return "nobody"
    s = table.state.seats[seat]
    if s.player is not None:
        return table.state.players.get(s.player, "?")
    return "a computer player"


def _explain(table: LiveTable, player: str, move: object) -> dict[str, Any]:
    """The public meaning of a call the player could make now, asked of the rules on a copy of the deal."""
    state = table.state
    seat = state.deal_seat(state.seat_of(player))
    deal = state.deal
    if state.status != "playing" or deal is None or seat is None or deal.to_move != seat:
        raise TableError("calls can be explained on your turn")
    if not isinstance(move, str) or len(move) > 64:
        raise TableError("explain needs one of your legal moves")
    try:
        parsed = deal.parse_move(move)
    except FiftySixError as e:
        raise TableError(str(e)) from None
    if not isinstance(parsed, Call) or parsed not in deal.legal_moves():
        return {"type": "explained", "move": move, "meaning": None}
    trial = deal.copy()
    trial.push_unchecked(parsed)
    index = sum(1 for _, m in trial.history if isinstance(m, Call)) - 1
    return {"type": "explained", "move": str(parsed),
            "meaning": state.game.describe_call(trial, index)}

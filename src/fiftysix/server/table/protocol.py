"""The websocket protocol: what a client may send, and how each message becomes a table event.

Client messages are JSON objects of at most :data:`MAX_MESSAGE` bytes with a ``type``::

    {"type": "hello", "version": 17, "token": "...", "key": "..."}   first message; version = last one seen,
                                                       key = a private table's link secret (both optional)
    {"type": "join", "name": "Asha"}                   become a member of the table (watching)
    {"type": "sit", "seat": 2}   {"type": "stand"}     take or leave a seat (``stand`` of a claimant: give it up)
    {"type": "claim", "seat": 2}                       mid-deal: take a computer player's seat from the next deal
    {"type": "bot", "seat": 3, "bot": "random"}        host: a computer player in a seat
    {"type": "unbot", "seat": 3}                       host: remove it (before the start)
    {"type": "swap", "a": 0, "b": 1}                   host: swap two seats (between deals)
    {"type": "start"}  {"type": "next"}  {"type": "rematch"}
    {"type": "move", "move": "28H", "id": "c-17"}      a call, a card, a trump, a discard: the rules' notation;
                                                       ``id`` (optional, 1-32 printable characters): applied at
                                                       most once; answered ``{"type": "moved", "id", "version"}``
    {"type": "offer", "seat": 3}                       host: offer a computer player's seat no person has seen
                                                       this deal to a late friend
    {"type": "ask", "name": "Ben"}                     at a private table without its link: ask the host
    {"type": "admit", "player": "..."}  {"type": "refuse", "player": "..."}   host: answer someone who asked
    {"type": "explain", "move": "+2H"}                 the meaning of one of your legal calls, before making it
    {"type": "react", "reaction": "😄"}                 a preset reaction to everyone (server/table/reactions.py)
    {"type": "pause"}  {"type": "resume"}              host: stop the table (no moves, no bot moves, clocks stop)
    {"type": "replace", "seat": 2, "bot": "rules"}     host: a computer player instead of the person there
                                                       (``bot`` optional: the table's fill or its best bot)
    {"type": "host", "seat": 2}                        host: hand the host role to the person in that seat
    {"type": "state"}                                  a full state now (after a gap, or to be sure)
    {"type": "ping"}

Besides ``state``/``event``/``presence``/``synced`` (see :mod:`.messages`), a connection may get
``moved`` (its move id was applied; ``again``: earlier), ``joined`` (a repeated join, nothing changed),
``private`` (a private table without its secret: nothing else is sent), ``asked``/``admitted``/``refused``
(asking the host) and, for the host, ``knocks`` (who is asking).

A refused message gets ``{"type": "error", "message": ...}`` (with the move's ``id`` for a move) on that
connection only; the table is unchanged and the connection stays open.  A ``join`` under the name you
joined with already changes nothing and is answered ``{"type": "joined", ...}``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ...core.errors import FiftySixError
from ...core.meaning import N_, Meaning, words_of
from ...core.moves import Call
from ..edge import safejson
from ..edge.limits import QuotaError
from ..edge.tokens import clean_name
from ..state import events as ev
from ..state.table import PLAYING, Seat, TableError
from ..state.typed_json import Received
from .client_messages import (
    MISSING,
    TYPES,
    AddBot,
    Admit,
    Ask,
    AskState,
    Claim,
    ClientMessage,
    Explain,
    Hello,
    Host,
    Join,
    Move,
    NextDeal,
    Offer,
    Pause,
    Ping,
    React,
    Refuse,
    Rematch,
    RemoveBot,
    Replace,
    Resume,
    Sit,
    Stand,
    Start,
    Swap,
    decode,
)
from .live import Connection, LiveTable
from .messages import snapshot
from .outgoing import Error, Explained, Joined, Moved, Pong
from .reactions import react

MAX_MESSAGE = 4096

CHANGES = frozenset({"sit", "claim", "stand", "bot", "unbot", "swap", "offer", "pause", "resume", "replace", "host"})
"""Messages that change the table without playing: each is a logged event, so they are rate limited
(``Limits.changes_per_minute`` per member, ``table_changes_per_minute`` per table): the log grows with play."""


def flood_refusal(rate: float, burst: int) -> Meaning:
    """What a connection over its message rate (a :class:`~fiftysix.server.edge.limits.Buckets` of its own) is told."""
    shown = format(rate, "g")     # 20, not 20.0
    return Meaning("too many messages: at most {rate} a second on average and {burst} at once; this one was ignored",
                   {"rate": shown, "burst": burst})


def read_message(text: str | bytes | None) -> tuple[Received | None, str | None]:
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


Handler = Callable[[LiveTable, Connection, Received], Awaitable[None]]
"""What handles a client's JSON message at a table: :func:`handle_message`, or the server's (which forwards it
to the table's writer with many processes, and guards who may send it)."""


async def send_as(handle: Handler, table: LiveTable, player: str, message: ClientMessage) -> list[str]:
    """``message`` handled as if ``player`` sent it over a socket, through ``handle``: how a feature (a club
    night's owner pausing its tables) commands a table; the refusals it got, as words."""
    conn = Connection(player)
    await handle(table, conn, message.to_json())
    refusals = []
    while not conn.queue.empty():
        sent = conn.queue.get_nowait()
        if sent is not None and sent.get("type") == Error.kind:
            refusals.append(str(sent.get("message")))
    return refusals


async def handle_message(table: LiveTable, conn: Connection, msg: Received) -> None:
    """Turn a client message into a table event (or an answer), reporting a refusal to ``conn`` alone."""
    try:
        await _handle(table, conn, decode(msg))
    except (TableError, QuotaError) as e:
        move_id = msg.get("id") if msg["type"] == "move" else None
        conn.send(Error(e.message, id=move_id if isinstance(move_id, str) else None,
                        legal=tuple(e.legal) if isinstance(e, TableError) and e.legal else None))


async def _handle(table: LiveTable, conn: Connection, msg: ClientMessage) -> None:
    """One decoded message: answered at once, or made a table event (one dispatch, on the message's class)."""
    anyone = _FOR_ANYONE.get(type(msg))
    if anyone is not None:
        await anyone(table, conn, msg)
        return
    player = conn.player
    if player is None:
        raise TableError(N_("you are watching: choose a name and join the table to play"))
    member = _FOR_A_NAME.get(type(msg))
    if member is not None:
        await member(table, conn, player, msg)
        return
    event = await _event(table, player, msg)
    if player not in table.state.players:
        raise TableError(N_("join the table with a name first"))
    if msg.kind in CHANGES:
        _check_changes(table, player)
    await table.submit(event)
    if msg.kind in CHANGES:     # only what was logged counts
        table.changes.take(player)
        table.table_changes.take("")


# -- answered without a name: a ping, the state, and what is out of place after hello -------------------------
async def _on_ping(table: LiveTable, conn: Connection, _msg: ClientMessage) -> None:
    conn.send(Pong(table.state.version))


async def _on_state(table: LiveTable, conn: Connection, _msg: ClientMessage) -> None:
    if conn.states_waiting:     # one is on its way, and every change after it: a client that does not read
        return                  # must not have the server build a full state per ask
    async with table.lock:
        conn.send(snapshot(table.state, table.presence, conn.player))


async def _on_second_hello(_table: LiveTable, _conn: Connection, _msg: ClientMessage) -> None:
    raise TableError(N_("already connected; send hello once per connection"))


async def _on_ask_inside(_table: LiveTable, _conn: Connection, _msg: ClientMessage) -> None:
    raise TableError(N_("you are let in already: join with a name"))


_FOR_ANYONE: dict[type[ClientMessage], Callable[[LiveTable, Connection, Any], Awaitable[None]]] = {
    Ping: _on_ping, AskState: _on_state, Hello: _on_second_hello, Ask: _on_ask_inside}


# -- a named person's messages that are not plain table events -----------------------------------------------
async def _on_explain(table: LiveTable, conn: Connection, player: str, msg: Explain) -> None:
    async with table.lock:
        conn.send(_explain(table, player, msg.move))


async def _on_react(table: LiveTable, _conn: Connection, player: str, msg: React) -> None:
    react(table, player, msg.reaction)


async def _on_join(table: LiveTable, conn: Connection, player: str, msg: Join) -> None:
    try:
        name = clean_name(msg.name)
    except ValueError as e:
        raise TableError(words_of(e)) from None
    async with table.lock:
        if _join_changes_nothing(table, conn, player, name):
            return
        await table.commit(ev.Join(player=player, name=name))


async def _on_admit(table: LiveTable, _conn: Connection, player: str, msg: Admit) -> None:
    await _answer_knock(table, player, "admit", msg.player)


async def _on_refuse(table: LiveTable, _conn: Connection, player: str, msg: Refuse) -> None:
    await _answer_knock(table, player, "refuse", msg.player)


async def _on_move(table: LiveTable, conn: Connection, player: str, msg: Move) -> None:
    async with table.lock:
        if msg.id is not None:
            done = table.state.applied_move(player, msg.id)
            if done is not None:   # a resend after a dropped connection: the earlier outcome, not a second move
                conn.send(Moved(msg.id, done, again=True))
                return
        seat = _mover_seat(table, player, msg)
        await table.commit(ev.Move(seat=seat, move=msg.move, by="player", player=player, id=msg.id))
        if msg.id is not None:
            conn.send(Moved(msg.id, table.state.version))


def _mover_seat(table: LiveTable, player: str, msg: Move) -> int:
    """The seat ``player`` moves for, when it is theirs to move now.

    :raises TableError: watching, paused, a seat a computer player covers, another's seat, not their turn.
    """
    state = table.state
    seat = state.seat_of(player)
    if seat is None:
        raise TableError(N_("you have no seat at this table; you are watching"))
    state.check_not_paused()
    if not state.may_see(player, seat):
        raise TableError(Meaning("a computer player plays seat {seat} until this deal ends; "
                                 "you play it from the next deal", {"seat": seat}))
    claimed = seat if msg.seat is MISSING else msg.seat
    if claimed != seat:
        raise TableError(Meaning("seat {claimed} is not yours; you sit in seat {seat}",
                                 {"claimed": claimed, "seat": seat}))
    if state.status == "playing" and state.to_move_table_seat() != seat:
        to_move = state.to_move_table_seat()
        raise TableError(Meaning("it is not your turn: {name} (seat {to_move}) is to move",
                                 {"name": _seat_name(table, to_move), "to_move": to_move}))
    return seat


_FOR_A_NAME: dict[type[ClientMessage], Callable[[LiveTable, Connection, str, Any], Awaitable[None]]] = {
    Explain: _on_explain, React: _on_react, Join: _on_join, Admit: _on_admit, Refuse: _on_refuse, Move: _on_move}


# -- the rest are table events, logged as they are built here ------------------------------------------------
async def _event(table: LiveTable, player: str, msg: ClientMessage) -> ev.Event:
    """The table event of a seat, host or dealing message (checked by the table when applied)."""
    match msg:
        case Sit():
            return ev.Sit(player=player, seat=_seat_number(table, msg.seat))
        case Claim():
            return ev.Claim(player=player, seat=_seat_number(table, msg.seat))
        case RemoveBot():
            return ev.RemoveBot(player=player, seat=_seat_number(table, msg.seat))
        case Offer():
            return ev.Offer(player=player, seat=_seat_number(table, msg.seat))
        case AddBot():
            seat, bot = _seat_number(table, msg.seat), _named_bot(table, msg.bot)
            if table.check_bot is not None and player == table.state.host:
                await _checked(table.check_bot(bot))
            return ev.AddBot(player=player, seat=seat, bot=bot)
        case Swap():
            return ev.Swap(player=player, a=_seat_number(table, msg.a), b=_seat_number(table, msg.b))
        case Replace():
            return await _replace(table, player, msg)
        case Host():
            return ev.HandHost(player=player, who=_host_seat(table, msg.seat).player)
        case NextDeal():
            return ev.NextDeal(player=player, seed=(await table.next_seed())[0])
        case Start() | Rematch():
            seed, dealer = await table.next_start()
            return (ev.Start if isinstance(msg, Start) else ev.Rematch)(player=player, seed=seed, dealer=dealer)
        case Stand():
            return ev.Stand(player=player)
        case Pause():
            return ev.Pause(player=player)
        case Resume():
            return ev.Resume(player=player)
    raise TableError(Meaning("a {type} message is not a table change", {"type": msg.kind}))


async def _replace(table: LiveTable, player: str, msg: Replace) -> ev.Replace:
    seat, bot = _seat_number(table, msg.seat), _replacement_bot(table, msg.bot)
    if table.check_bot is not None and msg.bot is not None:     # the fill was counted at creation
        await _checked(table.check_bot(bot))
    person = table.state.seats[seat].player
    # never mid-turn under a person who is here (docs/server.md)
    later = person is not None and person in table.presence.online and table.state.status == PLAYING
    return ev.Replace(player=player, seat=seat, bot=bot, at_next_deal=True if later else None)


def _host_seat(table: LiveTable, seat: object) -> Seat:
    """:raises TableError: unless ``seat`` is one of the table's seat numbers."""
    return table.state.seats[_seat_number(table, seat)]


def _seat_number(table: LiveTable, seat: object) -> int:
    """A seat number as the client sent it, checked to be one of the table's (the event holds a number).

    :raises TableError: for anything else.
    """
    seats = table.state.seats
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(seats):
        raise TableError(Meaning("seat must be a number 0-{last}", {"last": len(seats) - 1}))
    return seat


def _named_bot(table: LiveTable, bot: object) -> str:
    """:raises TableError: for a computer player the game does not have."""
    from .hub import bot_names

    bots = bot_names(table.state.game.name)
    if bot not in bots:
        raise TableError(Meaning("bot must be one of {bots}", {"bots": ', '.join(bots)}))
    return str(bot)


def _check_changes(table: LiveTable, player: str) -> None:
    """:raises TableError: when ``player`` (or the whole table) made too many seat and host changes of late."""
    limits = table.limits
    if table.changes.empty(player):
        raise TableError(Meaning("too many seat and table changes: at most {n} a minute and {burst} at once "
                                 "for each person; wait a moment and try again",
                                 {"n": limits.changes_per_minute, "burst": limits.change_burst}))
    if table.table_changes.empty(""):
        raise TableError(Meaning("too many seat and table changes at this table: at most {n} a minute and "
                                 "{burst} at once; wait a moment and try again",
                                 {"n": limits.table_changes_per_minute, "burst": limits.table_change_burst}))


def _replacement_bot(table: LiveTable, bot: object) -> str:
    """The computer player that replaces a person: the one asked for, else the table's fill or best bot.

    :raises TableError: for a bot the game does not have.
    """
    from .live import default_bot

    if bot is None:
        return table.state.fill or default_bot(table.state.game.name)
    return _named_bot(table, bot)


def _join_changes_nothing(table: LiveTable, conn: Connection, player: str, name: str) -> bool:
    """A repeated join changes nothing and is not logged; a rename and a new member are limited.

    :raises TableError: for a rename too soon or a table with as many members as it may have.
    """
    state, limits = table.state, table.limits
    current = state.players.get(player)
    if current == name:
        conn.send(Joined(name, state.version, f"you have joined this table already as {name}; nothing changed"))
        return True
    if current is not None:
        if table.renames.empty(player):
            raise TableError(Meaning("you may change your name at a table {n} times an hour; you stay {name} for now",
                                     {"n": limits.renames_per_hour, "name": current}))
        table.renames.take(player)
    elif len(state.players) >= limits.members:
        raise TableError(Meaning("this table has {count} members, the most allowed ({most})",
                                 {"count": len(state.players), "most": limits.members}))
    return False


async def _answer_knock(table: LiveTable, player: str, kind: str, who: object) -> None:
    """The host lets someone who asked into a private table, or refuses them.

    :raises TableError: for anyone but the host, or someone who did not ask.
    """
    async with table.lock:
        if player != table.state.host:
            raise TableError(N_("only the host can do that"))
        name = table.asking().get(who) if isinstance(who, str) else None
        if name is None or not isinstance(who, str):
            raise TableError(N_("nobody with that id is asking to join"))
        if kind == "admit":
            if len(table.state.players) >= table.limits.members:
                raise TableError(Meaning("this table has {count} members, the most allowed ({most})",
                                         {"count": len(table.state.players), "most": table.limits.members}))
            await table.commit(ev.Admit(player=player, who=who, name=name))
        table.answer_knock(str(who), kind == "admit")


async def _checked(check: Awaitable[None] | None) -> None:
    """Wait for a quota check that is a coroutine (counted in Redis)."""
    if check is not None:
        await check


def _seat_name(table: LiveTable, seat: int | None) -> str:
    if seat is None:
        return "nobody"
    s = table.state.seats[seat]
    if s.player is not None:
        return table.state.players.get(s.player, "?")
    return "a computer player"


def _explain(table: LiveTable, player: str, move: object) -> Explained:
    """The public meaning of a call the player could make now, asked of the rules on a copy of the deal."""
    state = table.state
    seat = state.deal_seat(state.own_seat(player))
    deal = state.deal
    if state.status != "playing" or deal is None or seat is None or deal.to_move != seat:
        raise TableError(N_("calls can be explained on your turn"))
    if not isinstance(move, str) or len(move) > 64:
        raise TableError(N_("explain needs one of your legal moves"))
    try:
        parsed = deal.parse_move(move)
    except FiftySixError as e:
        raise TableError(words_of(e)) from None
    if not isinstance(parsed, Call) or parsed not in deal.legal_moves():
        return Explained(move, None)
    trial = deal.copy()
    trial.push_unchecked(parsed)
    index = sum(1 for _, m in trial.history if isinstance(m, Call)) - 1
    return Explained(str(parsed), state.game.describe_call(trial, index))

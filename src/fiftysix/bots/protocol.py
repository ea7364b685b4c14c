"""The bot protocol of ``docs/spec/views-and-bots.md``, both sides, and bots named by a spec.

One JSON object a line.  The host writes ``hello`` (a new match), ``move`` (the bot's turn, with its
view), ``event`` (after each move, the seat's new view), ``deal_end`` (the result) and ``bye``; the bot
answers ``ready`` to ``hello`` and ``move`` to ``move``.

- Bot side: :func:`run_bot` serves any in-process bot over a pair of streams (``fiftysix bot NAME``).
- Host side: :class:`ExternalBot` starts an outside program once per match and is itself a bot.  An
  answer that is not one of the legal moves, malformed JSON, no answer within the time limit, or a
  program that crashed or never started: that move is made by the host's fallback bot instead, the
  fault is recorded (:attr:`ExternalBot.faults`) and play goes on.
- :func:`bot_from_spec` makes a bot from ``NAME``, ``NAME,option=value,...`` or ``cmd:PROGRAM ARGS``.
"""

from __future__ import annotations

import contextlib
import json
import queue
import shlex
import subprocess
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import TextIO, cast

from .base import BOTS, Bot, RandomBot, Seen, View, legal_moves, view_json
from .why import MAX_REASON

PROTOCOL = 1
DEFAULT_TIMEOUT = 10.0
"""Seconds a bot has for one move (a host option)."""
CMD_PREFIX = "cmd:"

BotFactory = Callable[[str], Bot]
"""Makes a bot for a game (``"56"`` or ``"55"``)."""


# -- the bot side ----------------------------------------------------------------------------------------

def run_bot(bot: Bot | BotFactory, stdin: TextIO, stdout: TextIO, stderr: TextIO | None = None) -> int:
    """Serve one bot over the protocol until ``bye`` or the end of input; returns the exit status (0).

    :param bot: a bot, or a factory called with the game of each ``hello`` (so one program serves 56 and 55).
    A bot that raises while choosing answers ``{"type": "error", "message": ...}``, which the host
    counts as a fault; a line that is not a protocol message is reported on ``stderr`` and skipped.
    Bots may have ``observe(view)`` (for events) and ``deal_end(result)`` methods; both are optional.
    """
    err = stderr if stderr is not None else sys.stderr
    factory: BotFactory | None = None
    current: Bot | None = None
    if hasattr(bot, "choose"):
        current = bot  # type: ignore[assignment]
    else:
        factory = bot  # type: ignore[assignment,unused-ignore]

    def write(message: Mapping[str, object]) -> None:
        stdout.write(json.dumps(message, ensure_ascii=False) + "\n")
        stdout.flush()

    def get(game: str) -> Bot:
        nonlocal current
        if current is None:
            assert factory is not None
            current = factory(game)
        return current

    while True:
        line = stdin.readline()
        if not line:
            return 0
        line = line.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
            if not isinstance(message, dict):
                raise ValueError("not an object")
        except ValueError:
            err.write(f"fiftysix bot: skipped a line that is not a JSON object: {line[:120]!r}\n")
            err.flush()
            continue
        kind = message.get("type")
        if kind == "hello":
            if factory is not None:
                current = factory(str(message.get("game", "56")))
            write({"type": "ready", "name": getattr(get(str(message.get("game", "56"))), "name", "bot")})
        elif kind == "move":
            view = cast(View, message.get("view") or {})
            try:
                player = get(str(view.get("game", "56")))
                answer = {"type": "move", "move": player.choose(view)}
                said = getattr(player, "reason", None)
                if isinstance(said, str) and said:     # optional: why, for the deal review
                    answer["reason"] = said[:MAX_REASON]
                write(answer)
            except Exception as e:  # the host must hear of it, and the bot must live on
                traceback.print_exc(file=err)
                write({"type": "error", "message": f"{type(e).__name__}: {e}"})
        elif kind in ("event", "deal_end"):
            if current is None:
                continue
            method = getattr(current, "observe" if kind == "event" else "deal_end", None)
            if method is not None:
                try:
                    method(message.get("view") if kind == "event" else message.get("result"))
                except Exception:
                    traceback.print_exc(file=err)
        elif kind == "bye":
            return 0
        else:
            err.write(f"fiftysix bot: unknown message type {kind!r}\n")
            err.flush()


# -- bots by spec ------------------------------------------------------------------------------------------

BotOption = int | float | bool | str | None
"""The value of a bot option in a spec (``iterations=200``): a number, true/false/none, or text."""


def parse_bot_spec(spec: str) -> tuple[str, dict[str, BotOption]]:
    """``"ismcts,iterations=200,time_limit=0.5"`` → ``("ismcts", {"iterations": 200, "time_limit": 0.5})``.

    :raises ValueError: for an empty name or an option without ``=``.
    """
    name, *parts = [p.strip() for p in spec.split(",")]
    if not name:
        raise ValueError(f"bot spec {spec!r} has no bot name")
    options: dict[str, BotOption] = {}
    for part in parts:
        if not part:
            continue
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"bot option {part!r} must be written key=value")
        options[key.strip()] = _option_value(value.strip())
    return name, options


def _option_value(text: str) -> BotOption:
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return {"true": True, "false": False, "none": None}.get(text.lower(), text)


def bot_from_spec(spec: str, seed: int | None = None, game: str = "56", *, timeout: float = DEFAULT_TIMEOUT,
                  fallback: Bot | None = None) -> Bot:
    """A bot from a spec: a registered name with options, or ``cmd:PROGRAM ARGS`` for an outside program.

    :raises ValueError: for an unknown bot or option.
    """
    if spec.startswith(CMD_PREFIX):
        return ExternalBot(spec[len(CMD_PREFIX):], timeout=timeout, fallback=fallback, seed=seed)
    name, options = parse_bot_spec(spec)
    factory = BOTS.find(name, game, also=", or cmd:PROGRAM ARGS")
    try:
        return factory(seed=seed, **options)
    except TypeError as e:
        raise ValueError(f"bot {name}: {e}") from None


# -- the host side -----------------------------------------------------------------------------------------

class ExternalBot:
    """An outside program playing through the protocol; a bot like any other to the host.

    The program is started on the first move (or by :meth:`start`) and told of the match with
    ``hello``; :meth:`close` says ``bye`` and makes sure it has exited.  Faults never raise: the move is
    made by ``fallback`` and the reason is appended to :attr:`faults`.

    :param command: the program and its arguments, as a string (split like a shell would) or a list.
    :param timeout: seconds the program has for each move, and for its ``ready``.
    :param fallback: the bot that moves instead of a faulty program (default: random).
    """

    def __init__(self, command: str | Sequence[str], *, timeout: float = DEFAULT_TIMEOUT,
                 fallback: Bot | None = None, seed: int | None = None, events: bool = True) -> None:
        self.args = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.args:
            raise ValueError("cmd: needs a program to run")
        self.name = CMD_PREFIX + " ".join(self.args)
        self.timeout = timeout
        self.fallback: Bot = fallback if fallback is not None else RandomBot(seed)
        self.events = events
        self.faults: list[str] = []
        self.ready_name: str | None = None
        self.ready_problem: str | None = None   # why the program did not say ready (None once it has)
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=20)
        self._threads: list[threading.Thread] = []
        self._dead: str | None = None     # why the program no longer plays
        self._owed = 0                    # answers that came too late: skipped when they arrive
        self._started = False

    # -- life cycle -------------------------------------------------------------------------------------
    def start(self, game: str, rules: object, seat: int) -> None:
        """Start the program and say ``hello``; waits up to the time limit for ``ready``."""
        if self._started:
            return
        self._started = True
        try:
            self._process = subprocess.Popen(self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             stderr=subprocess.PIPE, text=True, encoding="utf-8",
                                             errors="replace", bufsize=1)
        except OSError as e:
            self._dead = self.ready_problem = f"the program could not be started: {e.strerror or e}"
            self.faults.append(self._dead)
            return
        for stream, sink in ((self._process.stdout, self._read_lines), (self._process.stderr, self._read_errors)):
            thread = threading.Thread(target=sink, args=(stream,), daemon=True)
            thread.start()
            self._threads.append(thread)
        if not self._send({"type": "hello", "protocol": PROTOCOL, "game": game, "rules": rules, "seat": seat}):
            self.ready_problem = f"hello not delivered: {self._dead}"
        else:
            answer, problem = self._receive(self.timeout)
            if problem is not None:
                self.ready_problem = f"no ready: {problem}"
            elif answer is not None and answer.get("type") == "ready":
                self.ready_name = str(answer.get("name", ""))
            else:
                self.ready_problem = f"expected ready, got {json.dumps(answer)[:120]}"
        if self.ready_problem is not None:
            self.faults.append(self.ready_problem)

    def close(self) -> None:
        """Say ``bye`` and make sure the program has exited (terminated, then killed, if it lingers)."""
        process = self._process
        if process is None:
            return
        self._send({"type": "bye"})
        with contextlib.suppress(OSError):
            if process.stdin is not None:
                process.stdin.close()
        try:
            process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            process.terminate()
            try:
                process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for thread in self._threads:
            thread.join(timeout=1)
        self._process = None

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the bot interface ------------------------------------------------------------------------------
    def choose(self, seen: Seen) -> str:
        """The program's move; the fallback's when the program fails (the fault is recorded).  The program is
        sent the JSON view, exactly as the host made it (:func:`fiftysix.views.view`)."""
        view = view_json(seen)
        legal = legal_moves(view)
        if not self._started:
            seat = view.get("seat")       # a view that asks a move has a seat
            self.start(str(view["game"]), view["rules"], seat if isinstance(seat, int) else 0)
        if self._dead is not None:
            return self._fault(view, f"the program does not play: {self._dead}")
        if not self._send({"type": "move", "view": view}):
            return self._fault(view, f"could not send the move: {self._dead}")
        answer, problem = self._receive(self.timeout)
        if problem is not None:
            return self._fault(view, problem)
        assert answer is not None
        kind = answer.get("type")
        if kind == "error":
            return self._fault(view, f"the bot reported an error: {str(answer.get('message'))[:200]}")
        if kind != "move":
            return self._fault(view, f"expected a move, got {json.dumps(answer)[:120]}")
        move = answer.get("move")
        if isinstance(move, str):
            wanted = move.strip().upper()
            for m in legal:
                if m.upper() == wanted:
                    return m
        shown = ", ".join(legal[:12]) + (", ..." if len(legal) > 12 else "")
        return self._fault(view, f"illegal move {move!r}; legal: {shown}")

    def observe(self, view: Mapping[str, object]) -> None:
        """Send an ``event`` (the seat's view after a move by anyone)."""
        if self.events and self._started and self._dead is None:
            self._send({"type": "event", "view": view})

    def deal_end(self, result: Mapping[str, object]) -> None:
        if self._started and self._dead is None:
            self._send({"type": "deal_end", "result": result})

    @property
    def fault_count(self) -> int:
        return len(self.faults)

    # -- plumbing ---------------------------------------------------------------------------------------
    def _fault(self, view: Mapping[str, object], message: str) -> str:
        self.faults.append(message)
        return self.fallback.choose(view)

    def _read_lines(self, stream: TextIO) -> None:
        for line in iter(stream.readline, ""):
            if line.strip():
                self._lines.put(line)
        self._lines.put(None)

    def _read_errors(self, stream: TextIO) -> None:
        for line in iter(stream.readline, ""):
            self._stderr.append(line.rstrip("\n"))

    def _send(self, message: Mapping[str, object]) -> bool:
        process = self._process
        if process is None or process.stdin is None:
            return False
        try:
            process.stdin.write(json.dumps(message, ensure_ascii=False) + "\n")
            process.stdin.flush()
            return True
        except (OSError, ValueError):
            self._dead = self._exit_text()
            return False

    def _receive(self, timeout: float) -> tuple[dict[str, object] | None, str | None]:
        """The answer to the last request, or why there is none (time-out, exit, malformed).

        Every request owes one answer line, so a late answer to an earlier request is recognised and
        skipped rather than taken for the answer to this one.
        """
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self._owed += 1
                return None, f"no answer within {timeout:g} s"
            if line is None:
                self._lines.put(None)   # stays at the end for later requests
                self._dead = self._exit_text()
                return None, self._dead
            if self._owed:
                self._owed -= 1
                continue
            break
        try:
            message = json.loads(line)
        except ValueError:
            return None, f"malformed JSON: {line.strip()[:120]!r}"
        if not isinstance(message, dict):
            return None, f"malformed message (not an object): {line.strip()[:120]!r}"
        return message, None

    def _exit_text(self) -> str:
        process = self._process
        code = None
        if process is not None:
            deadline = time.monotonic() + 1
            while process.poll() is None and time.monotonic() < deadline:
                time.sleep(0.01)
            code = process.poll()
        tail = " | ".join(line for line in list(self._stderr)[-3:] if line.strip())
        status = "still running but closed its output" if code is None else f"exit status {code}"
        return f"the program ended ({status})" + (f"; stderr: {tail[:300]}" if tail else "")

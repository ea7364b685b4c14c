"""Deal review: all hands as dealt, every trick, and what each card cost against best play.

:func:`review_record` turns a deal record (or one deal of a match record) into what the review page shows:
the hands as dealt, the auction, the contract, each trick with who played each card and who won it, the
result, and the double-dummy marks of :func:`fiftysix.analysis.analyze_deal` per card.  Analysing a deal
takes the solver from a fraction of a second to tens of seconds of CPU, so :class:`Reviews` runs it in a
process pool (the event loop and so every table never waits for it) behind a bounded queue, and keeps the
latest results.  Reviews are computed when first asked for, never for every deal played.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import hashlib
import json
import logging
import multiprocessing
import os
import signal
import sys
from collections import OrderedDict
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, TypedDict

from ..core.cards import Card
from ..core.deal import Deal
from ..core.errors import RecordError
from ..core.meaning import N_, Meaning, Plural, words_of
from ..games import GAMES
from ..records import read_deal

log = logging.getLogger("fiftysix.server")


class ReviewError(Exception):
    """A record that cannot be reviewed; the message (a :class:`Meaning`, translated per request) says why."""


class ReviewBusy(Exception):
    """The review queue is full: ask again in a moment."""


PENDING = N_("the review is being computed; ask again")


class PlayedCard(TypedDict):
    seat: int
    card: str


class ReviewTrick(TypedDict):
    """A trick of the reviewed deal (an unfinished record's last trick has no winner or points yet)."""

    leader: int
    winner: int | None
    points: int | None
    cards: list[PlayedCard]


class Review(TypedDict):
    """A deal's review: the deal as it went, its result, and the double-dummy marks of each card played
    (``analysis``: :func:`fiftysix.analysis.analyze_deal`'s, ``None`` with ``analysis_error`` saying why)."""

    game: str
    players: int
    rules: object           # the rules' JSON, as the record gives it
    dealer: int
    team_of: list[int]
    hands: list[list[str]]
    auction: list[object]
    trump: object
    tricks: list[ReviewTrick]
    complete: bool
    result: Mapping[str, object] | None     # the deal's result as the game writes it
    analysis: Mapping[str, object] | None
    analysis_error: Meaning | None


@dataclass(frozen=True)
class _Failed:
    """A review that cannot be computed, remembered: asked again it fails at once (``why`` in any language)."""

    why: str | Meaning


def review_record(data: object, index: int = 0, from_trick: int = 1) -> Review:
    """The review of a deal record, or of deal ``index`` of a match record (runs in a worker process).
    ``from_trick``: the first trick given double-dummy marks (the first tricks cost the solver the most).

    :raises ReviewError: for an invalid record or index.
    """
    from ..analysis import AnalyzeError, analyze_deal  # the solver in the worker, not in the server's start

    start, deal = _deals(data, index)
    game = GAMES[deal.game]
    tricks = [ReviewTrick(leader=t.leader, winner=t.winner, points=t.points,
                          cards=[PlayedCard(seat=t.seat_of(i, deal.n), card=str(c)) for i, c in enumerate(t.cards)])
              for t in deal.tricks]
    if deal.trick_cards:     # an unfinished record: its last trick so far
        tricks.append(ReviewTrick(leader=deal.trick_leader, winner=None, points=None,
                                  cards=[PlayedCard(seat=(deal.trick_leader + i) % deal.n, card=str(c))
                                         for i, c in enumerate(deal.trick_cards)]))
    analysis: Mapping[str, object] | None = None
    reason: Meaning | None = None
    try:
        analysis = analyze_deal(start, deal, from_trick=from_trick)
    except AnalyzeError as e:
        reason = Meaning(words_of(e))     # the page shows it: in the viewer's language when it is a message
    if analysis is not None and not analysis["cards"]:
        analysis, reason = None, Meaning("no card was played in this deal")
    record = data["deals"][index] if isinstance(data, Mapping) and "deals" in data else data
    assert isinstance(record, Mapping)
    return Review(
        game=deal.game, players=deal.n,
        rules=record["rules"] if isinstance(record.get("rules"), Mapping) else game.rules_to_json(deal.rules),
        dealer=deal.dealer, team_of=list(deal.rules.team_of),
        hands=[[str(c) for c in hand] for hand in deal.dealt],
        auction=list(record.get("auction") or []),
        trump=record.get("trump"),
        tricks=tricks, complete=deal.is_over,
        result=_result(deal), analysis=analysis, analysis_error=reason,
    )


def _deals(data: object, index: int) -> tuple[Deal, Deal]:
    """The deal at the start of its play and as the record leaves it (a match's deals replayed before it)."""
    try:
        if isinstance(data, Mapping) and "deals" in data:
            return _match_deal(data, index)
        if index != 0:
            raise ReviewError(Meaning("a deal record holds one deal: deal 0"))
        return _start_and_end(data, None)
    except RecordError as e:
        at = e.field if e.index is None else f"{e.field}[{e.index}]"
        why = e.message if isinstance(e.message, Meaning) else Meaning(e.message)
        raise ReviewError(Meaning("invalid record ({at}): {why}", {"at": at, "why": why})) from None


def _match_deal(data: Mapping[str, object], index: int) -> tuple[Deal, Deal]:
    name = data.get("game")
    game = GAMES.get(name) if isinstance(name, str) else None
    deals = data.get("deals")
    if game is None or not isinstance(deals, list):
        raise ReviewError(Meaning('invalid record: a match record needs a "game" ({games}) and "deals"',
                                  {"games": " or ".join(GAMES)}))
    if not deals:
        raise ReviewError(Meaning("this match record has no deals"))
    if not isinstance(index, int) or not 0 <= index < len(deals):
        raise ReviewError(Meaning("this match record has deals 0-{last}, not {index}",
                                  {"last": len(deals) - 1, "index": index}))
    try:
        rules = game.rules_from_json(data.get("rules"))
    except Exception as e:  # noqa: BLE001 - a rules error of any kind is reported as such
        why = words_of(e)
        raise ReviewError(Meaning("invalid record (rules): {why}",
                                  {"why": why if isinstance(why, Meaning) else Meaning(why)})) from None
    first = deals[0].get("dealer", 0) if isinstance(deals[0], Mapping) else 0
    match = game.new_match(rules, first_dealer=first if isinstance(first, int) else 0)
    for i in range(index):
        _start, before = _start_and_end(deals[i], match)
        if not before.is_over:
            raise ReviewError(Meaning("invalid record (deals[{i}]): unfinished, yet another deal follows", {"i": i}))
        match.finish(before)
    return _start_and_end(deals[index], match)


def _start_and_end(record: object, match: Any) -> tuple[Deal, Deal]:
    deal = read_deal(record, match)
    assert isinstance(record, Mapping)
    start = read_deal({**record, "play": []}, match)
    return start, deal


def _result(deal: Deal) -> Mapping[str, object] | None:
    """The deal's result as its JSON reads (the game's own shape), without its tricks."""
    if not deal.is_over:
        return None
    out = json.loads(json.dumps(dict(deal.result()), default=_plain))
    assert isinstance(out, dict)
    out.pop("tricks", None)    # the review lists them with their seats
    return out


def _plain(value: object) -> object:
    return str(value) if isinstance(value, Card) else repr(value)


def record_key(record: object, index: int) -> str:
    """A cache key for a dropped record (its canonical JSON's hash)."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"))
    return f"file:{hashlib.sha256(text.encode()).hexdigest()}:{index}"


class Reviews:
    """Reviews computed in ``workers`` processes, at most ``queue`` waiting or running, the latest ``keep``
    kept.  :meth:`get` answers at once: the review when done, ``None`` while it is being computed."""

    def __init__(self, workers: int = 1, queue: int = 8, keep: int = 256, from_trick: int = 1) -> None:
        self.workers, self.queue, self.keep, self.from_trick = workers, queue, keep, from_trick
        self.done: OrderedDict[str, Review | _Failed] = OrderedDict()
        self.running: dict[str, asyncio.Future[Review]] = {}
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:     # spawn: a fork of a process with threads (the event loop's) is unsafe
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_worker_start, initargs=(os.getpid(),))
        return self._pool

    def known(self, key: str) -> bool:
        """Whether the review under ``key`` is done or being computed (asking for it costs nothing)."""
        return key in self.done or key in self.running

    def get(self, key: str, record: object, index: int = 0) -> Review | None:
        """The review of ``record`` under ``key``, or ``None`` while it is being computed (ask again).

        :raises ReviewBusy: when ``queue`` reviews are waiting or running already.
        :raises ReviewError: when the record cannot be reviewed (remembered: asked again it fails at once).
        """
        if key in self.done:
            self.done.move_to_end(key)
            found = self.done[key]
            if isinstance(found, _Failed):
                raise ReviewError(found.why)       # a Meaning: each request gets it in its language
            return found
        future = self.running.get(key)
        if future is None:
            if len(self.running) >= self.queue:
                raise ReviewBusy(Plural("{n} review is being computed; ask again in a few seconds",
                                        "{n} reviews are being computed; ask again in a few seconds", self.queue))
            _deals(record, index)      # a bad record is refused here at once (a replay: milliseconds)
            loop = asyncio.get_running_loop()
            work = self._executor().submit(review_record, record, index, self.from_trick)
            future = asyncio.wrap_future(work, loop=loop)
            self.running[key] = future
            future.add_done_callback(lambda f: self._finished(key, f))
        return None

    async def wait(self, key: str, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for a review being computed."""
        future = self.running.get(key)
        if future is not None:
            await asyncio.wait({future}, timeout=timeout)

    def _finished(self, key: str, future: asyncio.Future[Review]) -> None:
        self.running.pop(key, None)
        if future.cancelled():
            return
        error = future.exception()
        if isinstance(error, ReviewError):
            self._keep(key, _Failed(words_of(error)))
        elif error is not None:
            log.error("review %s failed: %r", key, error)
            self._keep(key, _Failed(Meaning("the review could not be computed: {error}", {"error": str(error)})))
        else:
            self._keep(key, future.result())

    def _keep(self, key: str, value: Review | _Failed) -> None:
        self.done[key] = value
        while len(self.done) > self.keep:
            self.done.popitem(last=False)

    def close(self) -> None:
        """Stop the workers, a review being computed too: it would run on to its end (minutes of a core for a
        whole 56-8 deal) with nobody left to read it."""
        if self._pool is not None:
            workers = list(getattr(self._pool, "_processes", None) or {})    # pids (Python 3.14: terminate_workers)
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            for pid in workers:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGTERM)


def _worker_start(parent: int) -> None:
    """In each worker: die with the server.  A server killed with ``kill -9`` cannot stop its workers, and one
    in the middle of a review would keep a core busy for nothing; Linux ends it when its parent goes."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:      # the parent went before the line above took effect
        os._exit(0)


PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: the signal a process gets when its parent dies."""

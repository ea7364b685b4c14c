"""An opt-in sampler of what holds the event loop (issue 59): ``FIFTYSIX_LOOP_LAG_MS=100`` logs the stack of any
callback that keeps the loop from turning for longer than 100 ms.

asyncio's debug mode (``slow_callback_duration``) names a slow callback only after it returned, and not where it
spent its time; here a heartbeat on the loop stamps the time every few ms, and a watchdog thread that finds the
stamp older than the threshold reads the loop thread's current frame (``sys._current_frames``): the stack of
whatever is running there now.  A held loop is logged once when found (with its stack) and once when it turns
again: how long it was held in all, and how much of that the loop's thread ran (its CPU time, stamped by the
heartbeat): a hold the thread ran through is work on the loop to fix; one it mostly did not run is a machine
that gave the process no core.  Off unless the variable is set: the heartbeat costs a wake-up a tick.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
import time
import traceback

ENV = "FIFTYSIX_LOOP_LAG_MS"

log = logging.getLogger("fiftysix.server.looplag")


class LoopLag:
    """The heartbeat and its watchdog for one running loop (:meth:`start` on the loop, :meth:`stop` after)."""

    def __init__(self, threshold_ms: float) -> None:
        self.threshold = threshold_ms / 1000
        self.tick = min(self.threshold / 4, 0.025)
        self.beat = (time.monotonic(), time.thread_time())      # when, and the loop thread's CPU time then
        self.held: list[tuple[float, float]] = []      # each hold: (seconds, of which the loop's thread ran)
        self._stop = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._handle: asyncio.TimerHandle | None = None
        self._thread: threading.Thread | None = None
        self._loop_thread = 0

    def start(self) -> None:
        """Begin: the heartbeat on the running loop, the watchdog in a daemon thread."""
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        self._heartbeat()
        self._thread = threading.Thread(target=self._watch, name="fiftysix loop-lag", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._handle is not None:
            self._handle.cancel()
        if self._thread is not None:
            self._thread.join(timeout=2)

    def _heartbeat(self) -> None:
        self.beat = (time.monotonic(), time.thread_time())
        assert self._loop is not None
        self._handle = self._loop.call_later(self.tick, self._heartbeat)

    def _watch(self) -> None:
        held_since: tuple[float, float] | None = None
        while not self._stop.wait(self.tick):
            beat = self.beat
            late = time.monotonic() - beat[0]
            if held_since is not None and beat != held_since:        # it turned again
                wall, ran = beat[0] - held_since[0], beat[1] - held_since[1]
                self.held.append((wall, ran))
                log.warning("event loop was held %.0f ms, its thread running %.0f ms of it", wall * 1000, ran * 1000)
                held_since = None
            if held_since is None and late > self.threshold + self.tick:
                held_since = beat
                log.warning("event loop held for %.0f ms so far (over %.0f ms), now in:\n%s", late * 1000,
                            self.threshold * 1000, self.stack())

    def stack(self) -> str:
        """The loop thread's stack as it is now."""
        frame = sys._current_frames().get(self._loop_thread)
        return "".join(traceback.format_stack(frame)) if frame is not None else "(the loop's thread is gone)"


def from_env() -> LoopLag | None:
    """The sampler ``FIFTYSIX_LOOP_LAG_MS`` asks for (a positive number of ms), or None."""
    raw = os.environ.get(ENV, "").strip()
    if not raw:
        return None
    try:
        threshold = float(raw)
    except ValueError:
        raise SystemExit(f"{ENV} must be a number of milliseconds (such as 100), not {raw!r}") from None
    if threshold <= 0:
        raise SystemExit(f"{ENV} must be more than 0 ms, not {raw!r}")
    return LoopLag(threshold)

"""Where the arena's deals are played: in this process, in ``--workers`` processes or as tasks on a Ray cluster
(``--ray``).  Every executor runs the same chunks of :func:`~.duplicate.run_chunk`, so a deal's result does not
depend on the choice (see :mod:`.duplicate`); this module only chooses and merges.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from .cluster import run_on_ray  # Ray itself is imported only when a run asks for it
from .duplicate import ArenaConfig, ChunkResult, Tally, run_chunk

Progress = Callable[[int], None]
"""Told how many deals were played to the end, as they are."""


def run_arena(config: ArenaConfig, progress: Progress | None = None,
              ray_address: str | None = None) -> tuple[ChunkResult, float]:
    """Play every deal in every seating, in ``config.workers`` processes or as tasks on a Ray cluster;
    returns the plays (sorted by deal and seating), the merged tallies, and the elapsed seconds.

    Ctrl-C (``KeyboardInterrupt``) stops the run: the deals played to the end are returned, with
    ``interrupted`` set.

    :raises BotFailure: when an outside program does not play.
    :raises RuntimeError: when Ray is asked for but cannot be used.
    """
    start = time.perf_counter()
    results: list[ChunkResult] = []
    if ray_address is not None:
        interrupted = run_on_ray(config, ray_address, results, progress)
    elif config.workers <= 1:
        interrupted = _in_this_process(config, results, progress)
    else:
        interrupted = _in_processes(config, results, progress)
    merged = merge(config, results)
    merged.interrupted = interrupted
    return merged, time.perf_counter() - start


def _in_this_process(config: ArenaConfig, results: list[ChunkResult], progress: Progress | None) -> bool:
    """One chunk of every deal; its plays are kept as each deal ends, so Ctrl-C keeps what was played."""
    sink = ChunkResult([], [Tally() for _ in config.bots])
    results.append(sink)
    try:
        run_chunk(config, config.indices, progress, sink)
    except KeyboardInterrupt:
        return True
    return False


def _in_processes(config: ArenaConfig, results: list[ChunkResult], progress: Progress | None) -> bool:
    """The chunks over a pool of ``config.workers`` processes; Ctrl-C keeps the chunks done."""
    import multiprocessing
    from functools import partial

    parts = chunks(config.deals, config.workers, config.first)
    pool = multiprocessing.Pool(config.workers, initializer=_worker_signals)
    try:
        for res in pool.imap_unordered(partial(run_chunk, config), parts):
            results.append(res)
            if progress is not None:
                progress(res.deals)
        pool.close()
    except KeyboardInterrupt:
        return True
    finally:
        pool.terminate()
        pool.join()
    return False


def chunks(n: int, workers: int, first: int = 0) -> list[list[int]]:
    """Deal indices ``first`` to ``first + n - 1`` split for the workers: a few chunks each, so the progress
    bar moves."""
    if workers <= 1:
        return [list(range(first, first + n))]
    size = max(1, min(20, -(-n // (workers * 4))))
    return [list(range(first + i, first + min(i + size, n))) for i in range(0, n, size)]


def _worker_signals() -> None:
    """Worker processes leave Ctrl-C to the parent, which stops them and keeps what is done; SIGTERM ends a
    worker (the parent's handler, which turns it into Ctrl-C, is not for them)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def merge(config: ArenaConfig, results: Sequence[ChunkResult]) -> ChunkResult:
    """One result of many chunks: plays sorted by deal and seating, tallies and names merged."""
    tallies = [Tally() for _ in config.bots]
    plays = []
    names: dict[int, str] = {}
    for res in results:
        plays += res.plays
        for b, name in res.names.items():
            names.setdefault(b, name)
        for total, part in zip(tallies, res.tallies, strict=True):
            total.merge(part)
    plays.sort(key=lambda p: (p.deal, p.seating))
    return ChunkResult(plays, tallies, names)


__all__ = ["Progress", "chunks", "merge", "run_arena"]

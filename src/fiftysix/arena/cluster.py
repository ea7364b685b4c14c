"""The arena on a Ray cluster (``fiftysix arena --ray ADDRESS``, extra ``[cluster]``): chunks of deal pairs run
as Ray tasks; the results are the same as in one process for the same seed (see :mod:`.duplicate`).

``ADDRESS`` is a cluster's address (``127.0.0.1:6379``, as ``ray start --head`` prints it), ``auto`` (the cluster
this machine belongs to) or ``local`` (a cluster started in this process for the run).  Every node must be able to
import ``fiftysix`` (install it there).
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import tempfile
from collections.abc import Callable, Iterator
from typing import IO, Any

from .duplicate import ArenaConfig, ChunkResult, run_chunk

CHUNK = 4
"""Deals per task: small, so progress moves and the work spreads over the cluster's CPUs."""

WAIT_SECONDS = 0.5
PROBE_SECONDS = 5.0


def _ray() -> Any:
    """:raises RuntimeError: when Ray is not installed."""
    try:
        import ray
    except ImportError:
        raise RuntimeError("--ray needs Ray: pip install 'fiftysix[cluster]'") from None
    return ray


def connect(address: str) -> Any:
    """Join the cluster at ``address`` (``local``: start one in this process).

    :raises RuntimeError: when Ray is missing or the cluster cannot be reached.
    """
    if address == "local":
        # a cluster of this machine alone: keep every Ray service on the loopback address (Ray's own switch,
        # read when Ray is imported)
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    host, colon, port = address.rpartition(":")
    if colon and port.isdigit():    # Ray retries an absent cluster for minutes: ask the address first
        try:
            socket.create_connection((host.strip("[]"), int(port)), timeout=PROBE_SECONDS).close()
        except OSError as e:
            raise RuntimeError(f"cannot join the Ray cluster at {address!r}: nothing answers there ({e})") from None
    ray = _ray()
    if ray.is_initialized():
        return ray
    with tempfile.TemporaryFile() as said:
        _init(ray, address, said)
    return ray


def _init(ray: Any, address: str, said: IO[bytes]) -> None:
    """``ray.init``, with what Ray writes to fd 2 meanwhile kept in ``said``: shown if the cluster is joined;
    read for the reason if not (a head that wants a token says so in its log lines only, while the exception
    says "Failed to connect").

    :raises RuntimeError: in one sentence, with the fix when the reason is a missing token.
    """
    try:
        with _stderr_to(said):      # Ray's C++ client writes each retry to fd 2 itself
            if address == "local":
                ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False)
            else:
                ray.init(address=address, log_to_driver=False, configure_logging=False)
    except Exception as e:   # noqa: BLE001 - Ray raises many kinds; each is told to the user in one sentence
        log = _read(said)
        if _token_refused(e) or _token_refused_in(log):
            raise RuntimeError(TOKEN_HELP.format(address=address, error=_refusal_line(log) or e)) from None
        if isinstance(e, ConnectionError | RuntimeError | ValueError):
            raise RuntimeError(f"cannot join the Ray cluster at {address!r}: {e}") from None
        raise
    sys.stderr.write(_read(said))


@contextlib.contextmanager
def _stderr_to(file: IO[bytes]) -> Iterator[None]:
    """File descriptor 2 (where Ray's C++ code writes) into ``file`` for a while."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        os.dup2(file.fileno(), 2)
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)


def _read(file: IO[bytes]) -> str:
    file.seek(0)
    return file.read().decode("utf-8", "replace")


def _token_refused_in(log: str) -> bool:
    return "InvalidAuthToken" in log or "Unauthenticated" in log


def _refusal_line(log: str) -> str:
    """Ray's own words of the refusal, from its last log line that has them."""
    lines = [line for line in log.splitlines() if _token_refused_in(line)]
    return lines[-1].split("] ", 1)[-1].strip() if lines else ""


TOKEN_HELP = ("cannot join the Ray cluster at {address!r}: it asks for Ray's authentication token ({error}). "
              "Ray 2.59 and later turn token authentication on for clusters started with `ray start --head`; "
              "give this process the cluster's token: run `ray get-auth-token` on the head and set "
              "RAY_AUTH_MODE=token and RAY_AUTH_TOKEN=<that token> (or RAY_AUTH_TOKEN_PATH=<a file holding it>) "
              "before `fiftysix arena --ray`")


def _token_refused(error: BaseException) -> bool:
    """Whether Ray refused this process for a missing or wrong authentication token."""
    text = f"{type(error).__name__} {error}".lower()
    return "invalidauthtoken" in text or "authentication token" in text or "unauthenticated" in text


def run_on_ray(config: ArenaConfig, address: str, results: list[ChunkResult],
               progress: Callable[[int], None] | None = None) -> bool:
    """Run every chunk of the arena as a Ray task, appending each chunk's result to ``results`` as it ends;
    returns whether the run was interrupted (Ctrl-C: the tasks not yet done are cancelled).

    :raises BotFailure: (re-raised from the task) when an outside program does not play.
    :raises RuntimeError: when Ray is missing or the cluster cannot be reached.
    """
    ray = connect(address)
    task = ray.remote(num_cpus=1, max_retries=0)(_chunk_task)
    deals = config.indices
    parts = [list(deals[i:i + CHUNK]) for i in range(0, len(deals), CHUNK)]
    pending = [task.remote(config, part) for part in parts]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1, timeout=WAIT_SECONDS)
            for ref in done:
                try:
                    res = ray.get(ref)
                except ray.exceptions.RayTaskError as e:
                    raise e.as_instanceof_cause() from None
                results.append(res)
                if progress is not None:
                    progress(res.deals)
    except KeyboardInterrupt:
        for ref in pending:
            ray.cancel(ref, force=True)
        return True
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    return False


def _chunk_task(config: ArenaConfig, indices: list[int]) -> ChunkResult:
    return run_chunk(config, indices)
